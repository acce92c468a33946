"""Passive-Aggressive PA, PA-I, PA-II: the smallest step that gives the example margin 1.

``hp = (xb, variant, C)`` with variant 0, 1, 2 for PA, PA-I, PA-II;
``S[p] = (b,)``. See :class:`perceptron_core.passive_aggressive.PassiveAggressive`.

The sums run left to right (:func:`~perceptron_core.vectors.dot`), not
vectorised: an update puts the example at margin exactly 1 in exact
arithmetic, so whether it updates again on its next visit is decided by the
last bit of the score, which must be the papers' (the tests' references').
"""

from perceptron_core._jit import jit_visit
from perceptron_core.trace import CORRECT, MARGIN, MISTAKE
from perceptron_core.vectors import add_row, dot


@jit_visit
def step(X, Y, p, j, a, model, hp):
    W, _, S = model
    xb, variant, C = hp[0], hp[1], hp[2]
    y = Y[p, j]
    s = dot(W[p], X[j]) + S[p, 0] * xb
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
        S[p, 0] += c * xb
        wrong = (s > 0) != (y > 0)
        return (MISTAKE if wrong else MARGIN), s, c, -c * xb
    return CORRECT, s, 0.0, 0.0  # passive
