"""The threshold-relative update: on a mistake, a step proportional to the miss ``theta - s``.

``hp = (xb, r, theta)``; ``S[p] = (b,)``; the logged score is ``s - theta``.
See :class:`perceptron_core.relative_update.RelativeUpdatePerceptron`.
"""

from perceptron_core._jit import jit_inline
from perceptron_core.engine.vectors import add_row, row_dot
from perceptron_core.trace import CORRECT, MISTAKE


@jit_inline
def step(X, Y, p, j, a, model, hp):
    W, _, S = model
    xb, r, theta = hp[0], hp[1], hp[2]
    y = Y[p, j]
    s = row_dot(W, p, X, j) + S[p, 0] * xb
    if (s > theta) != (y > 0):  # a mistake: predicted +1 iff s > theta
        sq = row_dot(X, j, X, j) + xb * xb
        c = r * (theta - s) / sq if sq > 0 else 0.0
        add_row(W, p, c, X, j)
        S[p, 0] += c * xb
        return MISTAKE, s - theta, c, -c * xb
    return CORRECT, s - theta, 0.0, 0.0
