"""The step of PAUM, the perceptron with uneven margins: what one visit of one example does.

Compiled into the driver (:mod:`perceptron_core.engine.online`); the estimator
that runs it, and the rule's story, are in :mod:`perceptron_core.rules.paum`.
"""

from __future__ import annotations

from typing import NamedTuple

from perceptron_core._jit import jit_visit
from perceptron_core.steps import BIAS
from perceptron_core.trace import CORRECT, MARGIN, MISTAKE, RESCUED
from perceptron_core.vectors import add_row, row_dot


class Settings(NamedTuple):
    """PAUM's settings: the rate, the bias step, the two margins and the λ-trick."""

    eta: float
    #: R^2 = max_j ||x_j||^2: an update moves the bias by eta * y * R2.
    R2: float
    tau_neg: float
    tau_pos: float
    lam: float


@jit_visit
def step(X, Y, p, j, a, state, settings):
    W, S = state.weights, state.numbers
    eta, lam = settings.eta, settings.lam
    y = Y[p, j]
    tau = settings.tau_pos if y > 0 else settings.tau_neg
    raw = row_dot(W, p, X, j) + S[p, BIAS]
    # λ-trick, kernel form k + lam [x == x']: the example's own term
    # lam * eta * a_j * y_j (zero until it has caused an update)
    f = raw + lam * eta * a * y
    if y * f <= tau:
        c = eta * y
        add_row(W, p, c, X, j)
        S[p, BIAS] += c * settings.R2
        wrong = (f > 0) != (y > 0)  # sign(f), sign(0) = -1
        return (MISTAKE if wrong else MARGIN), f, c, -c * settings.R2
    if y * raw <= tau:
        return RESCUED, f, 0.0, 0.0  # only the λ-term kept it out of the margin
    return CORRECT, f, 0.0, 0.0
