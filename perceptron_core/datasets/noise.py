"""Corrupting any data set on purpose, and remembering exactly what was corrupted.

Each function returns the corrupted copy *and* a boolean mask of the
corrupted examples, so the app can show the ground truth next to what an
algorithm flags as noisy (the NR categories, the voted perceptron's doubts,
...). Nothing is changed in place.

Label flips work on any binary labels: labels in {-1, +1} are negated;
other pairs of values (``0/1``, ``"ham"/"spam"``) are swapped; with more than
two classes a flipped label becomes one of the other classes, chosen
uniformly.
"""

from __future__ import annotations

import numpy as np

from perceptron_core._validation import BOOLEAN, Number

from ._common import PROBABILITY, DataError, check, check_random_state, round_half_up


def _labels(func, y) -> np.ndarray:
    y = np.asarray(y)
    if y.ndim != 1:
        raise DataError(f"{func}: y must be a 1-D list of labels; got shape {y.shape}.")
    if y.shape[0] == 0:
        raise DataError(f"{func}: y is empty; there are no labels to flip.")
    return y


def _flip(func, y: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Return a copy of ``y`` with the labels under ``mask`` changed to another class."""
    classes = np.unique(y)
    out = y.copy()
    if y.dtype.kind in "iuf" and set(classes.tolist()) <= {-1, 1}:
        out[mask] = -y[mask]
    elif len(classes) == 2:
        out[mask] = np.where(y[mask] == classes[0], classes[1], classes[0])
    elif len(classes) > 2:
        k = len(classes)
        idx = np.searchsorted(classes, y[mask])
        shift = rng.integers(1, k, size=idx.shape[0])
        out[mask] = classes[(idx + shift) % k]
    elif mask.any():
        raise DataError(
            f"{func}: y has only one label value ({classes[0]!r}), so there is no other label "
            "to flip to. Labels in {-1, +1} can be flipped even if one value is missing."
        )
    return out


def flip_labels(y, rate: float, random_state=None):
    """Flip each label independently with probability ``rate`` (uniform label noise).

    The realised number of flips is random (binomial with mean
    ``rate * len(y)``). For an exact count use :func:`flip_labels_exact`.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        Labels.
    rate : float
        Probability that a label is flipped, 0 to 1.
    random_state : None, int or numpy.random.Generator

    Returns
    -------
    y_noisy : ndarray of shape (n_samples,)
    flipped : ndarray of shape (n_samples,), bool

    Examples
    --------
    >>> import numpy as np
    >>> from perceptron_core.datasets import flip_labels
    >>> y_noisy, flipped = flip_labels(np.ones(1000, dtype=int), 0.1, random_state=0)
    >>> int(flipped.sum()), bool((y_noisy[flipped] == -1).all())
    (89, True)
    """
    func = "flip_labels"
    y = _labels(func, y)
    check(func, "rate", rate, "the probability that a label is flipped", PROBABILITY)
    rng = check_random_state(random_state, func)
    mask = rng.random(y.shape[0]) < rate
    return _flip(func, y, mask, rng), mask


def flip_labels_exact(y, rate: float, random_state=None):
    """Flip exactly ``round(rate * len(y))`` labels, chosen uniformly without replacement.

    This is the NR protocol's noise (Cantador & Dorronsoro): for noise level
    ``p`` exactly ``round(p m)`` of the ``m`` training labels are flipped.
    Halves round up (``round_half_up``), so 5% of 250 flips 13 labels.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
    rate : float
        Share of labels to flip, 0 to 1.
    random_state : None, int or numpy.random.Generator

    Returns
    -------
    y_noisy : ndarray of shape (n_samples,)
    flipped : ndarray of shape (n_samples,), bool
        Exactly ``round(rate * n_samples)`` entries are True.

    Examples
    --------
    >>> import numpy as np
    >>> from perceptron_core.datasets import flip_labels_exact
    >>> y = np.array([1, -1] * 135)
    >>> y_noisy, flipped = flip_labels_exact(y, 0.05, random_state=0)
    >>> int(flipped.sum()), int((y_noisy != y).sum())
    (14, 14)
    """
    func = "flip_labels_exact"
    y = _labels(func, y)
    check(func, "rate", rate, "the share of labels to flip", PROBABILITY)
    rng = check_random_state(random_state, func)
    k = min(round_half_up(rate * y.shape[0]), y.shape[0])
    mask = np.zeros(y.shape[0], dtype=bool)
    mask[rng.choice(y.shape[0], size=k, replace=False)] = True
    return _flip(func, y, mask, rng), mask


def flip_near_boundary(y, scores, rate: float, bandwidth: float | None = None, random_state=None):
    """Flip ``round(rate * len(y))`` labels, preferring examples near the true boundary.

    Real label noise is often concentrated where classes meet (annotators
    disagree on borderline cases). Each example is picked, without
    replacement, with probability proportional to
    ``exp(-|score| / bandwidth)``, where ``score`` is its signed distance (or
    any signed score) to the true boundary, e.g.
    ``target.decision_function(X)`` of a generated set.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
    scores : array-like of shape (n_samples,)
        Signed score of each example with respect to the true boundary (only
        ``|score|`` matters).
    rate : float
        Share of labels to flip, 0 to 1.
    bandwidth : float, optional
        How far from the boundary flips reach, in score units. Default: a
        quarter of the median ``|score|``, so an example at the median
        distance is about 50 times less likely to flip than one on the
        boundary.
    random_state : None, int or numpy.random.Generator

    Returns
    -------
    y_noisy : ndarray of shape (n_samples,)
    flipped : ndarray of shape (n_samples,), bool

    Examples
    --------
    >>> import numpy as np
    >>> from perceptron_core.datasets import flip_near_boundary, make_gaussians
    >>> X, y, _, target = make_gaussians(400, random_state=0)
    >>> s = target.decision_function(X)
    >>> y_noisy, flipped = flip_near_boundary(y, s, 0.1, random_state=0)
    >>> int(flipped.sum()), bool(np.median(abs(s[flipped])) < np.median(abs(s)))
    (40, True)
    """
    func = "flip_near_boundary"
    y = _labels(func, y)
    s = np.asarray(scores, dtype=np.float64)
    if s.shape != y.shape:
        raise DataError(
            f"{func}: scores must hold one number per label; got {s.shape[0] if s.ndim else 0} "
            f"scores for {y.shape[0]} labels."
        )
    if not np.isfinite(s).all():
        raise DataError(f"{func}: scores contain NaN or infinite values; all must be finite.")
    check(func, "rate", rate, "the share of labels to flip", PROBABILITY)
    dist = np.abs(s)
    if bandwidth is None:
        bandwidth = float(np.median(dist)) / 4 or 1.0
    else:
        check(
            func,
            "bandwidth",
            bandwidth,
            "how far from the boundary flips reach",
            Number(0, open_low=True),
        )
    rng = check_random_state(random_state, func)
    k = min(round_half_up(rate * y.shape[0]), y.shape[0])
    # Gumbel top-k: the k largest of log-weight + Gumbel noise are a sample without
    # replacement with probabilities proportional to the weights (numerically safe
    # even when most weights underflow).
    keys = -dist / bandwidth + rng.gumbel(size=y.shape[0])
    mask = np.zeros(y.shape[0], dtype=bool)
    if k:
        mask[np.argpartition(-keys, k - 1)[:k]] = True
    return _flip(func, y, mask, rng), mask


def _features(func, X) -> np.ndarray:
    X = np.asarray(X)
    if X.ndim != 2 or X.shape[0] == 0:
        raise DataError(
            f"{func}: X must be a non-empty 2-D array of examples; got shape {X.shape}."
        )
    if X.dtype.kind not in "biuf":
        raise DataError(f"{func}: X must hold numbers; got values of type {X.dtype}.")
    X = X.astype(np.float64)
    if not np.isfinite(X).all():
        raise DataError(f"{func}: X contains NaN or infinite values; all must be finite.")
    return X


def add_feature_noise(
    X, scale: float = 0.1, rate: float = 1.0, relative: bool = True, random_state=None
):
    """Add Gaussian noise to the features of a random share ``rate`` of the rows.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    scale : float, default=0.1
        Standard deviation of the noise; with ``relative=True`` in units of
        each feature's own standard deviation (so it means the same for every
        feature whatever its unit; constant features get no noise).
    rate : float, default=1
        Probability that a row is corrupted.
    relative : bool, default=True
    random_state : None, int or numpy.random.Generator

    Returns
    -------
    X_noisy : ndarray of shape (n_samples, n_features), float64
    corrupted : ndarray of shape (n_samples,), bool
        The rows that received noise.

    Examples
    --------
    >>> import numpy as np
    >>> from perceptron_core.datasets import add_feature_noise
    >>> X = np.arange(12.0).reshape(6, 2)
    >>> Xn, rows = add_feature_noise(X, scale=0.5, rate=0.5, random_state=0)
    >>> bool((Xn[~rows] == X[~rows]).all() and (Xn[rows] != X[rows]).all())
    True
    """
    func = "add_feature_noise"
    X = _features(func, X)
    check(func, "scale", scale, "the standard deviation of the noise", Number(0))
    check(func, "rate", rate, "the probability that a row is corrupted", PROBABILITY)
    check(
        func, "relative", relative, "whether scale is relative to each feature's spread", BOOLEAN
    )
    rng = check_random_state(random_state, func)
    rows = rng.random(X.shape[0]) < rate
    sd = scale * (X.std(axis=0) if relative else np.ones(X.shape[1]))
    out = X.copy()
    out[rows] += rng.standard_normal((int(rows.sum()), X.shape[1])) * sd
    return out, rows


def add_outliers(X, rate: float = 0.05, distance: float = 5.0, random_state=None):
    """Move a random share ``rate`` of the rows far away from the rest (labels unchanged).

    A chosen row is replaced by ``mean + distance * sd * u``: ``mean`` and
    ``sd`` are the per-feature mean and standard deviation of ``X`` and ``u``
    a random unit direction, so the outlier sits ``distance`` standard
    deviations from the centre. Exactly ``round(rate * n_samples)`` rows move.
    Outliers do not change the labels but they stretch ``R``, the radius of
    the data, and so the perceptron's mistake bound.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    rate : float, default=0.05
        Share of rows to move, 0 to 1.
    distance : float, default=5
        How far they go, in standard deviations.
    random_state : None, int or numpy.random.Generator

    Returns
    -------
    X_new : ndarray of shape (n_samples, n_features), float64
    moved : ndarray of shape (n_samples,), bool

    Examples
    --------
    >>> import numpy as np
    >>> from perceptron_core.datasets import add_outliers
    >>> X = np.random.default_rng(0).normal(size=(100, 2))
    >>> Xo, moved = add_outliers(X, rate=0.05, distance=8, random_state=0)
    >>> int(moved.sum()), bool(np.linalg.norm(Xo[moved], axis=1).min() > 4)
    (5, True)
    """
    func = "add_outliers"
    X = _features(func, X)
    check(func, "rate", rate, "the share of rows to move", PROBABILITY)
    check(func, "distance", distance, "how far the outliers go, in standard deviations", Number(0))
    rng = check_random_state(random_state, func)
    n, d = X.shape
    k = min(round_half_up(rate * n), n)
    moved = np.zeros(n, dtype=bool)
    moved[rng.choice(n, size=k, replace=False)] = True
    u = rng.standard_normal((k, d))
    u /= np.linalg.norm(u, axis=1, keepdims=True)
    sd = X.std(axis=0)
    sd[sd == 0] = 1.0
    out = X.copy()
    out[moved] = X.mean(axis=0) + distance * sd * u
    return out, moved
