"""The threshold-relative update: on a mistake, a step proportional to the miss ``theta - s``.

``hp = (xb, r, theta)``; ``S[p] = (b,)``; the logged score is ``s - theta``.
The sums run left to right, not vectorised: with ``r = 1`` an update parks
the example exactly on the threshold, so its next prediction is decided by
the last bit of the score, which must be the papers' (the tests' references').
See :class:`perceptron_core.relative_update.RelativeUpdatePerceptron`.
"""

from perceptron_core._jit import jit_visit
from perceptron_core.trace import CORRECT, MISTAKE
from perceptron_core.vectors import add_row, dot


@jit_visit
def step(X, Y, p, j, a, model, hp):
    W, _, S = model
    xb, r, theta = hp[0], hp[1], hp[2]
    y = Y[p, j]
    s = dot(W[p], X[j]) + S[p, 0] * xb
    if (s > theta) != (y > 0):  # a mistake: predicted +1 iff s > theta
        sq = dot(X[j], X[j]) + xb * xb
        c = r * (theta - s) / sq if sq > 0 else 0.0
        add_row(W, p, c, X, j)
        S[p, 0] += c * xb
        return MISTAKE, s - theta, c, -c * xb
    return CORRECT, s - theta, 0.0, 0.0
