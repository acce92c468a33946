"""Balanced Winnow: two positive weights per feature, their difference of either sign.

Winnow's weights are all positive. Balanced Winnow keeps a positive weight
``w+_i`` and a negative one ``w-_i`` per feature and scores with their
difference ``w = w+ - w-``, so the learned weights can have either sign (and
real features are allowed); a mistake multiplies ``w+_i`` by
``alpha^(y x_i)`` and divides ``w-_i`` by it.

The step (:mod:`perceptron_core.steps.balanced_winnow`) keeps ``w+`` and ``w-``
as its state's two weight vectors, and ``b+``, ``b-`` and ``theta`` as its
numbers. Then the estimator, :class:`BalancedWinnow`.
"""

from __future__ import annotations

import numpy as np

from perceptron_core._online import (
    FIT_INTERCEPT,
    DriverParameters,
    OnlineLinearClassifier,
)
from perceptron_core._validation import hyperparameters, parameter
from perceptron_core.rules.winnow import _ALPHA, _THRESHOLD
from perceptron_core.steps import State
from perceptron_core.steps.balanced_winnow import (
    BIAS_NEG,
    BIAS_POS,
    THETA,
    Settings,
    step,  # noqa: F401 (the rule's step, for its readers)
)

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


@hyperparameters
class BalancedWinnow(OnlineLinearClassifier, DriverParameters):
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
    alpha, threshold, epochs, shuffle, random_state, record
        As in :class:`Winnow`.
    fit_intercept : bool, default=True
        Add the constant input 1 with its own pair of weights (above).

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
    >>> from perceptron_core import BalancedWinnow
    >>> X, y = make_classification(n_samples=200, n_features=5, random_state=0)
    >>> clf = BalancedWinnow(alpha=1.5, random_state=0).fit(X, y)
    >>> clf.score(X, y) > 0.85
    True
    """

    #: Settings in the features' units (a warning names them when the data are far off).
    _scale_settings = ("threshold",)

    _rule = __name__  # its step: perceptron_core.steps.balanced_winnow
    _explicit_history = True
    _zero_is_positive = True  # Positive iff ``<w+ - w-, x> + b >= theta`` (two classes)
    alpha: float = parameter(2.0, _ALPHA)
    threshold: float | str = parameter("auto", _THRESHOLD)
    fit_intercept: bool = parameter(True, FIT_INTERCEPT)

    def _init_state(self, n_problems, n_features):
        theta = float(n_features) if self.threshold == "auto" else float(self.threshold)
        numbers = np.ones((n_problems, 3))  # BIAS_POS, BIAS_NEG, THETA
        numbers[:, THETA] = theta
        self._state = State(
            weights=np.ones((n_problems, n_features)),
            second=np.ones((n_problems, n_features)),
            numbers=numbers,
        )

    @property
    def weights_pos_(self):
        """``w+``, its last column the bias input's (shape (n_problems, n_features + 1))."""
        return np.column_stack([self._state.weights, self._state.numbers[:, BIAS_POS]])

    @property
    def weights_neg_(self):
        """``w-``, its last column the bias input's."""
        return np.column_stack([self._state.second, self._state.numbers[:, BIAS_NEG]])

    def _coef_intercept(self):
        Wpos, Wneg, S = self._state
        xb = 1.0 if self.fit_intercept else 0.0
        return Wpos - Wneg, (S[:, BIAS_POS] - S[:, BIAS_NEG]) * xb - S[:, THETA]

    def _settings(self, X):
        _check_factor_range(X, float(self.alpha))
        return Settings(xb=1.0 if self.fit_intercept else 0.0, alpha=self.alpha)
