"""Winnow: multiplicative updates, and mistakes that grow with log n.

The perceptron *adds* ``y x`` to its weights; Winnow *multiplies* the weights
of the active features by a factor. On a target that depends on only ``k`` of
``n`` boolean features (a k-literal disjunction), Winnow makes O(k log n)
mistakes, while the perceptron needs Θ(n) in the worst case: with many
irrelevant features, multiplying wins (Littlestone 1988).
:func:`make_k_of_n_disjunction` draws such data for the lesson that shows it.

Three learners live here (their steps are in :mod:`perceptron_core.rules`):

* :class:`Winnow`: positive weights, promotion and demotion (or elimination);
* :class:`WinnowR`: Winnow whose weights never fall below a floor (½);
* :class:`BalancedWinnow`: a positive and a negative weight per feature, so
  the learned weights can have either sign (and real features are allowed).

All three predict the positive class iff ``<w, x> >= theta`` (equality
counts as positive, as in the course notes): unlike the rest of the package,
where a score of exactly 0 counts as negative. ``decision_function`` returns
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

from perceptron_core import rules
from perceptron_core._online import (
    COMMON_PARAMETERS,
    FIT_INTERCEPT,
    OnlineLinearClassifier,
)
from perceptron_core._validation import Number, OneOf, Param

__all__ = ["BalancedWinnow", "Winnow", "WinnowR", "make_k_of_n_disjunction"]

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


# --------------------------------------------------------------------------
# Estimators
# --------------------------------------------------------------------------


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


class _WinnowBase(OnlineLinearClassifier):
    """Shared by Winnow and WinnowR: positive weights, fixed threshold."""

    _rule = rules.number(rules.winnow)
    _explicit_history = True

    def _prepare_X(self, X, training):
        return _boolean_features(self, X, self.binarize)

    def _theta(self, n_features):
        return float(n_features) if self.threshold == "auto" else float(self.threshold)

    def _init_state(self, n_problems, n_features):
        self._model = (
            np.ones((n_problems, n_features)),
            np.empty((n_problems, 0)),
            np.full((n_problems, 1), self._theta(n_features)),  # theta
        )

    def _coef_intercept(self):
        W, _, S = self._model
        return W.copy(), -S[:, 0]

    def _hyper(self, X):
        eliminate, floor = self._demotion()
        return self.alpha, eliminate, floor

    def predict(self, X):
        """Positive iff ``<w, x> >= theta`` (two classes); the largest score otherwise."""
        scores = self.decision_function(X)
        if scores.ndim == 1:
            return self.classes_[(scores >= 0).astype(np.int64)]
        return self.classes_[np.argmax(scores, axis=1)]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        # Boolean learners: the generic checks' real-valued blobs, cut at one value per
        # feature, are a poor fit (a disjunction of two indicators cannot isolate a blob).
        tags.classifier_tags.poor_score = True
        return tags


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
    >>> from perceptron_core.winnow import Winnow, make_k_of_n_disjunction
    >>> X, y = make_k_of_n_disjunction(n_features=200, k=3, n_samples=600, random_state=0)
    >>> clf = Winnow(epochs=1, shuffle=False).fit(X[:400], y[:400])
    >>> clf.n_mistakes_ <= 2 + 3 * 3 * (1 + 8)  # 2 + 3k(1 + log2 n): far below n = 200
    True
    >>> clf.score(X[400:], y[400:]) > 0.95
    True
    """

    _parameters: ClassVar[dict] = {
        "alpha": _ALPHA,
        "threshold": _THRESHOLD,
        "demotion": Param(
            "what a false positive does to the active weights",
            (OneOf(("divide", "eliminate")),),
        ),
        "binarize": _BINARIZE,
        **COMMON_PARAMETERS,
    }

    def __init__(
        self,
        *,
        alpha=2.0,
        threshold="auto",
        demotion="divide",
        binarize=None,
        epochs=100,
        shuffle=True,
        random_state=None,
        record="none",
    ):
        self.alpha = alpha
        self.threshold = threshold
        self.demotion = demotion
        self.binarize = binarize
        self.epochs = epochs
        self.shuffle = shuffle
        self.random_state = random_state
        self.record = record

    def _demotion(self):
        return self.demotion == "eliminate", 0.0


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
    >>> from perceptron_core.winnow import WinnowR, make_k_of_n_disjunction
    >>> X, y = make_k_of_n_disjunction(n_features=50, k=2, n_samples=300, random_state=1)
    >>> clf = WinnowR(random_state=0).fit(X, y)
    >>> bool(clf.coef_.min() >= 0.5), clf.score(X, y)
    (True, 1.0)
    """

    _parameters: ClassVar[dict] = {
        "alpha": _ALPHA,
        "threshold": _THRESHOLD,
        "min_weight": Param(
            "the floor below which no weight is demoted", (Number(low=0, open_low=True),)
        ),
        "binarize": _BINARIZE,
        **COMMON_PARAMETERS,
    }

    def __init__(
        self,
        *,
        alpha=2.0,
        threshold="auto",
        min_weight=0.5,
        binarize=None,
        epochs=100,
        shuffle=True,
        random_state=None,
        record="none",
    ):
        self.alpha = alpha
        self.threshold = threshold
        self.min_weight = min_weight
        self.binarize = binarize
        self.epochs = epochs
        self.shuffle = shuffle
        self.random_state = random_state
        self.record = record

    def _demotion(self):
        return False, float(self.min_weight)


#: The largest power of two one update may multiply a weight by: with the rescaling at
#: 2**600 a weight then stays below 2**1000, inside float64's 2**1024, and a factor of at
#: least 2**-400 never rounds to zero (which would divide by zero).
_MAX_FACTOR_EXPONENT = 400


def _check_factor_range(X, alpha: float) -> None:
    """Raise when ``alpha ** (y x_i)`` for the largest ``|x_i|`` would leave float64's range.

    Examples
    --------
    >>> _check_factor_range(np.array([[0.5, -3.0]]), 2.0)
    >>> _check_factor_range(np.array([[4095.0]]), 2.0)
    Traceback (most recent call last):
    ...
    ValueError: BalancedWinnow multiplies a weight by alpha ** (y * x_i) at each update: with ...
    """
    if X.size == 0:
        return
    largest = max(abs(float(X.max())), abs(float(X.min())))  # no np.abs: int8's -128 wraps
    exponent = largest * np.log2(alpha)
    if not exponent <= _MAX_FACTOR_EXPONENT:
        most = _MAX_FACTOR_EXPONENT / np.log2(alpha)
        raise ValueError(
            "BalancedWinnow multiplies a weight by alpha ** (y * x_i) at each update: with "
            f"features up to |x_i| = {largest:.4g} and alpha = {alpha:g} one update would "
            f"multiply by 2 ** {exponent:.4g}, beyond floating point. Scale the features to "
            f"at most {most:.4g} in absolute value (standardise them, e.g. with scikit-learn's "
            "StandardScaler or MaxAbsScaler) or choose alpha closer to 1."
        )


class BalancedWinnow(OnlineLinearClassifier):
    """Balanced Winnow: two positive weights per feature, their difference of either sign.

    Each feature ``i`` has ``w+_i`` and ``w-_i``, both starting at 1 (so the
    effective weight ``w_i = w+_i - w-_i`` starts at 0); the score is
    ``<w+ - w-, x> - theta``. On a mistake on an example with label ``y``::

        w+_i <- w+_i * alpha ** (y * x_i)
        w-_i <- w-_i / alpha ** (y * x_i)

    For boolean features this is Littlestone's rule: promotion (``y = +1``)
    doubles ``w+`` and halves ``w-`` on the active features, demotion the
    reverse, inactive features are untouched. **Real features** are allowed:
    the exponent ``y x_i`` then scales each factor with the feature's value
    (the exponentiated-gradient form of the same rule, Kivinen & Warmuth),
    so features should be on a moderate scale (standardise them first).

    A common positive factor on all weights and ``theta`` changes no
    prediction and no later update; when real features drive a weight above
    ``2**600``, the learner divides every weight and ``theta`` by ``2**500``
    (exact in floating point) so that nothing overflows. ``intercept_``
    reports the current, rescaled threshold.

    Because weights can turn negative, ``fit_intercept=True`` (the default)
    adds a constant input 1 with its own pair of weights: the boundary can
    then sit anywhere, not only on hyperplanes ``<w, x> = theta``.

    Multi-class targets are learned one-vs-rest.

    Parameters
    ----------
    alpha : float, default=2.0
        The update factor (> 1).
    threshold : "auto" or float, default="auto"
        ``theta``; "auto" is the number of features.
    fit_intercept : bool, default=True
    epochs, shuffle, random_state, record
        As in :class:`Winnow`.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    coef_ : ndarray of shape (n_problems, n_features)
        The effective weights ``w+ - w-``.
    intercept_ : ndarray of shape (n_problems,)
        ``(b+ - b-) - theta``.
    weights_pos_, weights_neg_ : ndarray of shape (n_problems, n_features + 1)
        ``w+`` and ``w-``; the last column is the intercept pair.
    n_iter_, n_updates_, n_mistakes_, update_counts_, trace_
        As in :class:`Winnow`.

    References
    ----------
    N. Littlestone, "Mistake bounds and logarithmic linear-threshold learning
    algorithms", PhD thesis, UC Santa Cruz (1989).
    J. Kivinen and M. K. Warmuth, "Exponentiated gradient versus gradient
    descent for linear predictors", Information and Computation 132 (1997).

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from perceptron_core.winnow import BalancedWinnow
    >>> X, y = make_classification(n_samples=200, n_features=5, random_state=0)
    >>> clf = BalancedWinnow(alpha=1.5, random_state=0).fit(X, y)
    >>> clf.score(X, y) > 0.85
    True
    """

    _rule = rules.number(rules.balanced_winnow)
    _explicit_history = True
    _parameters: ClassVar[dict] = {
        "alpha": _ALPHA,
        "threshold": _THRESHOLD,
        "fit_intercept": FIT_INTERCEPT,
        **COMMON_PARAMETERS,
    }

    def __init__(
        self,
        *,
        alpha=2.0,
        threshold="auto",
        fit_intercept=True,
        epochs=100,
        shuffle=True,
        random_state=None,
        record="none",
    ):
        self.alpha = alpha
        self.threshold = threshold
        self.fit_intercept = fit_intercept
        self.epochs = epochs
        self.shuffle = shuffle
        self.random_state = random_state
        self.record = record

    def _init_state(self, n_problems, n_features):
        theta = float(n_features) if self.threshold == "auto" else float(self.threshold)
        S = np.ones((n_problems, 3))  # b+, b-, theta
        S[:, 2] = theta
        self._model = (np.ones((n_problems, n_features)), np.ones((n_problems, n_features)), S)

    @property
    def weights_pos_(self):
        """``w+``, its last column the bias input's (shape (n_problems, n_features + 1))."""
        W, _, S = self._model
        return np.column_stack([W, S[:, 0]])

    @property
    def weights_neg_(self):
        """``w-``, its last column the bias input's."""
        _, V, S = self._model
        return np.column_stack([V, S[:, 1]])

    def _coef_intercept(self):
        Wpos, Wneg, S = self._model
        xb = 1.0 if self.fit_intercept else 0.0
        return Wpos - Wneg, (S[:, 0] - S[:, 1]) * xb - S[:, 2]

    def _hyper(self, X):
        _check_factor_range(X, float(self.alpha))
        return 1.0 if self.fit_intercept else 0.0, self.alpha

    def predict(self, X):
        """Positive iff ``<w+ - w-, x> + b >= theta`` (two classes); else the largest score."""
        scores = self.decision_function(X)
        if scores.ndim == 1:
            return self.classes_[(scores >= 0).astype(np.int64)]
        return self.classes_[np.argmax(scores, axis=1)]


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
    >>> from perceptron_core.winnow import make_k_of_n_disjunction
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
