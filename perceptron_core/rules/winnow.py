"""Winnow: multiplicative updates, and mistakes that grow with log n.

The perceptron *adds* ``y x`` to its weights; Winnow *multiplies* the weights
of the active features by a factor. On a target that depends on only ``k`` of
``n`` boolean features (a k-literal disjunction), Winnow makes O(k log n)
mistakes, while the perceptron needs Θ(n) in the worst case: with many
irrelevant features, multiplying wins (Littlestone 1988).
:func:`make_k_of_n_disjunction` draws such data for the lesson that shows it.

The step: promote (multiply the active weights by ``alpha``) on a false
negative, demote (divide, zero, or stop at a floor) on a false positive;
the threshold is the one number of its state (:mod:`perceptron_core.steps.winnow`).
The updates are multiplicative, so the driver records every hypothesis (:func:`hypothesis`).
Then the two estimators of this step:

* :class:`Winnow`: positive weights, promotion and demotion (or elimination);
* :class:`WinnowR`: Winnow whose weights never fall below a floor (½).

:class:`~perceptron_core.rules.balanced_winnow.BalancedWinnow`, a positive
and a negative weight per feature, has a step of its own. All of them
predict the positive class iff ``<w, x> >= theta`` (equality counts as
positive, as in the course notes): unlike the rest of the package, where a
score of exactly 0 counts as negative. ``decision_function`` returns
``<w, x> - theta``, so ``predict`` is the positive class iff it is ``>= 0``.

References
----------
N. Littlestone, "Learning quickly when irrelevant attributes abound: a new
linear-threshold algorithm", Machine Learning 2 (1988) 285-318.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from sklearn.utils import check_random_state

from perceptron_core._online import DriverParameters, OnlineLinearClassifier
from perceptron_core._validation import Number, OneOf, Param, hyperparameters, parameter
from perceptron_core.steps import State
from perceptron_core.steps.winnow import (
    THETA,
    Settings,
    hypothesis,  # noqa: F401 (the rule's functions, for its readers)
    step,  # noqa: F401
)

_ALPHA = Param(
    "the update factor: active weights are multiplied or divided by it on a mistake",
    (Number(low=1, open_low=True),),
)
_THRESHOLD = Param(
    "the threshold theta of the prediction <w, x> >= theta; 'auto' is the number of features",
    (OneOf(("auto",)), Number(low=0, open_low=True)),
)
_BINARIZE = Param(
    "the cut that turns real features into booleans (x > binarize); None requires 0/1 input",
    (OneOf((None,)), Number()),
)


def _boolean_features(estimator, X, binarize):
    """Return ``X`` as a uint8 0/1 array, or explain why it is not boolean."""
    if binarize is not None:
        return (np.asarray(X) > binarize).astype(np.uint8)
    X = np.asarray(X)
    bad = (X != 0) & (X != 1)
    if bad.any():
        row, col = np.argwhere(bad)[0]
        raise ValueError(
            f"{type(estimator).__name__} learns from boolean features (each 0 or 1), but X "
            f"has the value {float(X[row, col]):g} in row {row}, column {col}. Pass "
            f"binarize=t to use the indicators x > t instead, or use BalancedWinnow, "
            "which also accepts real features."
        )
    return X.astype(np.uint8, copy=False)


#: Why the scikit-learn conformance checks' check_classifiers_classes fails on Winnow by design.
_WINNOW_TIES = (
    "Winnow predicts positive at <w, x> = theta (CS 446 notes, section 1: predict 1 iff "
    "<w,x> >= n), so decision_function == 0 means the positive class, while scikit-learn "
    "expects decision_function > 0; with 0/1 features and power-of-two weights such ties "
    "are common"
)


@hyperparameters
class _WinnowBase(OnlineLinearClassifier, DriverParameters):
    """Shared by Winnow and WinnowR: positive weights, fixed threshold."""

    _rule = __name__  # its step: perceptron_core.steps.winnow
    _explicit_history = True
    _zero_is_positive = True  # Positive iff ``<w, x> >= theta`` (two classes)
    alpha: float = parameter(2.0, _ALPHA)
    threshold: float | str = parameter("auto", _THRESHOLD)
    binarize: float | None = parameter(None, _BINARIZE)

    def _prepare_X(self, X, training):
        return _boolean_features(self, X, self.binarize)

    def _theta(self, n_features):
        return float(n_features) if self.threshold == "auto" else float(self.threshold)

    def _init_state(self, n_problems, n_features):
        self._state = State(
            weights=np.ones((n_problems, n_features)),
            second=np.empty((n_problems, 0)),
            numbers=np.full((n_problems, 1), self._theta(n_features)),  # THETA
        )

    def _coef_intercept(self):
        return self._state.weights.copy(), -self._state.numbers[:, THETA]

    def _settings(self, X):
        eliminate, floor = self._demotion()
        return Settings(alpha=self.alpha, eliminate=eliminate, floor=floor)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        # Boolean learners: the generic checks' real-valued blobs, cut at one value per
        # feature, are a poor fit (a disjunction of two indicators cannot isolate a blob).
        tags.classifier_tags.poor_score = True
        return tags


@hyperparameters
class Winnow(_WinnowBase):
    """Littlestone's Winnow: multiply the active weights on a mistake.

    Features are boolean, ``x ∈ {0,1}^n``. Weights start at ``w_i = 1`` and
    the threshold is ``theta = n`` (``threshold="auto"``). The rule, for each
    example in turn::

        predict positive  iff  <w, x> >= theta
        false negative (y = +1, predicted -1):  w_i <- alpha * w_i   for every i with x_i = 1
        false positive (y = -1, predicted +1):  w_i <- w_i / alpha   for every i with x_i = 1
                                                (w_i <- 0 with demotion="eliminate")
        correct prediction: nothing changes

    With ``alpha = 2`` and ``theta = n``, Winnow learns a disjunction of
    ``k`` of the ``n`` features with at most ``2 + 3k(1 + log2 n)`` mistakes
    on any sequence consistent with the target (the bound of the course
    notes, e.g. Blum 1998), whatever the number of irrelevant features; the
    perceptron's worst case grows linearly in ``n``.
    The elimination variant (Littlestone's *Winnow1*) suits monotone
    disjunctions exactly: a feature active in a negative example can never be
    in the target, so its weight is set to 0 for good.

    Multi-class targets are learned one-vs-rest.

    Parameters
    ----------
    alpha : float, default=2.0
        The update factor (> 1).
    threshold : "auto" or float, default="auto"
        ``theta``; "auto" is the number of features ``n``.
    demotion : {"divide", "eliminate"}, default="divide"
        What a false positive does to the active weights.
    binarize : float or None, default=None
        None: ``X`` must be 0/1 (a clear error otherwise). A number ``t``:
        the learner sees the indicators ``x > t`` (as scikit-learn's
        ``BernoulliNB`` does).
    epochs : int, default=100
        The most passes; training stops after a pass without a mistake.
    shuffle : bool, default=True
        Permute the training set once before training (``random_state``).
    random_state : None, int or numpy generator, default=None
    record : {"none", "updates", "all"}, default="none"
        What ``trace_`` keeps: nothing, every mistake, or every visit. The
        weights after every mistake are in ``trace_.weight_history``
        (multiplicative updates are not additive, so the trace stores the
        hypotheses themselves; ``coef`` is NaN there).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    coef_ : ndarray of shape (n_problems, n_features)
        The weights ``w`` (one row for two classes, one per class otherwise).
    intercept_ : ndarray of shape (n_problems,)
        ``-theta``.
    n_iter_ : int
    n_updates_, n_mistakes_ : int
        Mistakes made during training (every update is a mistake).
    update_counts_ : ndarray of shape (n_problems, n_samples)
    trace_ : Trace, dict of Trace, or None

    See Also
    --------
    WinnowR : weights kept above ½, so the learner can follow a changing target.
    BalancedWinnow : weights of either sign.
    make_k_of_n_disjunction : data for the mistake-bound lesson.

    References
    ----------
    N. Littlestone, "Learning quickly when irrelevant attributes abound: a new
    linear-threshold algorithm", Machine Learning 2 (1988) 285-318.
    A. Blum, "On-line algorithms in machine learning", in *Online Algorithms:
    The State of the Art*, LNCS 1442, Springer (1998).

    Examples
    --------
    >>> from perceptron_core import Winnow, make_k_of_n_disjunction
    >>> X, y = make_k_of_n_disjunction(n_features=200, k=3, n_samples=600, random_state=0)
    >>> clf = Winnow(epochs=1, shuffle=False).fit(X[:400], y[:400])
    >>> clf.n_mistakes_ <= 2 + 3 * 3 * (1 + 8)  # 2 + 3k(1 + log2 n): far below n = 200
    True
    >>> clf.score(X[400:], y[400:]) > 0.95
    True
    """

    #: How the scikit-learn conformance checks build it (tests/test_sklearn_conformance.py):
    #: its own default binarizes nothing, and their data are real-valued.
    _check_params: ClassVar[tuple[dict, ...]] = ({"binarize": 0.0},)
    _xfail_checks: ClassVar[dict[str, str]] = {"check_classifiers_classes": _WINNOW_TIES}

    demotion: str = parameter(
        "divide",
        "what a false positive does to the active weights",
        OneOf(("divide", "eliminate")),
    )

    def _demotion(self):
        return self.demotion == "eliminate", 0.0


@hyperparameters
class WinnowR(_WinnowBase):
    """Winnow whose weights never fall below a floor (½ by default).

    The same rule as :class:`Winnow` (start ``w_i = 1``, threshold ``n``),
    except that a demotion stops at the floor::

        false negative:  w_i <- alpha * w_i                  for every active i
        false positive:  w_i <- max(w_i / alpha, min_weight) for every active i

    Why: with plain Winnow, a feature demoted many times needs as many
    promotions to come back; if the target changes and that feature becomes
    relevant, the learner pays for its whole history. With a floor, any
    feature is at most ``log_alpha(theta / min_weight)`` promotions away from
    firing, so the number of mistakes after a change of target stays
    bounded. This is the device of Auer & Warmuth's tracking variant of
    Winnow; with ``alpha = 2`` the floor ½ means "demote a feature at most
    once below its start".

    Parameters
    ----------
    alpha : float, default=2.0
    threshold : "auto" or float, default="auto"
        "auto" is the number of features.
    min_weight : float, default=0.5
        The floor (> 0).
    binarize : float or None, default=None
        As in :class:`Winnow`.
    epochs, shuffle, random_state, record
        As in :class:`Winnow`.

    Attributes
    ----------
    classes_, coef_, intercept_, n_iter_, n_updates_, n_mistakes_, update_counts_, trace_
        As in :class:`Winnow`; every entry of ``coef_`` is ``>= min_weight``.

    References
    ----------
    P. Auer and M. K. Warmuth, "Tracking the best disjunction", Machine
    Learning 32 (1998) 127-150.
    N. Littlestone, Machine Learning 2 (1988) 285-318.

    Examples
    --------
    >>> import numpy as np
    >>> from perceptron_core import WinnowR, make_k_of_n_disjunction
    >>> X, y = make_k_of_n_disjunction(n_features=50, k=2, n_samples=300, random_state=1)
    >>> clf = WinnowR(random_state=0).fit(X, y)
    >>> bool(clf.coef_.min() >= 0.5), clf.score(X, y)
    (True, 1.0)
    """

    #: As :class:`Winnow`'s.
    _check_params: ClassVar[tuple[dict, ...]] = ({"binarize": 0.0},)
    _xfail_checks: ClassVar[dict[str, str]] = {"check_classifiers_classes": _WINNOW_TIES}

    min_weight: float = parameter(
        0.5, "the floor below which no weight is demoted", Number(low=0, open_low=True)
    )

    def _demotion(self):
        return False, float(self.min_weight)


def make_k_of_n_disjunction(
    n_features, k, n_samples, random_state=None, *, p_active=None, return_relevant=False
):
    """Boolean data labelled by a disjunction of ``k`` of its ``n_features`` features.

    Each feature is 1 independently with probability ``p_active``; the label
    is 1 iff at least one of the ``k`` relevant features (a random subset) is
    1. The default ``p_active = 1 - 2**(-1/k)`` makes the two classes equally
    likely whatever ``n_features``: the lesson can then grow ``n`` (adding
    irrelevant features) with everything else fixed, and watch Winnow's
    mistakes grow like ``k log n`` and the perceptron's like ``n``.

    Parameters
    ----------
    n_features : int
        ``n``, at least ``k``.
    k : int
        The number of relevant features, at least 1.
    n_samples : int
    random_state : None, int or numpy RandomState
    p_active : float in (0, 1), optional
        The chance that a feature is 1.
    return_relevant : bool, default=False
        Also return the indices of the relevant features.

    Returns
    -------
    X : ndarray of shape (n_samples, n_features), dtype uint8
    y : ndarray of shape (n_samples,), dtype int64, values 0 and 1
    relevant : ndarray of shape (k,), only with ``return_relevant=True``

    Examples
    --------
    >>> from perceptron_core import make_k_of_n_disjunction
    >>> X, y, rel = make_k_of_n_disjunction(10, 2, 1000, random_state=0, return_relevant=True)
    >>> X.shape, X.dtype, sorted(set(y.tolist())), len(rel)
    ((1000, 10), dtype('uint8'), [0, 1], 2)
    >>> bool((y == X[:, rel].max(axis=1)).all()), bool(0.4 < y.mean() < 0.6)
    (True, True)
    """
    n_features, k, n_samples = int(n_features), int(k), int(n_samples)
    if k < 1 or n_features < k:
        raise ValueError(
            f"make_k_of_n_disjunction needs 1 <= k <= n_features; got k={k}, "
            f"n_features={n_features}."
        )
    if n_samples < 1:
        raise ValueError(f"n_samples must be at least 1; got {n_samples}.")
    if p_active is None:
        p_active = 1.0 - 2.0 ** (-1.0 / k)
    if not 0.0 < p_active < 1.0:
        raise ValueError(f"p_active must be strictly between 0 and 1; got {p_active}.")
    rng = check_random_state(random_state)
    relevant = np.sort(rng.choice(n_features, size=k, replace=False))
    X = (rng.random_sample((n_samples, n_features)) < p_active).astype(np.uint8)
    y = X[:, relevant].max(axis=1).astype(np.int64)
    if return_relevant:
        return X, y, relevant
    return X, y
