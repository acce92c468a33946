"""Passive-Aggressive learning: the smallest change that fixes the margin.

On each example the Passive-Aggressive rules ask for a margin of 1,
``y <w, x> >= 1``. If it is met they stay *passive*; if not, they move
*aggressively*: to the weight vector closest to the current one that meets
it (PA), or a step capped by ``C`` (PA-I) or damped by ``1/(2C)`` (PA-II),
which keeps a single noisy example from dragging the hypothesis too far.
The step size comes from the hinge loss, so no learning rate is tuned.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from perceptron_core._jit import jit
from perceptron_core._online import (
    COMMON_PARAMETERS,
    FIT_INTERCEPT,
    ZeroStartLinear,
    dot,
    log_event,
    log_update,
)
from perceptron_core._validation import Number, OneOf, Param
from perceptron_core.trace import CORRECT, MARGIN, MISTAKE

__all__ = ["PassiveAggressive"]

_VARIANTS = {"PA": 0, "PA-I": 1, "PA-II": 2}


@jit
def _passive_aggressive_epochs(
    X, Y, order, W, b, xb, variant, C,
    n_epochs, stop_early, record, row_offset, epoch_offset,
):  # fmt: skip
    P, m = Y.shape
    n = X.shape[1]
    cap = 64 if record else 0
    events = np.empty((cap, 6))
    updates = np.empty((cap, 4))
    history = np.empty((0, n + 2))
    n_ev = n_up = 0
    ev_row = np.empty(6)
    up_row = np.empty(4)
    epochs_run = np.zeros(P, np.int64)
    n_updates = np.zeros(P, np.int64)
    n_mistakes = np.zeros(P, np.int64)
    counts = np.zeros((P, m), np.int64)
    for p in range(P):
        w = W[p]
        for e in range(n_epochs):
            updated = False
            for t in range(m):
                j = order[t]
                x = X[j]
                y = Y[p, j]
                s = dot(w, x) + b[p] * xb
                loss = max(0.0, 1.0 - y * s)  # the hinge loss
                sq = dot(x, x) + xb * xb
                kind = CORRECT
                if loss > 0 and sq > 0:  # (an all-zero example cannot be fixed: skipped)
                    if variant == 0:
                        tau = loss / sq
                    elif variant == 1:
                        tau = min(C, loss / sq)
                    else:
                        tau = loss / (sq + 1.0 / (2.0 * C))
                    wrong = (s > 0) != (y > 0)
                    kind = MISTAKE if wrong else MARGIN
                    c = tau * y
                    for i in range(n):
                        w[i] += c * x[i]
                    b[p] += c * xb
                    updated = True
                    n_updates[p] += 1
                    n_mistakes[p] += wrong
                    counts[p, j] += 1
                    if record:
                        updates = log_update(updates, n_up, up_row, p, j + row_offset, c, -c * xb)
                        n_up += 1
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
        events, n_ev, updates, n_up, history, 0,
        epochs_run, n_updates, n_mistakes, counts,
    )  # fmt: skip


class PassiveAggressive(ZeroStartLinear):
    """Crammer et al.'s Passive-Aggressive classifiers PA, PA-I and PA-II.

    ``f(x) = <w, x> + b`` starts at 0. For each example, with the hinge loss
    ``l = max(0, 1 - y f(x))`` and ``q = ||x||^2`` (plus 1 for the bias input
    when ``fit_intercept``)::

        if l > 0:
            tau = l / q                      # PA:    the smallest fixing step
            tau = min(C, l / q)              # PA-I:  capped step
            tau = l / (q + 1 / (2 C))        # PA-II: damped step
            w <- w + tau * y * x
            b <- b + tau * y

    PA moves to the closest weight vector with margin 1 on the example: on
    separable data it converges, but one mislabelled example can pull it
    far. PA-I and PA-II trade that for robustness to noise, ``C`` setting
    how aggressive they are (large ``C``: close to PA). Prediction is
    ``sign(f(x))`` with ``sign(0) = -1``. In ``trace_``, an update of a
    misclassified example is a ``"mistake"``, of a correctly classified one
    with margin below 1 a ``"margin"`` event. Examples with ``q = 0`` (all
    zero, without intercept) are skipped. Multi-class targets are learned
    one-vs-rest (Crammer et al. also give a direct multi-class form, not
    implemented here).

    Parameters
    ----------
    variant : {"PA", "PA-I", "PA-II"}, default="PA-I"
    C : float, default=1.0
        Aggressiveness of PA-I and PA-II (> 0); ignored by PA.
    fit_intercept : bool, default=True
    epochs, shuffle, random_state, record
        As in :class:`~perceptron_core.thick_separator.ThickSeparatorPerceptron`.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    coef_ : ndarray of shape (n_problems, n_features)
    intercept_ : ndarray of shape (n_problems,)
    n_iter_, n_updates_, n_mistakes_, update_counts_, trace_
        As in the other on-line rules.

    References
    ----------
    K. Crammer, O. Dekel, J. Keshet, S. Shalev-Shwartz and Y. Singer,
    "Online passive-aggressive algorithms", Journal of Machine Learning
    Research 7 (2006) 551-585.

    Examples
    --------
    >>> from sklearn.datasets import make_blobs
    >>> from perceptron_core.passive_aggressive import PassiveAggressive
    >>> X, y = make_blobs(n_samples=200, centers=[[-2, -1], [2, 1]], cluster_std=0.7,
    ...                   random_state=0)
    >>> for variant in ("PA", "PA-I", "PA-II"):
    ...     clf = PassiveAggressive(variant=variant, C=0.1, random_state=0).fit(X, y)
    ...     print(variant, clf.score(X, y))
    PA 1.0
    PA-I 1.0
    PA-II 1.0
    """

    _parameters: ClassVar[dict] = {
        "variant": Param("which step-size rule to use", (OneOf(tuple(_VARIANTS)),)),
        "C": Param("the aggressiveness of PA-I and PA-II", (Number(low=0, open_low=True),)),
        "fit_intercept": FIT_INTERCEPT,
        **COMMON_PARAMETERS,
    }

    def __init__(
        self,
        *,
        variant="PA-I",
        C=1.0,
        fit_intercept=True,
        epochs=100,
        shuffle=True,
        random_state=None,
        record="none",
    ):
        self.variant = variant
        self.C = C
        self.fit_intercept = fit_intercept
        self.epochs = epochs
        self.shuffle = shuffle
        self.random_state = random_state
        self.record = record

    def _run_kernel(self, X, Y, order, n_epochs, stop_early, record, row_offset, epoch_offset):
        return _passive_aggressive_epochs(
            X, Y, order, self._W, self._b, self._xb(), _VARIANTS[self.variant],
            float(self.C), n_epochs, stop_early, record, row_offset, epoch_offset,
        )  # fmt: skip
