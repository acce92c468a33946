"""The step of Gallant's pocket algorithm: what one visit of one example does.

Compiled into the driver (:mod:`perceptron_core.engine.online`); the estimator
that runs it, and the rule's story, are in :mod:`perceptron_core.rules.pocket`.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from perceptron_core._jit import jit, jit_visit
from perceptron_core.trace import CORRECT, MISTAKE
from perceptron_core.vectors import add_row, copy_into, row_dot

#: The columns of ``S[p]``: the bias, the run, the updates so far and the errors of
#: the running perceptron; the same for the pocket (its "updates": the number
#: of the running hypothesis it holds).
B, RUN, UPDATES, ERRORS, POCKET_B, POCKET_RUN, POCKET_K, POCKET_ERRORS = range(8)
NAN = math.nan


class Settings(NamedTuple):
    """The bias input (1 or 0), the rate and the ratchet (1.0: on)."""

    xb: float
    eta: float
    ratchet: float


@jit
def training_errors(X, Y, p, W, q, b, xb):
    """How many training examples ``sign(<W[q], x> + b)`` (sign(0) = -1) gets wrong."""
    errors = 0
    for j in range(X.shape[0]):
        errors += (row_dot(W, q, X, j) + b * xb > 0) != (Y[p, j] > 0)
    return errors


@jit_visit
def step(X, Y, p, j, a, state, settings):
    W, pocket, S = state.weights, state.second, state.numbers
    xb, eta, ratchet = settings.xb, settings.eta, settings.ratchet != 0
    y = Y[p, j]
    s = row_dot(W, p, X, j) + S[p, B] * xb
    if y * s <= 0:  # a mistake: the perceptron's update, and the run starts again
        add_row(W, p, eta * y, X, j)
        S[p, B] += eta * y * xb
        S[p, RUN] = 0
        S[p, UPDATES] += 1
        S[p, ERRORS] = NAN
        return MISTAKE, s, eta * y, -eta * y * xb
    S[p, RUN] += 1
    if S[p, RUN] > S[p, POCKET_RUN]:
        if ratchet:  # swap only for fewer training errors (each w counted once)
            if math.isnan(S[p, POCKET_ERRORS]):
                S[p, POCKET_ERRORS] = training_errors(X, Y, p, pocket, p, S[p, POCKET_B], xb)
            if math.isnan(S[p, ERRORS]):
                S[p, ERRORS] = training_errors(X, Y, p, W, p, S[p, B], xb)
            if S[p, ERRORS] >= S[p, POCKET_ERRORS]:
                return CORRECT, s, 0.0, 0.0
        copy_into(pocket[p], W[p])
        S[p, POCKET_B] = S[p, B]
        S[p, POCKET_RUN] = S[p, RUN]
        S[p, POCKET_K] = S[p, UPDATES]
        S[p, POCKET_ERRORS] = S[p, ERRORS]
    return CORRECT, s, 0.0, 0.0


@jit_visit
def answer(state, p):
    """The number of the running hypothesis the pocket holds (0: the initial one)."""
    return int(state.numbers[p, POCKET_K])
