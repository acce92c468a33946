"""The step of the thick separator: what one visit of one example does.

Compiled into the driver (:mod:`perceptron_core.engine.online`); the estimator
that runs it, and the rule's story, are in :mod:`perceptron_core.rules.thick_separator`.
"""

from __future__ import annotations

from perceptron_core._jit import jit_visit
from perceptron_core.trace import CORRECT, MARGIN, MISTAKE
from perceptron_core.vectors import add_row, row_dot


@jit_visit
def step(X, Y, p, j, a, model, hp):
    W, _, S = model
    xb, eta, gamma = hp[0], hp[1], hp[2]
    y = Y[p, j]
    s = row_dot(W, p, X, j) + S[p, 0] * xb
    if y * s <= gamma:  # wrong side, or right side but inside the slab
        c = eta * y
        add_row(W, p, c, X, j)
        S[p, 0] += c * xb
        wrong = (s > 0) != (y > 0)  # prediction: sign(s), sign(0) = -1
        return (MISTAKE if wrong else MARGIN), s, c, -c * xb
    return CORRECT, s, 0.0, 0.0
