"""Reading the real data sets: the ``.npz`` files shipped in ``data/`` and scikit-learn's.

The shipped files were converted once from Debian's R packages by
``scripts/build_data.py`` (see ``data/README.md`` for sources, licences and
what was done to each set); reading them needs NumPy only. Each file holds

* ``X``: the features (``float64`` for measurements, ``uint8`` for one-hot
  indicators and small codes; ``NaN`` marks a missing value),
* ``y``: class codes ``0..K-1`` (for two classes, code 1 is the positive class),
* ``class_names`` and ``feature_names``: strings,
* optionally ``part``: ``"train"``/``"test"`` per row where the source has a
  fixed split.

Where the files are looked for, in order: the ``data_dir`` argument, the
folder in the environment variable ``PERCEPTRON_LAB_DATA``, and the folder
of the package ``perceptron_lab.data`` that the same install carries
(:data:`SHIPPED_DATA`: ``data/`` in a checkout, ``perceptron_lab/data/`` in an
installed wheel). The core names that folder by its package, so it imports
nothing of the app to find it.

scikit-learn's breast-cancer and digits sets are read from the installed
scikit-learn (they ship inside it, nothing is downloaded); they are not
duplicated in ``data/``.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import numpy as np

from ._common import DataError

#: Environment variable naming the folder with the shipped ``.npz`` files.
DATA_ENV = "PERCEPTRON_LAB_DATA"
#: The package that holds the shipped ``.npz`` files (installed with the core).
DATA_PACKAGE = "perceptron_lab.data"


def _package_folder(name: str) -> Path | None:
    """The folder of the installed (namespace) package ``name``, or None without one."""
    try:
        spec = importlib.util.find_spec(name)
    except ModuleNotFoundError:  # its parent package is not installed
        return None
    locations = spec.submodule_search_locations if spec is not None else None
    # an editable install adds a path-hook entry that is not a folder
    return next((Path(p) for p in locations or () if Path(p).is_dir()), None)


#: The folder of the shipped ``.npz`` files.
SHIPPED_DATA = _package_folder(DATA_PACKAGE)


def data_dirs(data_dir=None) -> list[Path]:
    """The folders searched for shipped data files, in order."""
    if data_dir is not None:
        return [Path(data_dir)]
    dirs = []
    if os.environ.get(DATA_ENV):
        dirs.append(Path(os.environ[DATA_ENV]))
    if SHIPPED_DATA is not None:
        dirs.append(SHIPPED_DATA)
    return dirs


def find_data_file(filename: str, data_dir=None) -> Path | None:
    """The first existing ``filename`` in :func:`data_dirs`, or None."""
    for folder in data_dirs(data_dir):
        if (folder / filename).is_file():
            return folder / filename
    return None


def read_shipped(filename: str, data_dir=None) -> dict[str, np.ndarray]:
    """Read one shipped ``.npz`` file into a dict of arrays (no pickles).

    Examples
    --------
    >>> from perceptron_core.datasets.real import read_shipped
    >>> arrays = read_shipped("sonar.npz")
    >>> arrays["X"].shape, [str(c) for c in arrays["class_names"]]
    ((208, 60), ['rock', 'mine'])
    """
    path = find_data_file(filename, data_dir)
    if path is None:
        where = ", ".join(str(d) for d in data_dirs(data_dir))
        raise DataError(
            f"The data file {filename} was not found (looked in: {where or 'nowhere'}). It "
            "ships with Perceptron Lab (data/ in the repository, perceptron_lab/data in an "
            f"installed wheel); set {DATA_ENV} to a folder that holds the .npz files, or "
            "rebuild them with scripts/build_data.py."
        )
    try:
        with np.load(path, allow_pickle=False) as npz:
            arrays = {key: npz[key] for key in npz.files}
    except (OSError, ValueError, EOFError) as err:
        raise DataError(
            f"The data file {path} cannot be read ({err}); it is damaged. Restore "
            "it from the repository or rebuild it with scripts/build_data.py."
        ) from None
    for key in ("X", "y", "class_names", "feature_names"):
        if key not in arrays:
            raise DataError(
                f"The data file {path} has no array {key!r}; it is not a "
                "Perceptron Lab data file. Rebuild it with scripts/build_data.py."
            )
    return arrays


def read_sklearn(which: str) -> dict[str, np.ndarray]:
    """scikit-learn's ``breast_cancer`` or ``digits`` in the shipped-file layout.

    Breast cancer: scikit-learn codes malignant as 0 and benign as 1; here
    malignant is code 1, the positive class, as in the original Wisconsin set.

    Examples
    --------
    >>> from perceptron_core.datasets.real import read_sklearn
    >>> read_sklearn("digits")["X"].shape
    (1797, 64)
    """
    from sklearn import datasets as skd

    if which == "breast_cancer":
        bunch = skd.load_breast_cancer()
        malignant = list(bunch.target_names).index("malignant")
        return {
            "X": np.asarray(bunch.data, dtype=np.float64),
            "y": (bunch.target == malignant).astype(np.int8),
            "class_names": np.array(["benign", "malignant"]),
            "feature_names": np.asarray(bunch.feature_names, dtype=str),
        }
    if which == "digits":
        bunch = skd.load_digits()
        return {
            "X": np.asarray(bunch.data, dtype=np.float64),
            "y": bunch.target.astype(np.int8),
            "class_names": np.array([str(c) for c in bunch.target_names]),
            "feature_names": np.array([f"pixel_{r}_{c}" for r in range(8) for c in range(8)]),
        }
    raise DataError(
        f"scikit-learn set {which!r} is not wired in; use 'breast_cancer' or 'digits'."
    )
