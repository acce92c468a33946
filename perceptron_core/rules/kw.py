"""Khardon and Wachman's decision (docs/algorithms.md §1.2, steps 2-4), written once.

The primal loop (:func:`perceptron_core.engine.kw_trainer._epoch`), the dual loop of
the kernel perceptron and the experiments' grid all ask the same question
of example ``j`` with label ``y``, raw score ``raw`` and ``a`` updates so far:

1. the λ-trick adds ``y * lam * ||x_j||^2`` to the score once ``j`` has
   caused an update (``norms2`` holds ``||x_j||^2``, or ``k(x_j, x_j)`` in
   dual form);
2. the prediction is -1 below ``theta - t``, +1 above ``theta + t``, and 0
   (a margin error) inside the band;
3. a wrong prediction updates, unless ``j`` has used up its α-bound.

The primal loops then move the hypothesis with :func:`update`; the dual
loop adds a kernel column to its running scores instead.
"""

from perceptron_core._jit import jit_inline
from perceptron_core.trace import BLOCKED, CORRECT, MARGIN, MISTAKE, RESCUED
from perceptron_core.vectors import add_row


@jit_inline
def predict_margin(s, theta, t):
    """-1 below the band ``theta ± t``, +1 above it, 0 inside it."""
    if s < theta - t:
        return -1.0
    if s > theta + t:
        return 1.0
    return 0.0


@jit_inline
def decide(raw, y, a, theta, t, lam, norms2, j, alpha_bound):
    """The event of this visit (``MISTAKE`` or ``MARGIN``: update), the score it used
    and the λ-trick's term in that score (0 when the trick does not apply).

    ``RESCUED``: right only thanks to the λ-trick; ``BLOCKED``: wrong, but
    the α-bound forbids the update.
    """
    pushed = lam > 0.0 and a > 0
    push = y * lam * norms2[j] if pushed else 0.0
    s = raw + push if pushed else raw
    yhat = predict_margin(s, theta, t)
    if yhat != y:
        if a < alpha_bound:
            return (MISTAKE if yhat == -y else MARGIN), s, push
        return BLOCKED, s, push
    if pushed and predict_margin(raw, theta, t) != y:
        return RESCUED, s, push
    return CORRECT, s, push


@jit_inline
def update(W, c, X, j, theta, eta, C, y):
    """Step 3 on problem ``c``: ``w <- w + eta y x_j``, ``theta <- theta - eta y C``.

    Minus: the classifier is ``sign(<w, x> - theta)`` (docs/algorithms.md §1.3).
    """
    step = eta * y
    add_row(W, c, step, X, j)
    theta[c] -= step * C
