"""The step of Passive-Aggressive: what one visit of one example does.

Compiled into the driver (:mod:`perceptron_core.engine.online`); the estimator
that runs it, and the rule's story, are in :mod:`perceptron_core.rules.passive_aggressive`.
"""

from __future__ import annotations

from typing import NamedTuple

from perceptron_core._jit import jit_visit
from perceptron_core.steps import BIAS
from perceptron_core.trace import CORRECT, MARGIN, MISTAKE
from perceptron_core.vectors import add_row, dot


class Settings(NamedTuple):
    """The bias input (1 or 0), the variant (0: PA, 1: PA-I, 2: PA-II) and its ``C``."""

    xb: float
    variant: float
    C: float


@jit_visit
def step(X, Y, p, j, a, state, settings):
    W, S, xb = state.weights, state.numbers, settings.xb
    variant, C = settings.variant, settings.C
    y = Y[p, j]
    s = dot(W[p], X[j]) + S[p, BIAS] * xb
    loss = max(0.0, 1.0 - y * s)  # the hinge loss
    sq = dot(X[j], X[j]) + xb * xb
    if loss > 0 and sq > 0:  # aggressive (an all-zero example cannot be fixed: skipped)
        if variant == 0:
            tau = loss / sq
        elif variant == 1:
            tau = min(C, loss / sq)
        else:
            tau = loss / (sq + 1.0 / (2.0 * C))
        c = tau * y
        add_row(W, p, c, X, j)
        S[p, BIAS] += c * xb
        wrong = (s > 0) != (y > 0)
        return (MISTAKE if wrong else MARGIN), s, c, -c * xb
    return CORRECT, s, 0.0, 0.0  # passive
