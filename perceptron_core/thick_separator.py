"""The thick separator: the perceptron that also updates on near misses.

The classic perceptron updates only when an example lands on the wrong side.
The thick separator of the course notes treats the boundary as a slab of
half-width ``gamma``: an example on the right side but closer than ``gamma``
to the boundary (in raw score units) also triggers the update. The learned
boundary then keeps a positive functional margin from the training points,
which usually generalises better, and with ``gamma = 0`` the rule is the
textbook perceptron (update iff ``y <w, x> <= 0``).
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
from perceptron_core._validation import Number, Param
from perceptron_core.trace import CORRECT, MARGIN, MISTAKE

__all__ = ["ThickSeparatorPerceptron"]


@jit
def _thick_separator_epochs(
    X, Y, order, W, b, xb, eta, gamma,
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
                kind = CORRECT
                if y * s <= gamma:  # wrong side, or right side but inside the slab
                    wrong = (s > 0) != (y > 0)  # prediction: sign(s), sign(0) = -1
                    kind = MISTAKE if wrong else MARGIN
                    c = eta * y
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


class ThickSeparatorPerceptron(ZeroStartLinear):
    """The perceptron with a thick separator: update inside a slab of half-width gamma.

    ``f(x) = <w, x> + b`` starts at ``w = 0, b = 0``. For each example in
    turn::

        if y * f(x) <= gamma:      # wrong side, or right side but within gamma
            w <- w + eta * y * x
            b <- b + eta * y       # (fit_intercept: b is the weight of an input 1)

    Prediction is ``sign(f(x))`` with ``sign(0) = -1``. ``gamma`` is in raw
    score units, so its effect depends on the scale of ``w``: as ``w`` grows
    the slab gets thinner in distance ``gamma / ||w||``. With ``gamma = 0``
    this is the textbook perceptron (update iff ``y f(x) <= 0``). In
    ``trace_``, an update of a misclassified example is a ``"mistake"`` and an
    update of a correctly classified one inside the slab a ``"margin"`` event.

    Multi-class targets are learned one-vs-rest.

    Parameters
    ----------
    gamma : float, default=1.0
        Half-width of the slab (>= 0).
    eta : float, default=1.0
        The learning rate (> 0).
    fit_intercept : bool, default=True
    epochs : int, default=100
        The most passes; training stops after a pass without an update.
    shuffle : bool, default=True
        Permute the training set once before training (``random_state``).
    random_state : None, int or numpy generator, default=None
    record : {"none", "updates", "all"}, default="none"
        What ``trace_`` keeps (the additive update sequence is always complete).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    coef_ : ndarray of shape (n_problems, n_features)
    intercept_ : ndarray of shape (n_problems,)
        ``b``; the trace's threshold is ``theta = -b``.
    n_iter_, n_updates_, n_mistakes_ : int
        Epochs run; updates; updates on misclassified examples.
    update_counts_ : ndarray of shape (n_problems, n_samples)
    trace_ : Trace, dict of Trace, or None

    References
    ----------
    F. Rosenblatt, "The perceptron: a probabilistic model for information
    storage and organization in the brain", Psychological Review 65 (1958).
    W. Krauth and M. Mézard, "Learning algorithms with optimal stability in
    neural networks", J. Phys. A 20 (1987) L745 (the margin idea; see also
    ``MarginPerceptron``, whose margin is relative to ``theta_init``).

    Examples
    --------
    >>> from sklearn.datasets import make_blobs
    >>> from perceptron_core.thick_separator import ThickSeparatorPerceptron
    >>> import numpy as np
    >>> X, y = make_blobs(n_samples=200, centers=[[-2, -1], [2, 1]], cluster_std=0.7,
    ...                   random_state=0)
    >>> thin = ThickSeparatorPerceptron(gamma=0.0, random_state=0).fit(X, y)
    >>> thick = ThickSeparatorPerceptron(gamma=20.0, random_state=0).fit(X, y)
    >>> thin.score(X, y), thick.score(X, y)
    (1.0, 1.0)
    >>> def margin(clf):  # distance from the boundary to the closest training point
    ...     return ((2 * y - 1) * clf.decision_function(X)).min() / np.linalg.norm(clf.coef_)
    >>> bool(margin(thick) > 2 * margin(thin))
    True
    """

    _parameters: ClassVar[dict] = {
        "gamma": Param("the half-width of the slab that triggers updates", (Number(low=0),)),
        "eta": Param("the learning rate", (Number(low=0, open_low=True),)),
        "fit_intercept": FIT_INTERCEPT,
        **COMMON_PARAMETERS,
    }

    def __init__(
        self,
        *,
        gamma=1.0,
        eta=1.0,
        fit_intercept=True,
        epochs=100,
        shuffle=True,
        random_state=None,
        record="none",
    ):
        self.gamma = gamma
        self.eta = eta
        self.fit_intercept = fit_intercept
        self.epochs = epochs
        self.shuffle = shuffle
        self.random_state = random_state
        self.record = record

    def _run_kernel(self, X, Y, order, n_epochs, stop_early, record, row_offset, epoch_offset):
        return _thick_separator_epochs(
            X, Y, order, self._W, self._b, self._xb(), float(self.eta), float(self.gamma),
            n_epochs, stop_early, record, row_offset, epoch_offset,
        )  # fmt: skip
