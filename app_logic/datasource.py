"""What the pages train on: a data set from the core's registry or a CSV, noise, a split.

:func:`make_dataset` turns a hashable :class:`DataRequest` (what the data
panel's widgets say) into a :class:`Dataset`. Everything comes from
:mod:`perceptron_core.datasets`; this module only decides the order of the
steps, all seeded by the request's seed:

1. the clean data (generators run with their own label noise off, unless the request's
   options ask for it: a lesson that shows the data a study drew, lesson 11's Khardon &
   Wachman data with their noise N; the data panel never does);
2. the train/test split (stratified when both classes allow it);
3. label noise on the *training* part only, with the flipped rows
   remembered; the test part stays clean, so test accuracy measures how
   well the true rule was found (the NR protocol does the same);
4. a person's point edits (:mod:`app_logic.edits`) on the training part of 2-D data.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy as np

from perceptron_core._validation import largest_magnitude
from perceptron_core.datasets import (
    CSVLimits,
    DataError,
    LinearTarget,
    flip_labels,
    flip_labels_exact,
    flip_near_boundary,
    get_spec,
    load,
    load_csv,
)
from perceptron_core.datasets.csvfile import LABELS_NOTE
from perceptron_lab.app_logic.edits import ADDED, PointEdits, check_points
from perceptron_lab.app_logic.memory import SERVER
from perceptron_lab.app_logic.visitor_text import as_text

#: Label-noise kinds offered by the data panel: name -> what it does.
NOISE_KINDS = {
    "none": "No label noise.",
    "uniform": "Each training label flips with this probability.",
    "exact": "Exactly this share of the training labels flips (the NR protocol).",
    "boundary": "This share flips, preferring points near the true boundary (where "
    "annotators disagree). Needs a data set with a known boundary.",
}
#: The most training rows the 2-D animation accepts (one recorded event per visit).
MAX_ANIMATED_VISITS = 400_000


@dataclass(frozen=True)
class DataRequest:
    """A hashable description of the data to build.

    ``name`` is a registry name, or ``"csv"`` with the file's bytes in
    ``csv_bytes``; ``options`` are the registry options as sorted pairs;
    ``edits`` change the training points of 2-D data after everything else.
    """

    name: str
    options: tuple = ()
    noise_kind: str = "none"
    noise_rate: float = 0.0
    test_fraction: float = 0.0
    seed: int = 0
    csv_bytes: bytes | None = None
    csv_label: str | int | None = None  # a name, or a position (a file without a header row)
    csv_positive: str | None = None
    csv_features: tuple[str, ...] | None = None
    edits: PointEdits | None = None


@dataclass(frozen=True, eq=False)
class Dataset:
    """Training and test parts, and what is known about them.

    Attributes
    ----------
    X, y : training features and labels in {-1, +1}
    X_test, y_test : the test part (empty when there is no split)
    flipped : bool mask over the training rows whose label noise flipped
    w_star, theta_star : the true linear boundary (None if not linear or unknown)
    feature_names, class_names : names for axes and legends (class_names[0] is -1)
    title, notes : what to tell the user
    classes, classes_test : the class of each training and test point, numbers into
        ``class_list`` (None: the two classes of ``y``, -1 as 0 and +1 as 1). Data of more than
        two classes keep them for the learners of several classes (the multiclass
        perceptron); ``y`` is then one class against the rest, and always agrees with them:
        ``y`` is +1 exactly where the class is the +1 one
    class_list : the names of every class (empty: ``class_names``)
    """

    X: np.ndarray
    y: np.ndarray
    X_test: np.ndarray
    y_test: np.ndarray
    flipped: np.ndarray
    w_star: np.ndarray | None
    theta_star: float | None
    feature_names: tuple[str, ...]
    class_names: tuple[str, str]
    title: str
    notes: tuple[str, ...] = ()
    classes: np.ndarray | None = None
    classes_test: np.ndarray | None = None
    class_list: tuple[str, ...] = ()

    @property
    def n_features(self) -> int:
        return self.X.shape[1]

    @property
    def all_classes(self) -> tuple[str, ...]:
        """The names of the classes the class numbers count (two for two-class data)."""
        return self.class_list or tuple(self.class_names)

    def class_labels(self) -> tuple[np.ndarray, np.ndarray]:
        """``(classes, classes_test)``: each point's class as a number into :attr:`all_classes`.

        Examples
        --------
        >>> data = make_dataset(DataRequest("separable", (("n_samples", 4),), seed=1))
        >>> bool(((data.class_labels()[0] == 1) == (data.y > 0)).all()), data.all_classes
        (True, ('-1', '+1'))
        """
        if self.classes is not None and self.classes_test is not None:
            return self.classes, self.classes_test
        return (self.y > 0).astype(np.int64), (self.y_test > 0).astype(np.int64)

    def fit_data(self, learns_classes: bool) -> tuple[np.ndarray, ...]:
        """``(X, y, X_test, y_test)`` as a learner trains on them: the class numbers for one that
        learns several classes together, else the ±1 labels."""
        if learns_classes:
            return (self.X, self.class_labels()[0], self.X_test, self.class_labels()[1])
        return self.X, self.y, self.X_test, self.y_test

    @property
    def separable_margin(self) -> float | None:
        """Smallest ``y (<w*,x> - theta*) / ||w*||`` on the training set, if w* is known.

        Positive means the training labels are separable by the true line
        with this geometric margin (Novikoff's gamma, before folding in the bias).
        """
        if self.w_star is None:
            return None
        s = self.y * (self.X @ self.w_star - self.theta_star) / np.linalg.norm(self.w_star)
        return float(s.min())


def _split(m: int, y: np.ndarray, fraction: float, rng) -> tuple[np.ndarray, np.ndarray]:
    """Train and test row indices; stratified so both parts keep the class balance."""
    if fraction <= 0:
        return np.arange(m), np.arange(0)
    test = []
    for label in (-1, 1):
        rows = rng.permutation(np.flatnonzero(y == label))
        test.append(rows[: round(fraction * len(rows))])
    test = np.sort(np.concatenate(test))
    train = np.setdiff1d(np.arange(m), test)
    if len(np.unique(y[train])) < 2:
        raise DataError(
            f"A test share of {fraction:.0%} leaves only one class to train on; "
            "use a smaller test share or more data."
        )
    return train, test


def _binary(y: np.ndarray, labels, class_names, positive):
    """Labels in {-1, +1}: multi-class data become 'positive class vs the rest'.

    With two classes and no positive class chosen, the second (in the
    reader's sorted order: 1 of 0/1, +1 of -1/+1) is +1.
    """
    if len(labels) == 2 and tuple(labels) == (-1, 1):
        return y, (str(class_names[0]), str(class_names[1]))
    names = [str(c) for c in class_names]
    if len(labels) == 2 and positive not in names:
        return np.where(y == labels[1], 1, -1), (names[0], names[1])
    pos = names.index(positive) if positive in names else 0
    return np.where(y == labels[pos], 1, -1), (f"not {names[pos]}", names[pos])


def read_csv(data: bytes, label: str | int | None, max_bytes: int):
    """The upload as the core reads it (multi-class allowed; the panel picks a class), once
    per file and label column, kept in the server's memory budget: the data panel and the
    data set built from it share one read, and a refused file's message is kept too, so
    neither a rerun nor the data set reads it again."""
    key = (hashlib.blake2b(data).hexdigest(), label, max_bytes)
    return SERVER.cached(
        "uploads",
        key,
        lambda: load_csv(
            data, label_column=label, task="multiclass", limits=CSVLimits(max_bytes=max_bytes)
        ),
        keep_errors=(DataError,),
    )


def make_dataset(req: DataRequest, max_csv_bytes: int = 2_000_000) -> Dataset:
    """Build the data a request describes.

    Raises
    ------
    DataError
        With a message for a person (bad options, a bad file, a split that
        leaves one class).
    """
    rng = np.random.default_rng([req.seed, 2])  # split and noise: not the generator's stream
    class_rng = np.random.default_rng([req.seed, 3])  # the classes a flip moves to
    notes: list[str] = []
    codes, class_list, positive = None, (), 0
    w_star = theta_star = None
    target = None
    generated = None  # the labels a generator's own noise flipped
    options = dict(req.options)
    if req.name == "csv":
        if req.csv_bytes is None:
            raise DataError("Upload a CSV file first.")
        table = read_csv(req.csv_bytes, req.csv_label, max_csv_bytes)
        notes += [w for w in table.warnings if not w.startswith(LABELS_NOTE)]  # coded below
        names = list(table.feature_names)
        chosen = list(req.csv_features) if req.csv_features else names
        unknown = [repr(as_text(c, markdown=False)) for c in chosen if c not in names]
        if unknown:
            raise DataError(f"The file has no numeric column {', '.join(unknown[:10])}.")
        X = table.X[:, [names.index(c) for c in chosen]]
        y, class_names = _binary(table.y, table.labels, table.class_names, req.csv_positive)
        # names for axes, legends and tables: the file's words, cut to a sane length
        feature_names = tuple(as_text(c, markdown=False) for c in chosen)
        class_names = tuple(as_text(c, markdown=False) for c in class_names)
        title = f"Uploaded file ({as_text(table.label_name, markdown=False)})"
        notes.append(f"Classes in the figure: {class_names[0]} (−1), {class_names[1]} (+1).")
    else:
        spec = get_spec(req.name)
        if spec.kind == "generator":
            options["random_state"] = req.seed
            if any(o.name == "noise" for o in spec.options):
                options.setdefault("noise", 0.0)  # the panel's noise is added below
        # a set of several classes is loaded with them all (kept for the learners of several
        # classes); the +1 class is chosen below, as the registry would choose it
        several = len(spec.class_names) > 2
        chosen = options.pop("positive_class", None) if several else None
        X, y, info = load(req.name, **options)
        generated = info.flipped
        target = info.target
        if isinstance(target, LinearTarget):
            w_star, theta_star = np.asarray(target.w, np.float64), float(target.theta)
        if several:
            codes, class_list = np.asarray(y, np.int64), tuple(info.class_names)
            positive = class_list.index(chosen) if chosen in class_list else 0
        y, class_names = _binary(y, info.labels, info.class_names, chosen)
        feature_names, title = info.feature_names, info.title
        X = np.asarray(X, dtype=np.float64)
    train, test = _split(len(y), y, req.test_fraction, rng)
    y_train = y[train]
    flipped = np.zeros(len(train), dtype=bool)
    if req.noise_kind not in NOISE_KINDS:
        raise DataError(
            f"Unknown noise kind {req.noise_kind!r}; choose one of {', '.join(NOISE_KINDS)}."
        )
    if req.noise_kind == "uniform":
        y_train, flipped = flip_labels(y_train, req.noise_rate, random_state=rng)
    elif req.noise_kind == "exact":
        y_train, flipped = flip_labels_exact(y_train, req.noise_rate, random_state=rng)
    elif req.noise_kind == "boundary":
        if target is None:
            raise DataError(
                "Noise near the boundary needs a data set whose true boundary is "
                "known (a generated set); choose uniform or exact noise instead."
            )
        y_train, flipped = flip_near_boundary(
            y_train, target.decision_function(X[train]), req.noise_rate, random_state=rng
        )
    if generated is not None:
        flipped = flipped ^ np.asarray(generated, bool)[train]  # flipped twice: right again
    X_train = X[train]
    classes = None if codes is None else codes[train]
    if req.edits:
        X_train, y_train, flipped, origin = _edited(req.edits, X_train, y_train, flipped)
        if classes is not None:
            kept = origin != ADDED
            classes = np.where(kept, classes[np.where(kept, origin, 0)], positive)
    if classes is not None:
        classes = _agreeing(classes, y_train, positive, len(class_list), class_rng)
    check_magnitudes(X_train, X[test])
    return Dataset(
        X=X_train,
        y=np.asarray(y_train, np.int64),
        X_test=X[test],
        y_test=y[test],
        flipped=np.asarray(flipped, bool),
        w_star=w_star,
        theta_star=theta_star,
        feature_names=tuple(feature_names),
        class_names=class_names,
        title=title,
        notes=tuple(notes),
        classes=classes,
        classes_test=None if codes is None else codes[test],
        class_list=class_list,
    )


def _agreeing(classes, y, positive: int, n_classes: int, rng) -> np.ndarray:
    """The classes after label noise and edits changed the ±1 labels ``y``: a point that became
    +1 is of the +1 class; one that left it goes to another class, drawn with ``rng`` (equal
    chances). So the class view and the one-against-the-rest view always agree.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> _agreeing(np.array([0, 1, 2, 0]), np.array([1, 1, -1, -1]), 0, 3, rng).tolist()[:3]
    [0, 0, 2]
    """
    out = np.where(y > 0, positive, classes)
    leaving = (y <= 0) & (out == positive)
    others = np.array([k for k in range(n_classes) if k != positive])
    out[leaving] = others[rng.integers(0, len(others), size=int(leaving.sum()))]
    return out.astype(np.int64)


#: The magnitudes of feature values the pages accept: far enough inside float64's range
#: (about 1e-308 to 1e308) that squared norms, thresholds, bounds and the figure's numbers
#: stay finite and keep their precision.
MAGNITUDES = (1e-100, 1e100)


def check_magnitudes(*parts: np.ndarray) -> None:
    """Refuse data whose values the pages cannot compute with or draw, saying how to fix them.

    Raises
    ------
    DataError
        For a value that is not a finite number, a largest |x| above
        ``MAGNITUDES[1]``, or below ``MAGNITUDES[0]`` (and not 0: all-zero
        features are allowed, if useless).

    Examples
    --------
    >>> check_magnitudes(np.array([[1.0, 2.0]]))
    >>> check_magnitudes(np.array([[1e200, 0.0]]))
    Traceback (most recent call last):
    ...
    perceptron_core.datasets.DataError: The largest |value| of a feature is 1e+200; ...
    """
    low, high = MAGNITUDES
    values = [p for p in parts if p.size]
    if not values:
        return
    if not all(np.isfinite(p).all() for p in values):
        raise DataError(
            "A feature value is not a finite number (inf or NaN); every value must be."
        )
    largest = max(largest_magnitude(p) for p in values)
    if largest > high or 0 < largest < low:
        raise DataError(
            f"The largest |value| of a feature is {largest:.3g}; the pages accept features from "
            f"{low:g} to {high:g} in size (beyond, squared lengths and the figure's numbers "
            "leave floating point's range). Scale the features: divide each column by its "
            "largest |value|, or standardise it."
        )


def _edited(edits: PointEdits, X, y, flipped):
    """The training part after a person's edits; a flip mark stays while the noisy label does."""
    if X.shape[1] != 2:
        raise DataError("Points can be edited on 2-D data only.")
    origin, X_new, y_new = edits.apply(X, y)
    check_points(X_new, y_new)
    kept = origin != ADDED
    still_flipped = np.zeros(len(origin), dtype=bool)
    still_flipped[kept] = flipped[origin[kept]] & (y_new[kept] == y[origin[kept]])
    return X_new, y_new, still_flipped, origin
