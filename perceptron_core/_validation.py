"""Checks on parameters and data, with messages written for a person.

Every learner in :mod:`perceptron_core` validates in ``fit`` (constructors only
store), through the two entry points here:

* :func:`validate_params` reads the estimator's declarative ``_parameters``
  table, so every parameter error has the same shape: which estimator, which
  parameter, what it does, what is accepted and what was given. Estimators
  declared with :func:`hyperparameters` get that table and their constructor
  from one list of :func:`parameter` rows.
* :func:`check_training_data` and :func:`check_test_data` turn user input into
  arrays the numba kernels accept, and say in plain words what was wrong when
  they cannot (the app shows these messages verbatim).
* :func:`warn_about_range`, at the end of every ``fit``, says so when training
  left floating point's range (features near 1e306, ``eta=1e308``), when the
  features are too small for their products (below 1e-150), or far from the
  scale a learner's default settings are meant for, instead of leaving NaN
  weights or chance accuracy unexplained.

Storage types: ``float64``, ``float32``, ``int8`` and ``uint8`` arrays are kept
as they are (the kernels read them directly and accumulate scores in
``float64``); booleans become ``uint8``; every other numeric type becomes
``float64``. ``X`` comes back as a read-only view
(:func:`perceptron_core._jit.read_only`: numba compiles the loops once for a
storage type, not again for a writable array of it).
"""

from __future__ import annotations

import dataclasses
import numbers
import warnings
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import validate_data

from perceptron_core._jit import read_only

#: Storage types the kernels read without a copy.
NATIVE_DTYPES = (np.float64, np.float32, np.int8, np.uint8)


# --------------------------------------------------------------------------
# Parameters
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Number:
    """A real (or, with ``integer=True``, whole) number in an interval.

    ``low``/``high`` of ``None`` mean unbounded; ``open_low``/``open_high``
    exclude the end points.
    """

    low: float | None = None
    high: float | None = None
    open_low: bool = False
    open_high: bool = False
    integer: bool = False

    def accepts(self, value) -> bool:
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            return False
        if self.integer and not isinstance(value, numbers.Integral):
            return False
        try:
            number = float(value)
        except OverflowError:  # a whole number beyond floating point's range
            return False
        if not np.isfinite(number):
            return False
        if self.low is not None and (number < self.low or (self.open_low and number == self.low)):
            return False
        if self.high is not None and (
            number > self.high or (self.open_high and number == self.high)
        ):
            return False
        return True

    def describe(self) -> str:
        kind = "a whole number" if self.integer else "a number"
        parts = []
        if self.low is not None:
            parts.append(("greater than " if self.open_low else "at least ") + f"{self.low:g}")
        if self.high is not None:
            parts.append(("less than " if self.open_high else "at most ") + f"{self.high:g}")
        return kind + (" " + " and ".join(parts) if parts else "")


@dataclass(frozen=True)
class OneOf:
    """One of a fixed set of values (strings, ``None``, booleans)."""

    values: tuple

    def accepts(self, value) -> bool:
        return any(value is v or (type(value) is type(v) and value == v) for v in self.values)

    def describe(self) -> str:
        return " or ".join(repr(v) for v in self.values)


@dataclass(frozen=True)
class Anything:
    """Any value that passes a predicate, described in words."""

    predicate: Callable[[object], object]
    description: str

    def accepts(self, value) -> bool:
        return bool(self.predicate(value))

    def describe(self) -> str:
        return self.description


@dataclass(frozen=True)
class Param:
    """One row of an estimator's ``_parameters`` table."""

    meaning: str
    accepted: tuple

    def check(self, estimator_name: str, name: str, value) -> None:
        if any(rule.accepts(value) for rule in self.accepted):
            return
        allowed = "; or ".join(rule.describe() for rule in self.accepted)
        raise ValueError(
            f"{estimator_name}: {name} ({self.meaning}) must be {allowed}; got {value!r}."
        )


BOOLEAN = OneOf((True, False))
SEED = Anything(
    lambda v: (
        v is None
        or (isinstance(v, numbers.Integral) and not isinstance(v, bool) and 0 <= int(v) < 2**32)
        or isinstance(v, np.random.RandomState | np.random.Generator)
    ),
    "None, a whole number from 0 to 2**32 - 1, or a NumPy random generator",
)


def validate_params(estimator) -> None:
    """Check every constructor parameter against ``type(estimator)._parameters``.

    Examples
    --------
    >>> from perceptron_core import KWPerceptron
    >>> validate_params(KWPerceptron(eta=-1))
    Traceback (most recent call last):
    ...
    ValueError: KWPerceptron: eta (the learning rate...) must be a number greater than 0; got -1.
    """
    table = type(estimator)._parameters
    name = type(estimator).__name__
    for key, value in estimator.get_params(deep=False).items():
        if key in table:
            table[key].check(name, key, value)


def parameter(default, meaning, *accepted):
    """One constructor parameter of a class declared with :func:`hyperparameters`.

    ``meaning`` says what the parameter does and ``accepted`` lists the kinds
    of value ``fit`` accepts (:class:`Number`, :class:`OneOf`, ...); a row
    that several estimators share is passed as its :class:`Param` instead.

    Examples
    --------
    >>> parameter(0.1, "the learning rate", Number(low=0, open_low=True)).default
    0.1
    """
    row = meaning if isinstance(meaning, Param) else Param(meaning, accepted)
    return dataclasses.field(default=default, metadata={"param": row})


def fixed(value):
    """A parameter of a base that a named configuration holds at ``value``.

    It leaves the constructor (so ``get_params`` shows only what is free)
    and reads as a class attribute.
    """
    return dataclasses.field(default=value, init=False)


def hyperparameters(cls):
    """Build the constructor and the ``_parameters`` table of ``cls`` from its parameters.

    The parameters are the class's annotated attributes set to a
    :func:`parameter` (and those of its bases declared the same way).
    scikit-learn wants each spelt out in ``__init__``, taken by keyword and
    only stored (``get_params``, ``clone`` and grid searches read them back
    from its signature); this writes that constructor (a dataclass's, without
    its ``==`` and ``repr``, which would replace the estimator's) and the
    table :func:`validate_params` checks in ``fit``, so each parameter is
    written once. A subclass may redeclare an inherited parameter with
    another default, or hold it at one value with :func:`fixed`.

    Examples
    --------
    >>> @hyperparameters
    ... class Learner:
    ...     eta: float = parameter(0.1, "the learning rate", Number(low=0, open_low=True))
    >>> Learner(eta=0.5).eta, list(Learner._parameters)
    (0.5, ['eta'])
    >>> @hyperparameters
    ... class Steady(Learner):
    ...     eta: float = fixed(1.0)
    >>> Steady().eta, list(Steady._parameters)
    (1.0, [])
    """
    cls = dataclasses.dataclass(cls, kw_only=True, eq=False, repr=False)
    free = [f for f in dataclasses.fields(cls) if f.init]
    cls._parameters = {f.name: f.metadata["param"] for f in free}
    return cls


# --------------------------------------------------------------------------
# Data
# --------------------------------------------------------------------------


def _as_numeric_array(X, what: str = "X"):
    """Refuse inputs the kernels cannot read, before scikit-learn's checks."""
    if hasattr(X, "toarray") or hasattr(X, "tocsr"):
        raise TypeError(
            f"{what} is a sparse matrix; these learners need a dense array. "
            f"Convert it with {what}.toarray() if it fits in memory."
        )
    if hasattr(X, "dtypes") and hasattr(X, "columns"):  # a DataFrame: name the bad columns
        bad = [str(c) for c, t in zip(X.columns, X.dtypes) if not _is_numeric_dtype(t)]
        if bad:
            raise ValueError(
                f"{what} has non-numeric columns: {', '.join(bad[:5])}"
                f"{' ...' if len(bad) > 5 else ''}. Only numeric features are accepted; "
                "drop these columns or encode them as numbers (e.g. one-hot)."
            )
        return X
    arr = np.asarray(X) if not isinstance(X, np.ndarray) else X
    if arr.dtype.kind in "OUSV":
        try:
            arr.astype(np.float64)
        except (TypeError, ValueError) as err:
            raise type(err)(
                f"{what} contains values that are not numbers ({err}); only numeric "
                "features are accepted."
            ) from None
    elif arr.dtype.kind == "c":
        raise ValueError(
            f"Complex data not supported: {what} contains complex numbers; only real "
            "features are accepted."
        )
    return X


def _is_numeric_dtype(dtype) -> bool:
    try:
        return np.dtype(dtype).kind in "biuf"
    except TypeError:  # pandas extension types
        return getattr(dtype, "kind", "O") in "biuf"


def _to_storage(X: np.ndarray) -> np.ndarray:
    """Keep a native storage type; booleans become uint8, other numbers float64."""
    if X.dtype == np.bool_:
        return X.view(np.uint8)
    if X.dtype.type in NATIVE_DTYPES:
        return X
    return X.astype(np.float64)


def _check_finite(X: np.ndarray, what: str = "X") -> None:
    if X.dtype.kind != "f":
        return
    # NaN and inf make the sum non-finite: one pass, no mask as large as X. Only
    # a sum that overflows (or a real NaN) pays for the mask that locates it.
    with np.errstate(over="ignore", invalid="ignore"):
        if np.isfinite(np.sum(X, dtype=np.float64)):
            return
    finite = np.isfinite(X)
    if finite.all():
        return
    bad = np.argwhere(~finite)
    row, col = bad[0]
    value = X[row, col]
    raise ValueError(
        f"{what} contains {len(bad)} NaN or infinite value{'s' if len(bad) > 1 else ''} "
        f"(the first, {value}, in row {row}, column {col}). The perceptron needs finite "
        "numbers: drop those rows or fill in the missing values first."
    )


def _check_rows(X, estimator) -> np.ndarray:
    X = _as_numeric_array(X)
    X = validate_data(
        estimator,
        X,
        reset=False,
        dtype=None if getattr(X, "dtype", None) is not None else "numeric",
        ensure_all_finite=False,
        ensure_2d=True,
        order="C",
    )
    return X


def check_training_data(estimator, X, y, reset: bool = True, min_classes: int = 2):
    """Validate a training set; return ``(X, y)`` as arrays.

    ``X`` keeps a native storage type (see the module docstring), is
    C-contiguous and finite; ``y`` is a 1-D array of labels of the same length
    with at least ``min_classes`` distinct values when ``reset`` is true (a
    first fit; a first ``partial_fit`` batch told all classes may show one).
    Sets ``n_features_in_`` (and ``feature_names_in_``) when ``reset``.

    Examples
    --------
    >>> from perceptron_core import KWPerceptron
    >>> check_training_data(KWPerceptron(), [[0.0, 1.0], [1.0, 0.0]], [1, 1])
    Traceback (most recent call last):
    ...
    ValueError: y has only one class (1). A classifier needs examples of at least two classes ...
    """
    X = _as_numeric_array(X)
    if y is None:
        raise ValueError(
            f"{type(estimator).__name__} requires y to be passed, but the target y is None: "
            "it needs one label per row of X to train."
        )
    X, y = validate_data(
        estimator,
        X,
        y,
        reset=reset,
        dtype=None if getattr(X, "dtype", None) is not None else "numeric",
        ensure_all_finite=False,
        order="C",
        y_numeric=False,
    )
    X = read_only(_to_storage(np.ascontiguousarray(X)))
    _check_finite(X)
    check_classification_targets(y)
    if y.dtype.kind == "f" and not np.isfinite(y).all():
        raise ValueError("y contains NaN or infinite labels; every example needs a label.")
    if reset:
        classes = np.unique(y)
        if len(classes) < min_classes:
            raise ValueError(
                f"y has only one class ({show(classes[0])}). A classifier needs examples of at "
                "least two classes to learn a boundary between them."
            )
    return X, y


def check_test_data(estimator, X) -> np.ndarray:
    """Validate rows to score with a fitted estimator; return a native array.

    The feature count must match training; the message says so in words.
    """
    try:
        X = _check_rows(X, estimator)
    except ValueError as err:
        if "features, but" in str(err):
            raise ValueError(
                f"{err} Pass rows with the same columns, in the same order, as the data "
                "the model was trained on."
            ) from None
        raise
    X = read_only(_to_storage(np.ascontiguousarray(X)))
    _check_finite(X)
    return X


def show(value) -> str:
    """A value as a person would type it (``1``, not ``np.int64(1)``).

    Examples
    --------
    >>> show(np.int64(1)), show(np.str_("cat"))
    ('1', "'cat'")
    """
    return repr(value.item() if isinstance(value, np.generic) else value)


def encode_labels(y, classes, dtype=np.float64) -> np.ndarray:
    """Return a ``(n_problems, m)`` array of ±1 one-vs-rest targets (float64 by default).

    Two classes give one problem (``classes[1]`` is the positive class, as in
    scikit-learn); more give one problem per class. ``dtype=np.int8`` keeps
    the targets of many classes small (ten classes of 60,000 examples: 0.6
    instead of 4.8 MB).

    Examples
    --------
    >>> encode_labels(["b", "a", "b"], np.array(["a", "b"]))
    array([[ 1., -1.,  1.]])
    >>> encode_labels([0, 2, 1], np.array([0, 1, 2]))
    array([[ 1., -1., -1.],
           [-1., -1.,  1.],
           [-1.,  1., -1.]])
    """
    y = np.asarray(y)
    unknown = ~np.isin(y, classes)
    if unknown.any():
        raise ValueError(
            f"y contains the label {show(y[unknown][0])}, which is not among the classes "
            f"{list(classes)} this model was first trained on."
        )
    one, minus_one = np.asarray(1, dtype), np.asarray(-1, dtype)
    if len(classes) == 2:
        return np.where(y == classes[1], one, minus_one)[None, :]
    return np.where(y[None, :] == np.asarray(classes)[:, None], one, minus_one)


class OverflowedWarning(RuntimeWarning):
    """Training left float64's range: the model's scores are infinite or NaN."""


class FeatureScaleWarning(UserWarning):
    """The features are too small for float64's products, or far from the scale a
    learner's default settings are meant for."""


#: Training rows scored after a fit to see whether its numbers stayed finite.
CHECKED_ROWS = 256
#: Below this largest |x|, a product of two features (and so every ``x.x``
#: and, from the start, every score) is lost to underflow.
TINY = 1e-150
#: The largest |x| the default settings of a learner with ``_scale_settings``
#: (absolute margins, thresholds or step sizes) are meant for; how far outside
#: it each of them falls is measured by ``benchmarks/bench_scale.py``.
ASSUMED_SCALE = (0.1, 100.0)


def largest_magnitude(X) -> float:
    """``max |x|`` over ``X`` without a copy of it (0 for an empty array)."""
    if X.size == 0:
        return 0.0
    return max(float(X.max()), -float(X.min()))  # as floats: -(-128) overflows int8


def range_problems(estimator, X) -> list[tuple[type[Warning], str]]:
    """What is wrong with the range of the numbers of a fit on ``X``, as (category, message).

    Overflow: the fitted model scores the first training rows as inf or NaN.
    Underflow: the features are so small that their products vanish. Scale:
    a learner whose defaults assume a feature scale (``_scale_settings``)
    saw a largest |x| outside :data:`ASSUMED_SCALE`.

    Examples
    --------
    >>> from perceptron_core import ALMA
    >>> X, y = np.array([[1e-3, 2e-3], [-2e-3, -1e-3]]), np.array([0, 1])
    >>> [category.__name__ for category, _ in range_problems(ALMA().fit(X, y), X)]
    ['FeatureScaleWarning']
    """
    name = type(estimator).__name__
    largest = largest_magnitude(X)
    problems: list[tuple[type[Warning], str]] = []
    with np.errstate(all="ignore"):
        scores = np.asarray(estimator.decision_function(X[:CHECKED_ROWS]), dtype=np.float64)
    if not np.isfinite(scores).all():
        problems.append(
            (
                OverflowedWarning,
                (
                    f"{name}: training overflowed floating point, so its scores are infinite "
                    "or NaN "
                    "and its predictions mean nothing. Scale the features (the largest |x| "
                    "seen is "
                    f"{largest:.3g}; standardise them, e.g. with scikit-learn's "
                    "StandardScaler) or use a "
                    "smaller learning rate eta."
                ),
            )
        )
    settings = getattr(estimator, "_scale_settings", ())
    low, high = ASSUMED_SCALE
    if 0 < largest < TINY:
        problems.append(
            (
                FeatureScaleWarning,
                (
                    f"{name}: the largest |x| is {largest:.3g}; products of features this small "
                    "underflow to 0 in floating point, so every score is 0 and the model "
                    "cannot learn. "
                    "Scale the features (standardise them, e.g. with scikit-learn's "
                    "StandardScaler)."
                ),
            )
        )
    elif largest > 0 and settings and not low <= largest <= high:
        problems.append(
            (
                FeatureScaleWarning,
                (
                    f"{name}: the largest |x| is {largest:.3g}, far from the {low:g} to "
                    f"{high:g} its "
                    f"default settings are meant for ({' and '.join(settings)} "
                    f"{'is' if len(settings) == 1 else 'are'} in the features' units), so it may "
                    "learn little. Scale the features (standardise them, e.g. with scikit-learn's "
                    f"StandardScaler) or set {' and '.join(settings)} for this scale."
                ),
            )
        )
    return problems


def warn_about_range(estimator, X) -> None:
    """Warn, naming the fix, about each of :func:`range_problems` (called at the end of ``fit``).

    Examples
    --------
    >>> import warnings
    >>> from perceptron_core import Perceptron
    >>> X, y = np.array([[1e306, 1e306], [-1e306, -1e306]]), np.array([0, 1])
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     _ = Perceptron(epochs=3).fit(X, y)
    >>> [w.category.__name__ for w in caught]
    ['OverflowedWarning']
    """
    for category, message in range_problems(estimator, X):
        warnings.warn(message, category, stacklevel=3)
