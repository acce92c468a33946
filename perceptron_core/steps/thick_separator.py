"""The step of the thick separator: what one visit of one example does.

Compiled into the driver (:mod:`perceptron_core.engine.online`); the estimator
that runs it, and the rule's story, are in :mod:`perceptron_core.rules.thick_separator`.
"""

from __future__ import annotations

from typing import NamedTuple

from perceptron_core._jit import jit_visit
from perceptron_core.steps import BIAS
from perceptron_core.trace import CORRECT, MARGIN, MISTAKE
from perceptron_core.vectors import add_row, row_dot


class Settings(NamedTuple):
    """The bias input (1 or 0), the rate and the slab's half-width."""

    xb: float
    eta: float
    gamma: float


@jit_visit
def step(X, Y, p, j, a, state, settings):
    W, S, xb = state.weights, state.numbers, settings.xb
    y = Y[p, j]
    s = row_dot(W, p, X, j) + S[p, BIAS] * xb
    if y * s <= settings.gamma:  # wrong side, or right side but inside the slab
        c = settings.eta * y
        add_row(W, p, c, X, j)
        S[p, BIAS] += c * xb
        wrong = (s > 0) != (y > 0)  # prediction: sign(s), sign(0) = -1
        return (MISTAKE if wrong else MARGIN), s, c, -c * xb
    return CORRECT, s, 0.0, 0.0
