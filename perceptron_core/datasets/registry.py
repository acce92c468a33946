"""One registry for every data set the lab knows: :func:`load` and :func:`list_datasets`.

Four kinds of entries:

* ``"generator"``: artificial data made on the fly (``kw``, ``twonorm``, the
  2-D teaching sets, ...); their options are the generator's parameters and
  ``random_state``.
* ``"shipped"``: real data converted once into ``data/*.npz`` (NumPy only at
  run time); see ``data/README.md``.
* ``"scikit-learn"``: sets that ship inside scikit-learn (read from it, no
  download).
* ``"external"``: Fashion-MNIST, read from a local install when present.

Label conventions of :func:`load`:

* two classes: ``y`` in {-1, +1}; ``info.class_names[0]`` is the -1 class,
  ``info.class_names[1]`` the +1 class (for real data, the "event" class:
  malignant, mine, spam, ... unless ``positive_class`` names the other one);
* more classes: ``y`` in ``0..K-1`` with ``info.class_names[k]`` for class k,
  or, with ``positive_class=...``, a one-vs-rest binary task in {-1, +1}.
"""

from __future__ import annotations

import ast
import functools
import inspect
import numbers
import operator
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any

# The table below is read without NumPy (``perceptron-lab generate --help`` lists every
# generator option, and NumPy and scikit-learn would be most of its time): the modules that
# read or make data, and DataError's own module, are imported inside the functions.
if TYPE_CHECKING:
    import numpy as np

    from ._common import Target

#: The ten Fashion-MNIST classes, in label order 0..9 (here, not in :mod:`.idx`, so the table
#: is built without importing NumPy).
FASHION_MNIST_CLASSES = (
    "T-shirt/top",
    "Trouser",
    "Pullover",
    "Dress",
    "Coat",
    "Sandal",
    "Shirt",
    "Sneaker",
    "Bag",
    "Ankle boot",
)

# --------------------------------------------------------------------------
# Public records
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Option:
    """One option of a data set, for :func:`load`, the CLI and the app's widgets.

    Attributes
    ----------
    name : str
        Keyword of :func:`load`.
    default : object
        Value used when the option is not given.
    type : str
        ``"int"``, ``"float"``, ``"str"``, ``"dtype"`` (a NumPy type name),
        ``"seed"`` (``random_state``), ``"class"`` (a class name or index) or
        ``"path"``.
    help : str
        What it does, in one sentence.
    choices : tuple or None
        Allowed values when there is a short list.
    slider : tuple or None
        ``(low, high, step)``: the range of the slider the app's data panel draws for a
        number (a share link is held to it too); None: the panel offers no slider for it.
    """

    name: str
    default: object
    type: str
    help: str
    choices: tuple | None = None
    slider: tuple[float, float, float] | None = None


@dataclass(frozen=True)
class DatasetSpec:
    """A registry entry, as listed by :func:`list_datasets` (no data is read).

    ``shape``, ``class_names`` and ``class_counts`` describe what
    ``load(name)`` returns with the default options; ``class_counts`` is None
    where it is random (generators). ``in_app``: whether the app's data panel
    offers it (the sliders it draws are its options' ``slider``).
    """

    name: str
    title: str
    kind: str
    description: str
    source: str
    licence: str
    shape: tuple[int, int]
    class_names: tuple[str, ...]
    class_counts: tuple[int, ...] | None
    loader: Callable[..., Any] = field(repr=False, compare=False)
    options: tuple[Option, ...] = ()
    notes: str = ""
    file: str | None = None
    in_app: bool = False

    @property
    def available(self) -> bool:
        """Whether :func:`load` can read it on this machine."""
        from ._common import DataError
        from .idx import fashion_mnist_folder
        from .real import find_data_file

        if self.kind == "shipped":
            return self.file is not None and find_data_file(self.file) is not None
        if self.kind == "external":
            try:
                fashion_mnist_folder()
            except DataError:
                return False
        return True

    @property
    def majority_rate(self) -> float | None:
        """Accuracy of always predicting the most frequent class (None if random)."""
        if not self.class_counts:
            return None
        return max(self.class_counts) / sum(self.class_counts)


@dataclass(frozen=True, eq=False)
class DatasetInfo:
    """What :func:`load` says about the data it returns.

    Attributes
    ----------
    name, title, description, source, licence, notes : str
    shape : (int, int)
        ``X.shape``.
    feature_names : tuple of str
    class_names : tuple of str
        Name of each label value, in the order of ``labels``.
    labels : tuple of int
        The label values used in ``y``: ``(-1, 1)`` for binary tasks,
        ``(0, ..., K-1)`` for multi-class ones.
    class_counts : tuple of int
        Number of examples of each label value (after noise, for generators).
    options : dict
        The options the set was loaded with (defaults filled in).
    flipped : ndarray of bool or None
        Generators only: which labels the label noise flipped.
    target : Target or None
        Generators only: the true boundary.
    """

    name: str
    title: str
    description: str
    source: str
    licence: str
    shape: tuple[int, int]
    feature_names: tuple[str, ...]
    class_names: tuple[str, ...]
    labels: tuple[int, ...]
    class_counts: tuple[int, ...]
    options: dict = field(default_factory=dict)
    notes: str = ""
    flipped: np.ndarray | None = field(default=None, repr=False)
    target: Target | None = field(default=None, repr=False)

    @property
    def n_samples(self) -> int:
        return self.shape[0]

    @property
    def n_features(self) -> int:
        return self.shape[1]

    @property
    def balance(self) -> dict[str, float]:
        """Share of each class, by class name."""
        total = sum(self.class_counts) or 1
        return {name: count / total for name, count in zip(self.class_names, self.class_counts)}

    @property
    def majority_rate(self) -> float:
        """Accuracy of always predicting the most frequent class: the baseline to beat."""
        return max(self.class_counts) / (sum(self.class_counts) or 1)

    def __str__(self) -> str:
        parts = ", ".join(
            f"{n} {c} ({c / (sum(self.class_counts) or 1):.1%})"
            for n, c in zip(self.class_names, self.class_counts)
        )
        return (
            f"{self.title}: {self.shape[0]} examples x {self.shape[1]} features; {parts}; "
            f"majority baseline {self.majority_rate:.1%}. Source: {self.source}"
        )


# --------------------------------------------------------------------------
# Label handling for real data
# --------------------------------------------------------------------------


def _encode(name: str, codes: np.ndarray, class_names, positive_class):
    """Map stored class codes to (y, class_names, labels) per the module's conventions."""
    import numpy as np

    from ._common import DataError

    names = tuple(str(c) for c in class_names)
    k = len(names)
    if positive_class is None:
        if k == 2:
            return np.where(codes == 1, 1, -1).astype(np.int64), names, (-1, 1)
        return codes.astype(np.int64), names, tuple(range(k))
    if isinstance(positive_class, str) and positive_class in names:
        pos = names.index(positive_class)
    elif (
        isinstance(positive_class, numbers.Integral)
        and not isinstance(positive_class, bool)
        and 0 <= int(positive_class) < k
    ):
        pos = int(positive_class)
    else:
        raise DataError(
            f"{name}: positive_class must be one of the class names {list(names)} or a class "
            f"index from 0 to {k - 1}; got {positive_class!r}."
        )
    y = np.where(codes == pos, 1, -1).astype(np.int64)
    negative = names[1 - pos] if k == 2 else f"not {names[pos]}"
    return y, (negative, names[pos]), (-1, 1)


def _counts(y: np.ndarray, labels) -> tuple[int, ...]:
    return tuple(int((y == v).sum()) for v in labels)


def _info(
    spec: DatasetSpec, X, y, class_names, labels, feature_names, options, notes="", **extra
) -> DatasetInfo:
    return DatasetInfo(
        name=spec.name,
        title=spec.title,
        description=spec.description,
        source=spec.source,
        licence=spec.licence,
        shape=tuple(X.shape),
        feature_names=tuple(feature_names),
        class_names=tuple(class_names),
        labels=tuple(labels),
        class_counts=_counts(y, labels),
        options=options,
        notes=notes or spec.notes,
        **extra,
    )


# --------------------------------------------------------------------------
# Loaders
# --------------------------------------------------------------------------


def _real_loader(spec: DatasetSpec, positive_class=None, **options):
    import numpy as np

    from ._common import DataError
    from .real import read_shipped, read_sklearn

    if spec.kind == "scikit-learn":
        arrays = read_sklearn(spec.name)
    elif spec.file is not None:
        arrays = read_shipped(spec.file)
    else:
        raise DataError(f"The registry entry {spec.name} names no data file.")
    X = arrays["X"].astype(np.float64)
    codes = arrays["y"]
    feature_names = [str(f) for f in arrays["feature_names"]]
    notes = spec.notes
    if "missing" in options:  # breast_cancer_original
        rows_ok = ~np.isnan(X).any(axis=1)
        if options["missing"] == "drop":
            X, codes = X[rows_ok], codes[rows_ok]
        elif options["missing"] == "indicator":
            cols = np.flatnonzero(np.isnan(X).any(axis=0))
            indicators = np.isnan(X[:, cols]).astype(np.float64)
            for c in cols:
                column = X[:, c]
                column[np.isnan(column)] = np.median(column[~np.isnan(column)])
            X = np.hstack([X, indicators])
            feature_names += [f"{feature_names[c]} missing" for c in cols]
        else:
            raise DataError(
                f"{spec.name}: missing must be 'drop' or 'indicator'; got {options['missing']!r}."
            )
    if "part" in options:  # ticdata
        part = options["part"]
        if part not in ("all", "train", "test"):
            raise DataError(f"{spec.name}: part must be 'all', 'train' or 'test'; got {part!r}.")
        if part != "all":
            keep = arrays["part"] == part
            X, codes = X[keep], codes[keep]
    y, class_names, labels = _encode(spec.name, codes, arrays["class_names"], positive_class)
    options = {"positive_class": positive_class, **options}
    return X, y, _info(spec, X, y, class_names, labels, feature_names, options, notes)


def _fashion_loader(spec: DatasetSpec, positive_class=None, part="all", path=None, dtype="uint8"):
    from ._common import DataError
    from .idx import load_fashion_mnist

    if dtype not in ("uint8", "float32", "float64"):
        raise DataError(
            f"fashion_mnist: dtype must be 'uint8', 'float32' or 'float64'; got {dtype!r}."
        )
    X, codes = load_fashion_mnist(path=path, part=part)
    X = X.astype(dtype, copy=False)
    y, class_names, labels = _encode(spec.name, codes, FASHION_MNIST_CLASSES, positive_class)
    feature_names = [f"pixel_{r}_{c}" for r in range(28) for c in range(28)]
    options = {"positive_class": positive_class, "part": part, "path": path, "dtype": dtype}
    return X, y, _info(spec, X, y, class_names, labels, feature_names, options)


def _generator_loader(module: str, function: str):
    """The loader of a generator: ``function`` of the submodule ``module``, imported on use.

    The function's own defaults fill what ``options`` leaves out (the registry holds no
    defaults of its own), and ``info.options`` reports every argument it ran with.
    """

    def loader(spec: DatasetSpec, **options):
        func = getattr(import_module(f"{__package__}.{module}"), function)
        bound = inspect.signature(func).bind(**options)
        bound.apply_defaults()
        full = {o.name: bound.arguments[o.name] for o in spec.options}
        X, y, flipped, target = func(**full)
        feature_names = [f"x{i + 1}" for i in range(X.shape[1])]
        return (
            X,
            y,
            _info(
                spec,
                X,
                y,
                ("-1", "+1"),
                (-1, 1),
                feature_names,
                full,
                flipped=flipped,
                target=target,
            ),
        )

    return loader


# --------------------------------------------------------------------------
# A generator's options, read from its source
# --------------------------------------------------------------------------

#: Option types that follow from a parameter's name rather than its annotation.
_TYPE_BY_NAME = {"random_state": "seed", "dtype": "dtype"}
#: The arithmetic a generator's default may use.
_OPERATORS = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
}


def _constant(node: ast.expr, names: dict[str, ast.expr]):
    """The value of a default written as a number, a string, None, a module constant or
    arithmetic on those (``1 / 11``): what generators use, evaluated without importing them."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name) and node.id in names:
        return _constant(names[node.id], names)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_constant(node.operand, names)
    if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
        left, right = _constant(node.left, names), _constant(node.right, names)
        return _OPERATORS[type(node.op)](left, right)
    raise ValueError(f"a generator's default must be a plain constant; got {ast.unparse(node)}")


def _parameter_docs(docstring: str) -> dict[str, tuple[str, str]]:
    """``name -> (type line, first sentence)`` from a numpydoc ``Parameters`` section."""
    section = docstring.partition("Parameters\n----------\n")[2]
    section = re.split(r"\n\S[^\n]*\n-{3,}\n", section, maxsplit=1)[0]
    entries = re.findall(r"^(\w+) : ([^\n]*)\n((?:[ ]+[^\n]*\n?)*)", section, re.MULTILINE)
    docs = {}
    for name, kind, text in entries:
        words = " ".join(text.split())
        docs[name] = (kind, re.split(r"(?<=\.)\s", words, maxsplit=1)[0])
    return docs


@functools.cache
def _module_tree(module: str) -> ast.Module:
    return ast.parse(Path(__file__).with_name(f"{module}.py").read_text(encoding="utf-8"))


def generator_options(module: str, function: str) -> tuple[Option, ...]:
    """The options of the generator ``function`` in this package's ``module``, read from its
    source: names, order and defaults from the signature (``random_state`` last), help from
    the first sentence of each parameter's docstring entry, choices from a ``{...}`` type.

    The source is parsed, not imported, so that listing options (``perceptron-lab generate
    --help``) loads no NumPy.

    Examples
    --------
    >>> [(o.name, o.default, o.type) for o in generator_options("breiman", "make_twonorm")]
    ... # doctest: +NORMALIZE_WHITESPACE
    [('n_samples', 300, 'int'), ('n_features', 20, 'int'), ('noise', 0.0, 'float'),
     ('random_state', None, 'seed')]
    """
    tree = _module_tree(module)
    names = {
        node.targets[0].id: node.value
        for node in tree.body
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)
    }
    func = next(
        node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name == function
    )
    args = func.args
    positional = args.posonlyargs + args.args
    defaults = dict(
        zip([a.arg for a in positional[len(positional) - len(args.defaults) :]], args.defaults)
    )
    defaults.update({a.arg: d for a, d in zip(args.kwonlyargs, args.kw_defaults) if d})
    docs = _parameter_docs(ast.get_docstring(func) or "")
    options = []
    for arg in positional + args.kwonlyargs:
        if arg.arg not in docs or arg.arg not in defaults:
            raise ValueError(
                f"{function}: parameter {arg.arg} needs a default and an entry in the "
                "docstring's Parameters section (the registry reads its options there)."
            )
        kind, help_text = docs[arg.arg]
        choices = re.match(r"\{([^}]*)\}", kind)
        options.append(
            Option(
                arg.arg,
                _constant(defaults[arg.arg], names),
                _TYPE_BY_NAME.get(arg.arg) or ast.unparse(arg.annotation or ast.Name("str")),
                help_text,
                tuple(ast.literal_eval(f"({choices[1]},)")) if choices else None,
            )
        )
    options.sort(key=lambda o: o.type == "seed")
    return tuple(options)


# --------------------------------------------------------------------------
# The table
# --------------------------------------------------------------------------

_POSITIVE = Option(
    "positive_class",
    None,
    "class",
    "Class to call +1 (one-vs-rest for "
    "multi-class sets); default: the set's usual positive class, or all classes.",
)
_MLBENCH = (
    "GPL-2, as distributed in Debian's r-cran-mlbench (see "
    "/usr/share/doc/r-cran-mlbench/copyright); the data originate from the UCI Machine "
    "Learning Repository"
)
_KERNLAB = (
    "GPL-2, as distributed in Debian's r-cran-kernlab (licence of the kernlab "
    "package); the data originate from the UCI Machine Learning Repository"
)


#: The app's slider ``(low, high, step)`` per generator option, where an entry names no
#: other (:func:`_gen`'s ``sliders``).
SLIDERS = {
    "n_samples": (10, 2000, 10),
    "margin": (0.0, 0.5, 0.01),
    "separation": (0.0, 6.0, 0.1),
    "spread": (0.01, 2.0, 0.01),
    "positive_rate": (0.01, 0.99, 0.01),
    "factor": (0.05, 0.95, 0.05),
    "n_features": (2, 500, 1),
}


def _gen(name, title, func, description, *, in_app=True, sliders=None):
    """A generator's entry; ``func`` is ``"module.function"`` in this package. Its options
    and default shape come from the function itself (:func:`generator_options`); the app's
    sliders from :data:`SLIDERS`, or ``sliders`` (``{option: (low, high, step)}``)."""
    module, function = func.split(".")
    ranges = SLIDERS | (sliders or {})
    options = tuple(
        replace(o, slider=ranges.get(o.name)) for o in generator_options(module, function)
    )
    defaults = {o.name: o.default for o in options}
    return DatasetSpec(
        name=name,
        title=title,
        kind="generator",
        description=description,
        source=f"generated by perceptron_core.datasets.{func}",
        licence="BSD-3-Clause",
        shape=(defaults["n_samples"], defaults.get("n_features", 2)),
        class_names=("-1", "+1"),
        class_counts=None,
        options=options,
        loader=_generator_loader(module, function),
        in_app=in_app,
    )


def _classes_gen(name, title, func, description, class_names, **app):
    """A generator of more than two classes (labels ``0 .. K-1``): :func:`_gen`'s entry (``app``:
    its ``in_app`` and ``sliders``) with the classes named and, first, ``positive_class`` (the
    registry's option, as for the real sets: that class against the rest), which the
    generator itself does not take."""
    two_class = _gen(name, title, func, description, **app)

    def loader(spec: DatasetSpec, positive_class=None, **options):
        X, codes, info = two_class.loader(two_class, **options)
        y, names, labels = _encode(name, codes, class_names, positive_class)
        return (
            X,
            y,
            replace(
                info,
                class_names=names,
                labels=labels,
                class_counts=_counts(y, labels),
                options=info.options | {"positive_class": positive_class},
            ),
        )

    return replace(
        two_class,
        class_names=class_names,
        options=(_POSITIVE, *two_class.options),
        loader=loader,
    )


def _shipped(options=(), **fields):
    """An entry read from ``data/<file>``, which the app offers; every one takes
    ``positive_class`` first."""
    return DatasetSpec(
        kind="shipped", options=(_POSITIVE, *options), loader=_real_loader, in_app=True, **fields
    )


_SPECS = [
    _gen(
        "kw",
        "Khardon-Wachman artificial data",
        "kw.make_kw",
        "Integer attributes in [-10, 10], a random linear target built from a pool of "
        "examples, examples inside the margin band discarded, labels flipped with "
        "probability N (Khardon and Wachman 2007).",
        sliders={"margin": (0.0, 1.0, 0.05), "n_samples": (50, 2000, 50)},
    ),
    _gen(
        "twonorm",
        "Twonorm (Breiman)",
        "breiman.make_twonorm",
        "Two 20-D Gaussians N(+a1, I) and N(-a1, I), a = 2/sqrt(20); Bayes error about 2.3%.",
    ),
    _gen(
        "threenorm",
        "Threenorm (Breiman)",
        "breiman.make_threenorm",
        "Class +1 from N(a1, I) or N(-a1, I), class -1 from N((a,-a,a,...), I), "
        "a = 2/sqrt(20): not linearly separable.",
    ),
    _gen(
        "ringnorm",
        "Ringnorm (Breiman)",
        "breiman.make_ringnorm",
        "Class +1 from N(0, 4I), class -1 from N(a1, I), a = 1/sqrt(20): one ball inside another.",
    ),
    _gen(
        "separable",
        "Separable with a margin (2-D)",
        "teaching.make_separable",
        "Points in a square split by a random line with an empty band around it.",
    ),
    _gen(
        "gaussians",
        "Overlapping Gaussians (2-D)",
        "teaching.make_gaussians",
        "Two round Gaussian clouds that overlap; the best line still makes mistakes.",
    ),
    _gen(
        "imbalanced",
        "Imbalanced classes (2-D)",
        "teaching.make_imbalanced",
        "Two Gaussian clouds with a rare positive class (1:10 by default; 1:50 is "
        "positive_rate=1/51): the setting of PAUM.",
    ),
    _gen(
        "xor",
        "XOR (2-D)",
        "teaching.make_xor",
        "Four clouds at the corners of a square, opposite corners in the same class: no "
        "line separates them.",
    ),
    _gen(
        "circles",
        "Circles (2-D)",
        "teaching.make_circles",
        "A small circle inside a large one: separable by a circle, not by a line.",
    ),
    _gen(
        "moons",
        "Moons (2-D)",
        "teaching.make_moons",
        "Two interleaved half circles.",
    ),
    _classes_gen(
        "three_classes",
        "Three classes (2-D)",
        "three_classes.make_three_classes",
        "Three wedges of the plane, a linear machine's regions, with a gap at every "
        "boundary: for the multiclass perceptron.",
        ("A", "B", "C"),
        sliders={"margin": (0.0, 0.3, 0.01)},
    ),
    DatasetSpec(
        name="breast_cancer",
        title="Breast cancer (Wisconsin diagnostic, WDBC)",
        kind="scikit-learn",
        description="30 features computed from digitised images of fine-needle aspirates of "
        "breast masses; benign or malignant. The set Khardon and Wachman call Breast Cancer.",
        source="scikit-learn (sklearn.datasets.load_breast_cancer, shipped inside "
        "scikit-learn); originally UCI, Wolberg, Street and Mangasarian (1995)",
        licence="BSD-3-Clause (scikit-learn); data from the UCI Machine Learning Repository",
        shape=(569, 30),
        class_names=("benign", "malignant"),
        class_counts=(357, 212),
        options=(_POSITIVE,),
        loader=_real_loader,
        in_app=True,
        notes="malignant is +1 (scikit-learn itself codes malignant as 0).",
    ),
    DatasetSpec(
        name="digits",
        title="Handwritten digits (8x8)",
        kind="scikit-learn",
        description="1,797 handwritten digits as 8x8 images of grey levels 0..16; ten "
        "classes. A small USPS-like set; positive_class=k gives digit k against the rest.",
        source="scikit-learn (sklearn.datasets.load_digits, shipped inside scikit-learn); "
        "the test part of UCI's Optical Recognition of Handwritten Digits (Alpaydin and "
        "Kaynak 1998)",
        licence="BSD-3-Clause (scikit-learn); data from the UCI Machine Learning Repository",
        shape=(1797, 64),
        class_names=tuple(str(d) for d in range(10)),
        class_counts=(178, 182, 177, 183, 181, 182, 181, 179, 174, 180),
        options=(_POSITIVE,),
        loader=_real_loader,
        in_app=True,
    ),
    _shipped(
        name="sonar",
        title="Sonar: mines vs rocks",
        file="sonar.npz",
        description="Energy of sonar echoes in 60 frequency bands (0..1), bounced off a metal "
        "cylinder (mine) or a rock.",
        source="r-cran-mlbench (Sonar); UCI Connectionist Bench, Gorman and Sejnowski (1988)",
        licence=_MLBENCH,
        shape=(208, 60),
        class_names=("rock", "mine"),
        class_counts=(97, 111),
    ),
    _shipped(
        name="ionosphere",
        title="Ionosphere radar returns",
        file="ionosphere.npz",
        description="34 features of radar returns from the ionosphere; 'good' returns show "
        "structure, 'bad' ones do not.",
        source="r-cran-mlbench (Ionosphere); UCI, Sigillito et al. (1989), Johns Hopkins APL",
        licence=_MLBENCH,
        shape=(351, 34),
        class_names=("good", "bad"),
        class_counts=(225, 126),
        notes="The second feature is 0 for every example (as in the UCI original); it "
        "is kept so the columns match the literature.",
    ),
    _shipped(
        name="breast_cancer_original",
        title="Breast cancer (Wisconsin original)",
        file="breast_cancer_original.npz",
        description="Nine cell characteristics graded 1..10 by a pathologist; benign or "
        "malignant.",
        source="r-cran-mlbench (BreastCancer); UCI Breast Cancer Wisconsin (Original), Wolberg "
        "and Mangasarian (1990)",
        licence=_MLBENCH,
        shape=(683, 9),
        class_names=("benign", "malignant"),
        class_counts=(444, 239),
        notes="16 examples have no value for Bare.nuclei. missing='drop' (default) "
        "leaves them out (683 rows); missing='indicator' keeps all 699 rows, fills the "
        "gap with the column median and adds a 0/1 column 'Bare.nuclei missing'. The "
        "sample Id column is not a feature and is left out.",
        options=(
            Option(
                "missing",
                "drop",
                "str",
                "What to do with the 16 examples that have a missing value.",
                ("drop", "indicator"),
            ),
        ),
    ),
    _shipped(
        name="pima",
        title="Pima Indians diabetes",
        file="pima.npz",
        description="Eight clinical measurements of women of Pima heritage; diabetes test "
        "negative or positive.",
        source="r-cran-mlbench (PimaIndiansDiabetes); UCI, Smith et al. (1988), National "
        "Institute of Diabetes and Digestive and Kidney Diseases",
        licence=_MLBENCH,
        shape=(768, 8),
        class_names=("neg", "pos"),
        class_counts=(500, 268),
        notes="In this original version a 0 in glucose, pressure, triceps, insulin or "
        "mass really means 'not measured'; they are left as 0, as in most of the "
        "literature.",
    ),
    _shipped(
        name="house_votes",
        title="US Congress voting records 1984",
        file="house_votes.npz",
        description="Votes of the 435 members of the US House of Representatives on 16 key votes "
        "of 1984; party democrat or republican.",
        source="r-cran-mlbench (HouseVotes84); UCI Congressional Voting Records, "
        "Congressional Quarterly Almanac 1984",
        licence=_MLBENCH,
        shape=(435, 48),
        class_names=("democrat", "republican"),
        class_counts=(267, 168),
        notes="Each vote becomes three 0/1 indicator columns: 'V1=y', 'V1=n' and 'V1=?'. "
        "A missing vote ('?') means the member did not vote yes or no, which carries "
        "information, so it is its own category rather than imputed.",
    ),
    _shipped(
        name="promoters",
        title="E. coli promoter gene sequences",
        file="promoters.npz",
        description="57 DNA bases around a possible promoter site; promoter or not.",
        source="r-cran-kernlab (promotergene); UCI Molecular Biology (Promoter Gene "
        "Sequences), Towell, Shavlik and Noordewier (1990)",
        licence=_KERNLAB,
        shape=(106, 228),
        class_names=("non-promoter", "promoter"),
        class_counts=(53, 53),
        notes="Each position (V2..V58) becomes four 0/1 indicator columns, one per base "
        "a, c, g, t.",
    ),
    _shipped(
        name="spam",
        title="Spambase e-mails",
        file="spam.npz",
        description="57 word, character and capital-letter statistics of e-mails; spam or not.",
        source="r-cran-kernlab (spam); UCI Spambase, Hopkins, Reeber, Forman and Suermondt "
        "(1999), Hewlett-Packard Labs",
        licence=_KERNLAB,
        shape=(4601, 57),
        class_names=("nonspam", "spam"),
        class_counts=(2788, 1813),
    ),
    _shipped(
        name="ticdata",
        title="Insurance customers (CoIL 2000)",
        file="ticdata.npz",
        description="Socio-demographic and product-ownership data of customers of a Dutch "
        "insurer; does the customer hold a caravan insurance policy?",
        source="r-cran-kernlab (ticdata); UCI Insurance Company Benchmark (COIL 2000), "
        "Sentient Machine Research / Peter van der Putten",
        licence=_KERNLAB,
        shape=(9822, 132),
        class_names=("noinsurance", "insurance"),
        class_counts=(9236, 586),
        notes="Ordered attributes (percentage bands, contribution bands, age groups) are "
        "kept as their integer codes, as in the original CoIL files; the two nominal "
        "ones (customer subtype STYPE, main type MOSHOOFD) become one 0/1 column per "
        "value. part='train' gives the 5,822 training customers of the challenge, "
        "part='test' the 4,000 evaluation customers.",
        options=(
            Option(
                "part",
                "all",
                "str",
                "The challenge's training rows, its test rows, or all.",
                ("all", "train", "test"),
            ),
        ),
    ),
    DatasetSpec(
        name="fashion_mnist",
        title="Fashion-MNIST",
        kind="external",
        description="70,000 greyscale 28x28 images of ten kinds of clothing (60,000 training "
        "then 10,000 test); pixels 0..255. For full-size runs.",
        source="Debian's dataset-fashion-mnist (/usr/share/datasets/fashion-mnist) or a folder "
        "you name; Xiao, Rasul and Vollgraf (2017), Zalando Research",
        licence="MIT (Zalando SE); not shipped with Perceptron Lab",
        shape=(70000, 784),
        class_names=FASHION_MNIST_CLASSES,
        class_counts=(7000,) * 10,
        options=(
            _POSITIVE,
            Option(
                "part",
                "all",
                "str",
                "Training images, test images, or both.",
                ("all", "train", "test"),
            ),
            Option("path", None, "path", "Folder holding the four idx files."),
            Option(
                "dtype",
                "uint8",
                "dtype",
                "Storage type of X (uint8: 55 MB; float64: 440 MB).",
                ("uint8", "float32", "float64"),
            ),
        ),
        notes="Install with 'apt-get install dataset-fashion-mnist'. X is uint8 by default "
        "to keep it at 55 MB; the learners read uint8 directly.",
        loader=_fashion_loader,
    ),
]

REGISTRY: dict[str, DatasetSpec] = {spec.name: spec for spec in _SPECS}

KINDS = ("generator", "shipped", "scikit-learn", "external")


def _lookup(name) -> DatasetSpec:
    key = str(name).strip().lower().replace("-", "_").replace(" ", "_")
    if key not in REGISTRY:
        from ._common import DataError

        raise DataError(
            f"There is no data set called {name!r}. Known sets: {', '.join(REGISTRY)}."
        )
    return REGISTRY[key]


def list_datasets(kind: str | None = None) -> list[DatasetSpec]:
    """Every data set :func:`load` knows, for a picker (nothing is read from disk).

    Parameters
    ----------
    kind : {"generator", "shipped", "scikit-learn", "external"}, optional
        Only entries of this kind.

    Returns
    -------
    list of DatasetSpec
        Name, title, kind, description, source, licence, default shape, class
        names and counts, options (with defaults and help), and ``available``.

    Examples
    --------
    >>> from perceptron_core.datasets import list_datasets
    >>> [spec.name for spec in list_datasets("generator")][:4]
    ['kw', 'twonorm', 'threenorm', 'ringnorm']
    >>> sonar = next(s for s in list_datasets() if s.name == "sonar")
    >>> sonar.shape, sonar.class_names, round(sonar.majority_rate, 3)
    ((208, 60), ('rock', 'mine'), 0.534)
    """
    if kind is not None and kind not in KINDS:
        from ._common import DataError

        raise DataError(f"list_datasets: kind must be one of {', '.join(KINDS)}; got {kind!r}.")
    return [spec for spec in _SPECS if kind is None or spec.kind == kind]


def get_spec(name: str) -> DatasetSpec:
    """The registry entry of ``name`` (case and ``-``/``_`` do not matter)."""
    return _lookup(name)


def _machine_memory() -> int:
    """The machine's physical memory in bytes (0 where the system does not say)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return 0


def check_generated_size(spec, options: dict, memory: int | None = None) -> None:
    """Refuse, before anything is allocated, a generator's options whose data would not fit
    in half of the machine's memory (``memory`` bytes; the machine's by default), in one
    sentence that gives the size and the limit.

    Raises
    ------
    DataError

    Examples
    --------
    >>> check_generated_size(_lookup("kw"), {"n_samples": 1000})
    >>> check_generated_size(_lookup("kw"), {"n_samples": 10**11, "n_features": 5}, 2**34)
    Traceback (most recent call last):
    ...
    perceptron_core.datasets.DataError: kw with 100,000,000,000 samples x 5 features ...
    """
    from ._common import DataError

    defaults = {o.name: o.default for o in spec.options}
    rows, features = (
        options.get(name, defaults.get(name, fallback))
        for name, fallback in (("n_samples", spec.shape[0]), ("n_features", spec.shape[1]))
    )
    if not all(isinstance(v, numbers.Integral) and int(v) > 0 for v in (rows, features)):
        return  # the generator's own checks name what is wrong
    memory = _machine_memory() if memory is None else memory
    size = 8 * int(rows) * int(features) * 3  # float64 data, and the generator's work copies
    if memory and size > memory // 2:
        raise DataError(
            f"{spec.name} with {int(rows):,} samples x {int(features):,} features would need "
            f"about {_bytes_text(size)} of memory; this machine has {_bytes_text(memory)} "
            "(at most half of it is allowed). Ask for fewer samples or features."
        )


def _bytes_text(size: int) -> str:
    """``size`` bytes in the largest binary unit that keeps a number of at least 1.

    Examples
    --------
    >>> _bytes_text(3 * 2**40), _bytes_text(1536 * 2**20)
    ('3.0 TiB', '1.5 GiB')
    """
    for unit, power in (("TiB", 40), ("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if size >= 2**power:
            return f"{size / 2**power:,.1f} {unit}"
    return f"{size} bytes"


def load(name: str, **options):
    """Load a data set by name: ``X, y, info = load(name, **options)``.

    Parameters
    ----------
    name : str
        A name from :func:`list_datasets`.
    **options
        The set's options (see ``get_spec(name).options``): generator
        parameters and ``random_state`` for generators; ``positive_class``
        for real sets (a class name or index: that class becomes +1 and the
        others -1); ``missing`` for ``breast_cancer_original``; ``part`` for
        ``ticdata`` and ``fashion_mnist``; ``path`` and ``dtype`` for
        ``fashion_mnist``.

    Returns
    -------
    X : ndarray of shape (n_samples, n_features)
        ``float64`` except ``kw`` with another ``dtype`` and ``fashion_mnist``
        (``uint8`` unless ``dtype`` says otherwise).
    y : ndarray of shape (n_samples,), int64
        {-1, +1} for binary tasks, ``0..K-1`` for multi-class ones.
    info : DatasetInfo

    Examples
    --------
    >>> from perceptron_core.datasets import load
    >>> X, y, info = load("breast_cancer_original")
    >>> X.shape, info.class_names, info.class_counts
    ((683, 9), ('benign', 'malignant'), (444, 239))
    >>> X, y, info = load("digits", positive_class=3)
    >>> info.class_names, info.class_counts
    (('not 3', '3'), (1614, 183))
    >>> X, y, info = load("kw", n_features=20, noise=0.1, random_state=0)
    >>> X.shape, int(info.flipped.sum()) > 0
    ((600, 20), True)
    """
    spec = _lookup(name)
    allowed = {o.name for o in spec.options}
    unknown = sorted(set(options) - allowed)
    if unknown:
        from ._common import DataError

        raise DataError(
            f"{spec.name} has no option {', '.join(map(repr, unknown))}. Its options are: "
            f"{', '.join(sorted(allowed)) or 'none'}."
        )
    if spec.kind == "generator":
        check_generated_size(spec, options)
    if spec.kind in ("shipped", "scikit-learn"):
        full = {o.name: o.default for o in spec.options if o.name != "positive_class"}
        full.update({k: v for k, v in options.items() if k != "positive_class"})
        return spec.loader(spec, positive_class=options.get("positive_class"), **full)
    return spec.loader(spec, **options)
