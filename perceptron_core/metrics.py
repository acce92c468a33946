"""Metrics the papers report: precision-recall, PAUM's macro-averaged precision, sparsity.

* :func:`precision_recall_curve`: precision and recall of "score >= t" for
  every distinct score ``t``, from the highest score down.
* :func:`average_precision`: the mean, over the positive examples, of the
  precision at that example's score (the PAUM paper's per-topic
  measure); :func:`macro_averaged_precision` averages it over categories
  (one-vs-rest), as Li et al. average it over the topics of a group (all
  topics, the ten most frequent, the thirty rarest: ALL, TOP10, LAST30).
* :func:`sparsity`: how many training examples were never used in an
  update: the examples a dual (kernel) model can forget.
* :func:`flag_precision_recall`: how well a flag (e.g. the parallel
  perceptron's "noisy" category) finds a known set (e.g. the flipped labels).
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "average_precision",
    "flag_precision_recall",
    "macro_averaged_precision",
    "precision_recall_curve",
    "sparsity",
]


def _binary_truth(y_true, pos_label):
    """A boolean mask of the positives, which scikit-learn's metrics then take.

    Those are imported where they are used: ``sklearn.metrics`` takes seconds to import,
    and the estimators that import :func:`sparsity` from here need not pay for it.
    """
    y_true = np.asarray(y_true)
    if y_true.ndim != 1:
        raise ValueError(f"y_true must be 1-D, one label per example; got shape {y_true.shape}.")
    if pos_label is None:
        labels = set(np.unique(y_true).tolist())
        if labels <= {0, 1} or labels <= {-1, 1} or labels <= {False, True}:
            pos_label = 1
        else:
            raise ValueError(
                f"y_true has the labels {sorted(labels, key=str)}; say which one is positive "
                "with pos_label=... (only 0/1, -1/1 and boolean labels are understood alone)."
            )
    return y_true == pos_label


def _check_scores(scores, n):
    scores = np.asarray(scores, dtype=np.float64)
    if scores.shape != (n,):
        raise ValueError(
            f"scores must hold one number per example ({n}); got shape {scores.shape}."
        )
    if not np.isfinite(scores).all():
        raise ValueError("scores contain NaN or infinite values.")
    return scores


def precision_recall_curve(y_true, scores, *, pos_label=None):
    """Precision and recall of the rule "positive iff score >= t", for every distinct ``t``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (0/1, -1/1 or booleans; other labels need ``pos_label``).
    scores : array-like of shape (n_samples,)
        Higher means more positive, e.g. a ``decision_function``.
    pos_label : label, optional

    Returns
    -------
    precision, recall, thresholds : ndarray of shape (n_thresholds,)
        In decreasing order of threshold (so recall rises). Ties are taken
        together: at a threshold every example scoring at least that much
        counts as predicted positive. Unlike scikit-learn's function, no
        extra end point (precision 1, recall 0) is appended and the order
        is reversed.

    Examples
    --------
    >>> from perceptron_core.metrics import precision_recall_curve
    >>> p, r, t = precision_recall_curve([1, 0, 1, 0], [0.9, 0.8, 0.4, 0.1])
    >>> p.tolist(), r.tolist(), t.tolist()
    ([1.0, 0.5, 0.6666666666666666, 0.5], [0.5, 0.5, 1.0, 1.0], [0.9, 0.8, 0.4, 0.1])
    """
    positive = _binary_truth(y_true, pos_label)
    scores = _check_scores(scores, len(positive))
    n_pos = int(positive.sum())
    if n_pos == 0:
        raise ValueError("y_true has no positive example: recall is undefined.")
    from sklearn.metrics import precision_recall_curve as curve  # see _binary_truth

    precision, recall, thresholds = curve(positive, scores)
    # scikit-learn's order is increasing, with a final (precision 1, recall 0) point
    return precision[-2::-1], recall[-2::-1], thresholds[::-1]


def average_precision(y_true, scores, *, pos_label=None):
    """The mean, over the positive examples, of the precision at each one's score.

    For positive example ``i`` the precision at its score is ``#{positives
    with score >= s_i} / #{examples with score >= s_i}``; the result is the
    mean of that over the positives: PAUM's (Li et al. 2002) per-category
    measure, also called non-interpolated average precision. It equals
    scikit-learn's ``average_precision_score``.

    Examples
    --------
    >>> from perceptron_core.metrics import average_precision
    >>> average_precision([1, 0, 1, 0], [0.9, 0.8, 0.4, 0.1])   # (1/1 + 2/3) / 2
    0.8333333333333333
    """
    positive = _binary_truth(y_true, pos_label)
    scores = _check_scores(scores, len(positive))
    n_pos = int(positive.sum())
    if n_pos == 0:
        raise ValueError("y_true has no positive example: average precision is undefined.")
    from sklearn.metrics import average_precision_score  # see _binary_truth

    return float(average_precision_score(positive, scores))


def macro_averaged_precision(y_true, scores, *, classes=None):
    """PAUM's macro-averaged precision: :func:`average_precision` averaged over categories.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
    scores : array-like of shape (n_samples,) or (n_samples, n_classes)
        One column per class (a one-vs-rest ``decision_function``); 1-D
        scores for two classes rank the positive class ``classes[1]``.
    classes : array-like, optional
        The class of each column; default ``np.unique(y_true)`` (the order
        of a fitted classifier's ``classes_``).

    Returns
    -------
    float
        The mean over classes of each class's average precision (with 1-D
        scores: the positive class's average precision).

    Examples
    --------
    >>> import numpy as np
    >>> from perceptron_core.metrics import macro_averaged_precision
    >>> y = np.array(["a", "b", "c", "a"])
    >>> S = np.array([[2, 0, 0], [0, 0.5, 0], [1, 0, 2], [0.5, 0.7, 0]])
    >>> macro_averaged_precision(y, S)       # a: (1/1 + 2/3)/2, b: 1/2, c: 1/1
    0.7777777777777777
    """
    y_true = np.asarray(y_true)
    scores = np.asarray(scores, dtype=np.float64)
    classes = np.unique(y_true) if classes is None else np.asarray(classes)
    if scores.ndim == 1:
        if len(classes) != 2:
            raise ValueError(
                f"1-D scores rank one class against the other; y_true has {len(classes)} "
                "classes. Pass one column of scores per class."
            )
        return average_precision(y_true == classes[1], scores)
    if scores.ndim != 2 or scores.shape[1] != len(classes):
        raise ValueError(
            f"scores must have one column per class ({len(classes)}); got shape {scores.shape}."
        )
    return float(
        np.mean([average_precision(y_true == c, scores[:, k]) for k, c in enumerate(classes)])
    )


def sparsity(update_counts):
    """The number of training examples never used in an update.

    Parameters
    ----------
    update_counts : array-like of shape (n_samples,) or (n_problems, n_samples), or an estimator
        Updates per training example (the ``a_j`` of the dual form). A
        fitted learner with an ``update_counts_`` attribute (the on-line
        rules of this package) is read directly.

    Returns
    -------
    int, or ndarray of shape (n_problems,)
        Per problem for 2-D counts (one-vs-rest learners).

    Examples
    --------
    >>> from perceptron_core.metrics import sparsity
    >>> sparsity([0, 3, 0, 1, 0])
    3
    """
    counts = getattr(update_counts, "update_counts_", update_counts)
    counts = np.asarray(counts)
    if counts.ndim == 1:
        return int(np.sum(counts == 0))
    if counts.ndim == 2:
        return np.sum(counts == 0, axis=1)
    raise ValueError(f"update_counts must be 1-D or 2-D; got shape {counts.shape}.")


def flag_precision_recall(flagged, truth):
    """Precision and recall of a flag against the truth (e.g. "noisy" vs flipped labels).

    Parameters
    ----------
    flagged : array-like of bool, or of category names
        Which examples are flagged; category names count as flagged when
        they equal "noisy" (the output of ``ParallelPerceptron.categorize``).
    truth : array-like of bool, or of indices
        Which examples truly are (e.g. the flipped ones): a boolean mask of
        the same length, or the indices of the true ones.

    Returns
    -------
    precision, recall : float
        ``|flagged & truth| / |flagged|`` and ``|flagged & truth| / |truth|``;
        NaN when the denominator is 0.

    Examples
    --------
    >>> from perceptron_core.metrics import flag_precision_recall
    >>> flag_precision_recall(["noisy", "safe", "noisy", "borderline"], [2, 3])
    (0.5, 0.5)
    """
    flagged = np.asarray(flagged)
    if flagged.dtype.kind in "US":
        flagged = flagged == "noisy"
    flagged = flagged.astype(bool)
    truth = np.asarray(truth)
    if truth.dtype != bool:
        mask = np.zeros(len(flagged), dtype=bool)
        mask[truth.astype(np.int64)] = True
        truth = mask
    if truth.shape != flagged.shape:
        raise ValueError(
            f"flagged and truth must describe the same examples; got {flagged.shape} "
            f"and {truth.shape}."
        )
    hits = int(np.sum(flagged & truth))
    n_flagged, n_true = int(flagged.sum()), int(truth.sum())
    precision = hits / n_flagged if n_flagged else float("nan")
    recall = hits / n_true if n_true else float("nan")
    return precision, recall
