"""What an experiment runs on: named data sets, generator specs and CSV files.

:func:`resolve` turns the command line's ``DATA`` into a list of
:class:`Dataset`:

* a registered name (``sonar``, ``breast_cancer``, ...; see
  ``perceptron-lab datasets``), optionally with options:
  ``digits:positive_class=3``;
* a generator spec, ``NAME:key=value,...``. For ``kw`` the paper's letters
  work: ``kw:f=50,M=0.05,N=0.1`` (``f`` features, margin ``M``, noise ``N``;
  ``n`` examples, default 600). For every generator ``n`` means
  ``n_samples``. A generator gives ``count`` data sets, each with its own
  seed derived from the experiment's seed;
* a path to a CSV file (read by :func:`perceptron_core.datasets.load_csv`;
  the last column is the label).

Every :class:`Dataset` carries binary labels as ±1 floats and a digest of its
bytes (part of every cache key).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from pathlib import Path

import numpy as np

from perceptron_core.experiments.cache import array_digest
from perceptron_core.experiments.fold_run import as_plus_minus, native
from perceptron_core.experiments.folds import derive_seed

#: The KW paper's letters for make_kw's options.
KW_ALIASES = {"f": "n_features", "M": "margin", "N": "noise", "n": "n_samples"}
#: Short names every generator understands.
COMMON_ALIASES = {"n": "n_samples", "N": "noise"}


@dataclass(frozen=True, eq=False)
class Dataset:
    """One data set of an experiment.

    Attributes
    ----------
    label : str
        A unique name within the experiment (also a part of its seeds).
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,), float64 in {-1, +1}
    tags : dict
        Row labels for tables (e.g. ``{"noise": 0.1}``).
    """

    label: str
    X: np.ndarray
    y: np.ndarray
    tags: dict = field(default_factory=dict)

    @cached_property
    def digest(self) -> str:
        return array_digest(self.X, self.y)

    def __repr__(self) -> str:
        return f"Dataset({self.label!r}, {self.X.shape[0]} x {self.X.shape[1]})"


def make_dataset(label: str, X, y, **tags) -> Dataset:
    """A :class:`Dataset` from arrays (labels mapped to ±1)."""
    return Dataset(label, native(X), as_plus_minus(y), dict(tags))


def _value(text: str):
    """``'0.05'`` -> 0.05, ``'600'`` -> 600, ``'1/11'`` -> 0.0909..., else the text."""
    text = text.strip()
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(Fraction(text))
    except (ValueError, ZeroDivisionError):
        return text


def parse_spec(spec: str) -> tuple[str, dict]:
    """``'kw:f=50,M=0.05'`` -> ``('kw', {'n_features': 50, 'margin': 0.05})``.

    Examples
    --------
    >>> parse_spec("kw:f=50,M=0.05,N=0.1")
    ('kw', {'n_features': 50, 'margin': 0.05, 'noise': 0.1})
    >>> parse_spec("twonorm:n=300,noise=0.1")
    ('twonorm', {'n_samples': 300, 'noise': 0.1})
    """
    name, _, rest = spec.partition(":")
    name = name.strip()
    aliases = KW_ALIASES if name.lower() == "kw" else COMMON_ALIASES
    options = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = part.partition("=")
        if not eq:
            raise ValueError(f"In {spec!r}, {part!r} is not of the form key=value.")
        key = key.strip()
        options[aliases.get(key, key)] = _value(value)
    return name, options


def _kw_label(options: dict) -> str:
    """``kw:f=50,M=0.05,...`` in the paper's letters (``kw`` without options)."""
    short = {v: k for k, v in KW_ALIASES.items()}
    if not options:
        return "kw"
    return "kw:" + ",".join(
        f"{short.get(k, k)}={v:g}" if isinstance(v, float) else f"{short.get(k, k)}={v}"
        for k, v in options.items()
    )


def resolve(data: str, count: int = 1, seed: int = 0) -> list[Dataset]:
    """The data sets named by ``data`` (see the module docstring).

    Parameters
    ----------
    data : str
        A registered name, a generator spec, or a CSV path.
    count : int, default=1
        How many data sets a generator spec gives (ignored otherwise).
    seed : int, default=0
        The experiment's seed; generator ``i`` uses
        ``derive_seed(seed, "data", data, i)`` unless the spec sets
        ``random_state``.

    Examples
    --------
    >>> sets = resolve("kw:f=10,M=0.1,N=0.05,n=100", count=2, seed=1)
    >>> [(d.label, d.X.shape) for d in sets]
    [('kw:f=10,M=0.1,N=0.05,n=100 #1', (100, 10)), ('kw:f=10,M=0.1,N=0.05,n=100 #2', (100, 10))]
    >>> resolve("breast_cancer_original")[0].X.shape
    (683, 9)
    """
    from perceptron_core.datasets import get_spec, load, load_csv

    if not data.strip(" ,:"):
        raise ValueError(
            f"No data set given ({data!r}): name a data set (e.g. sonar), a generator spec "
            "(e.g. kw:f=50,M=0.05,N=0.1) or a CSV file."
        )
    path = Path(data)
    if data.lower().endswith(".csv") or (path.suffix and path.exists()):
        if not path.exists():
            raise ValueError(f"There is no file {data!r}.")
        csv = load_csv(path)
        return [make_dataset(path.name, csv.X, csv.y)]
    name, options = parse_spec(data)
    spec = get_spec(name)  # raises a DataError (a ValueError) naming the known sets
    if spec.kind != "generator":
        X, y, _ = load(spec.name, **options)
        return [make_dataset(data, X, y)]
    label = _kw_label(options) if spec.name == "kw" else data
    sets = []
    for i in range(count):
        opts = dict(options)
        opts.setdefault("random_state", derive_seed(seed, "data", label, i))
        X, y, _ = load(spec.name, **opts)
        sets.append(make_dataset(f"{label} #{i + 1}" if count > 1 else label, X, y, **options))
    return sets


def kw_sets(
    n_features: int, margin: float, noise: float, count: int, seed: int, n_samples: int = 600
) -> list[Dataset]:
    """``count`` KW artificial data sets ``(f, M, N)``, tagged with ``noise`` for tables.

    Examples
    --------
    >>> [d.tags for d in kw_sets(10, 0.1, 0.05, 1, seed=0, n_samples=50)]
    [{'f': 10, 'M': 0.1, 'N': 0.05, 'noise': 0.05}]
    """
    spec = f"kw:f={n_features},M={margin:g},N={noise:g}"
    if n_samples != 600:
        spec += f",n={n_samples}"
    sets = resolve(spec, count, seed)
    return [
        Dataset(d.label, d.X, d.y, {"f": n_features, "M": margin, "N": noise, "noise": noise})
        for d in sets
    ]
