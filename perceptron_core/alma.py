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
"""

from __future__ import annotations

import math
from typing import ClassVar

import numpy as np

from perceptron_core._jit import jit
from perceptron_core._online import (
    COMMON_PARAMETERS,
    FIT_INTERCEPT,
    ZeroStartLinear,
    dot,
    log_event,
    log_hypothesis,
    log_update,
)
from perceptron_core._validation import Number, OneOf, Param
from perceptron_core.trace import CORRECT, MARGIN, MISTAKE

__all__ = ["ALMA"]

_SQRT2 = math.sqrt(2.0)


@jit
def _alma_epochs(
    X, Y, order, W, b, K, xb, alpha, B, C,
    n_epochs, stop_early, record, row_offset, epoch_offset,
):  # fmt: skip
    P, m = Y.shape
    n = X.shape[1]
    cap = 64 if record else 0
    events = np.empty((cap, 6))
    updates = np.empty((cap, 4))
    history = np.empty((cap, n + 2))
    n_ev = n_up = n_hist = 0
    ev_row = np.empty(6)
    up_row = np.empty(4)
    epochs_run = np.zeros(P, np.int64)
    n_updates = np.zeros(P, np.int64)
    n_mistakes = np.zeros(P, np.int64)
    counts = np.zeros((P, m), np.int64)
    for p in range(P):
        w = W[p]
        if record:
            history = log_hypothesis(history, n_hist, p, -b[p], w)
            n_hist += 1
        for e in range(n_epochs):
            updated = False
            for t in range(m):
                j = order[t]
                x = X[j]
                y = Y[p, j]
                norm = math.sqrt(dot(x, x) + xb * xb)
                kind = CORRECT
                s = 0.0
                if norm > 0:  # an all-zero example carries no information: skipped
                    s = 0.0  # the normalised score <w, x_hat>
                    for i in range(n):
                        s += w[i] * (x[i] / norm)
                    s += b[p] * (xb / norm)
                    k = K[p]
                    gamma_k = B / math.sqrt(k)
                    if y * s <= (1.0 - alpha) * gamma_k:
                        wrong = (s > 0) != (y > 0)
                        kind = MISTAKE if wrong else MARGIN
                        c = C / math.sqrt(k) * y  # eta_k * y
                        for i in range(n):
                            w[i] += c * (x[i] / norm)
                        b[p] += c * (xb / norm)
                        length = math.sqrt(dot(w, w) + b[p] * b[p])
                        if length > 1.0:  # project back onto the unit ball
                            for i in range(n):
                                w[i] /= length
                            b[p] /= length
                        K[p] = k + 1
                        updated = True
                        n_updates[p] += 1
                        n_mistakes[p] += wrong
                        counts[p, j] += 1
                        if record:
                            updates = log_update(
                                updates, n_up, up_row, p, j + row_offset, np.nan, np.nan
                            )
                            n_up += 1
                            history = log_hypothesis(history, n_hist, p, -b[p], w)
                            n_hist += 1
                if record == 2 or (record == 1 and kind != CORRECT):
                    events = log_event(
                        events, n_ev, ev_row, p, e + epoch_offset, j + row_offset,
                        kind, s, n_updates[p],
                    )  # fmt: skip
                    n_ev += 1
            epochs_run[p] = e + 1
            if stop_early and not updated:
                break
    return (
        events, n_ev, updates, n_up, history, n_hist,
        epochs_run, n_updates, n_mistakes, counts,
    )  # fmt: skip


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
    fit_intercept : bool, default=True
    epochs, shuffle, random_state, record
        As in :class:`~perceptron_core.thick_separator.ThickSeparatorPerceptron`.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    coef_ : ndarray of shape (n_problems, n_features)
    intercept_ : ndarray of shape (n_problems,)
    n_updates_k_ : ndarray of shape (n_problems,)
        The counter ``k`` (updates + 1), which sets the current margin target.
    n_iter_, n_updates_, n_mistakes_, update_counts_, trace_
        As in the other on-line rules.

    References
    ----------
    C. Gentile, "A new approximate maximal margin classification algorithm",
    Journal of Machine Learning Research 2 (2001) 213-242.

    Examples
    --------
    >>> from sklearn.datasets import make_blobs
    >>> from perceptron_core.alma import ALMA
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

    _explicit_history = True
    _parameters: ClassVar[dict] = {
        "alpha": Param(
            "the approximation parameter (smaller aims at a larger margin)",
            (Number(low=0, high=1, open_low=True),),
        ),
        "B": Param(
            "the scale of the margin target (None: 1/alpha)",
            (OneOf((None,)), Number(low=0, open_low=True)),
        ),
        "C": Param("the scale of the step size", (Number(low=0, open_low=True),)),
        "fit_intercept": FIT_INTERCEPT,
        **COMMON_PARAMETERS,
    }

    def __init__(
        self,
        *,
        alpha=0.9,
        B=None,
        C=_SQRT2,
        fit_intercept=True,
        epochs=100,
        shuffle=True,
        random_state=None,
        record="none",
    ):
        self.alpha = alpha
        self.B = B
        self.C = C
        self.fit_intercept = fit_intercept
        self.epochs = epochs
        self.shuffle = shuffle
        self.random_state = random_state
        self.record = record

    def _init_state(self, n_problems, n_features):
        super()._init_state(n_problems, n_features)
        self.n_updates_k_ = np.ones(n_problems, np.int64)

    def _run_kernel(self, X, Y, order, n_epochs, stop_early, record, row_offset, epoch_offset):
        alpha = float(self.alpha)
        B = 1.0 / alpha if self.B is None else float(self.B)
        return _alma_epochs(
            X, Y, order, self._W, self._b, self.n_updates_k_, self._xb(), alpha, B,
            float(self.C), n_epochs, stop_early, record, row_offset, epoch_offset,
        )  # fmt: skip
