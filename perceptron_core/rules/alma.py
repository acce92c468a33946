"""ALMA: Gentile's approximate large margin algorithm (the p = 2 case).

The perceptron stops as soon as it separates the data, with whatever margin
it happened to reach. ALMA aims at the maximal margin: it keeps the weight
vector in the unit ball, normalises every example, and updates whenever the
normalised margin ``y <w, x/||x||>`` falls below a target ``(1 - alpha)
gamma_k`` that shrinks like ``1/sqrt(k)`` with the number ``k`` of updates
made so far; the step ``eta_k`` shrinks the same way. With ``alpha`` close
to 0 it approaches the maximal-margin hyperplane (more updates); with
``alpha = 1`` the margin target is 0 and it behaves like a normalised
perceptron with a decreasing rate.

The step (:mod:`perceptron_core.steps.alma`) keeps the bias and the counter
``k`` in its state's numbers. The update is not
additive in ``x`` (the projection rescales ``w``), so the driver records every
hypothesis. Then the estimator, :class:`ALMA`.
"""

from __future__ import annotations

import math

import numpy as np

from perceptron_core._online import ZeroStartLinear
from perceptron_core._validation import Number, OneOf, hyperparameters, parameter
from perceptron_core.steps.alma import (
    K,
    Settings,
    step,  # noqa: F401 (the rule's step, for its readers)
)

_SQRT2 = math.sqrt(2.0)


@hyperparameters
class ALMA(ZeroStartLinear):
    """Gentile's ALMA_2: approximate maximal-margin learning, one example at a time.

    Start with ``w = 0`` and ``k = 1``. For each example, with ``x_hat =
    x / ||x||`` (the bias input 1 included when ``fit_intercept``)::

        gamma_k = B / sqrt(k)
        if y * <w, x_hat> <= (1 - alpha) * gamma_k:
            eta_k = C / sqrt(k)
            w <- w + eta_k * y * x_hat
            w <- w / max(1, ||w||)          # stay in the unit ball
            k <- k + 1

    Prediction is ``sign(<w, x>)`` (``sign(0) = -1``). Gentile proves that,
    on data separable with margin ``gamma*``, ALMA makes a number of updates
    of order ``1 / (alpha^2 gamma*^2)`` and ends with a margin of at least
    ``(1 - alpha) gamma*``; the recommended constants ``B = 1/alpha`` and
    ``C = sqrt(2)`` are the defaults. Only the Euclidean case ``p = 2`` of
    Gentile's ALMA_p is implemented. In ``trace_`` an update of a
    misclassified example is a ``"mistake"``, of a correctly classified one
    below the margin target a ``"margin"`` event; the hypotheses are stored
    explicitly (the projection makes updates non-additive) and event scores
    are the normalised ``<w, x_hat>``. Examples that are all zero (possible
    only without intercept) are skipped. Multi-class targets are learned
    one-vs-rest.

    Parameters
    ----------
    alpha : float, default=0.9
        The approximation parameter in (0, 1]: the final margin is at least
        ``(1 - alpha)`` times the best one (on separable data).
    B : float or None, default=None
        Scale of the margin target; None means ``1 / alpha``.
    C : float, default=sqrt(2)
        Scale of the step size.
    fit_intercept, epochs, shuffle, random_state, record
        As in :class:`~perceptron_core.rules.thick_separator.ThickSeparatorPerceptron`.

    Attributes
    ----------
    n_updates_k_ : ndarray of shape (n_problems,)
        The counter ``k`` (updates + 1), which sets the current margin target.
    classes_, coef_, intercept_, n_iter_, n_updates_, n_mistakes_, update_counts_, trace_
        As in :class:`~perceptron_core.rules.thick_separator.ThickSeparatorPerceptron`.

    References
    ----------
    C. Gentile, "A new approximate maximal margin classification algorithm",
    Journal of Machine Learning Research 2 (2001) 213-242.

    Examples
    --------
    >>> from sklearn.datasets import make_blobs
    >>> from perceptron_core import ALMA
    >>> import numpy as np
    >>> X, y = make_blobs(n_samples=200, centers=[[-2, -1], [2, 1]], cluster_std=0.7,
    ...                   random_state=0)
    >>> def margin(clf):  # distance from the boundary to the closest training point
    ...     return ((2 * y - 1) * clf.decision_function(X)).min() / np.linalg.norm(clf.coef_)
    >>> rough = ALMA(alpha=0.9, random_state=0).fit(X, y)
    >>> fine = ALMA(alpha=0.1, random_state=0).fit(X, y)
    >>> rough.score(X, y), fine.score(X, y)
    (1.0, 1.0)
    >>> bool(margin(fine) > 2 * margin(rough)), bool(fine.n_updates_ > rough.n_updates_)
    (True, True)
    >>> bool(np.hypot(np.linalg.norm(fine.coef_), fine.intercept_[0]) <= 1 + 1e-12)
    True
    """

    #: Settings in the features' units (a warning names them when the data are far off).
    _scale_settings = ("B", "C")

    _rule = __name__  # its step: perceptron_core.steps.alma
    _explicit_history = True
    alpha: float = parameter(
        0.9,
        "the approximation parameter (smaller aims at a larger margin)",
        Number(low=0, high=1, open_low=True),
    )
    B: float | None = parameter(
        None,
        "the scale of the margin target (None: 1/alpha)",
        OneOf((None,)),
        Number(low=0, open_low=True),
    )
    C: float = parameter(_SQRT2, "the scale of the step size", Number(low=0, open_low=True))

    _n_numbers = 2  # b and the update counter k

    def _init_state(self, n_problems, n_features):
        super()._init_state(n_problems, n_features)
        self._state.numbers[:, K] = 1.0  # k starts at 1

    @property
    def n_updates_k_(self):
        """The counter ``k`` of each problem (1 + its updates so far)."""
        return self._state.numbers[:, K].astype(np.int64)

    def _settings(self, X):
        alpha = float(self.alpha)
        B = 1.0 / alpha if self.B is None else float(self.B)
        return Settings(xb=self._xb(), alpha=alpha, B=B, C=self.C)
