"""All grid settings of one cross-validation fold in one compiled call.

:func:`run_grid` trains docs/algorithms.md §1 once per setting ``(tau, lam, alpha_bound)``
on one training part and scores one test part **while training**, so a run
yields the last, longest-survivor, voted and averaged accuracies at once and
never stores a hypothesis. The training loop is the one of
:func:`perceptron_core.engine.kw_trainer._epoch` for a single binary problem:
the same :func:`~perceptron_core.vectors.row_dot`, the same decision and update
(:func:`perceptron_core.steps.kw.decide`, :func:`~perceptron_core.steps.kw.update`)
and the same vote count (:func:`~perceptron_core.steps.kw.survive`,
:func:`~perceptron_core.steps.kw.start_hypothesis`), so every setting makes
exactly the updates :class:`~perceptron_core.KWPerceptron` makes (the tests
check the accuracies against it). What this loop adds is the test side, per setting:

* ``d[t] = <w, x_t>`` for every test row ``t``. An update by training row
  ``j`` adds ``eta y_j <x_j, x_t>`` to it, read from ``G``, the train x test
  inner products computed once per fold and shared by all settings (one
  matrix product instead of a dot product per test row and update). The
  threshold is tracked as in training, so the current hypothesis's score is
  ``d[t] - theta``: each update moves it by ``eta y_j (<x_j, x_t> + C)``.
* When hypothesis ``k >= 1`` closes (at the next update, or at a checkpoint
  for the part of its vote earned so far) with vote ``c_k > 0``:
  ``V[t] += c_k sign(d[t] - theta)`` (voted; a score of exactly 0 adds
  nothing) and ``A[t] += c_k (d[t] - theta)`` (averaged: the vote-weighted
  sum of scores has the sign of the vote-weighted mean hypothesis's score).
* The longest survivor: when the current hypothesis's tally first beats the
  best tally it becomes the longest; its scores are copied once, when it
  closes (a hypothesis can beat the record many times before it closes, so
  copying at each new record would repeat the same copy).

Scores are sums in another order than :class:`KWPerceptron`'s (which forms
the final weight vectors first), so they can differ in the last bits; only a
test score within rounding of exactly 0 could be classified differently.

Checkpoints (learning curves): the accuracies are recorded after each epoch
listed in ``checkpoints`` without disturbing the run, so accuracy against
epochs 1..1000 costs one 1000-epoch run per setting.

The update-free shortcut: once an epoch makes no update, the rest of the run
is known in closed form (see :func:`_finish_frozen`).
"""

from __future__ import annotations

import numpy as np

from perceptron_core._jit import jit
from perceptron_core.engine.kw_trainer import NO_BOUND
from perceptron_core.modes import MODES
from perceptron_core.steps import kw
from perceptron_core.steps.kw import CURRENT_VOTES, LONGEST_K, TOTAL_VOTES
from perceptron_core.trace import BLOCKED, MARGIN, MISTAKE
from perceptron_core.vectors import copy_into, row_dot

__all__ = ["MODES", "NO_BOUND", "run_grid"]

#: The one binary problem's row of ``W`` and of the survival table.
ROW = 0


@jit
def _record(test, hypotheses, state, out):
    """Count the correct test predictions of the four modes (:data:`MODES`) as if training
    ended now.

    ``test = (d, V, A, Ld, y_test)``: the running test scores of the current
    hypothesis, the voted and averaged sums of the closed ones, the longest
    survivor's scores, and the test labels. ``hypotheses = (theta, k, theta_ls)``:
    the current hypothesis's threshold and number, and the longest survivor's
    threshold. ``state``: the survival table (:data:`perceptron_core.steps.kw.TALLY`
    and after), whose longest survivor may be the current hypothesis.

    Nothing is modified: the current hypothesis's vote so far is added on
    the fly. Sign of exactly 0 predicts -1 (docs/algorithms.md §1.4). When no hypothesis
    from 1 on has a vote, voted and averaged fall back to the last
    hypothesis, as :class:`~perceptron_core.KWPerceptron` does.
    """
    d, V, A, Ld, y_test = test
    theta, k, theta_ls = hypotheses
    voting = state[ROW, TOTAL_VOTES] > 0
    own = state[ROW, CURRENT_VOTES] if k >= 1 else 0
    longest_is_current = state[ROW, LONGEST_K] == k
    for t in range(d.shape[0]):
        score = d[t] - theta
        last = 1.0 if score > 0.0 else -1.0
        if longest_is_current:
            longest = last
        else:
            longest = 1.0 if Ld[t] - theta_ls > 0.0 else -1.0
        if voting:
            v = V[t] + own * ((score > 0.0) - (score < 0.0))
            voted = 1.0 if v > 0.0 else -1.0
            averaged = 1.0 if A[t] + own * score > 0.0 else -1.0
        else:
            voted = last
            averaged = last
        yt = y_test[t]
        out[0] += last == yt
        out[1] += longest == yt
        out[2] += voted == yt
        out[3] += averaged == yt


@jit
def _finish_frozen(epochs_done, gain, checkpoints, next_cp, test, hypotheses, state, out):
    """Record the remaining checkpoints of a run whose last epoch made no update.

    An epoch without an update is repeated by every later one
    (:func:`perceptron_core.steps.kw.survive`): after ``r`` more epochs the
    current hypothesis has ``r * gain`` more votes (``gain``: this epoch's
    correct predictions), and nothing else has changed, the test scores included.
    """
    later = np.empty_like(state)
    k = hypotheses[1]
    for i in range(next_cp, checkpoints.shape[0]):
        copy_into(later, state)
        kw.survive(later, np.int64(ROW), k, (checkpoints[i] - epochs_done) * gain)
        _record(test, hypotheses, later, out[i])


@jit
def run_grid(train, test, grid, checkpoints, out, n_updates, shortcut=True):
    """Train every setting on ``(X, y)`` and count correct test predictions.

    Parameters
    ----------
    train : (X, y, norms2)
        The training rows **in visiting order** (the permuted copy; float64,
        float32, int8 or uint8), their labels in {-1, +1} (float64), and
        ``||X[p]||^2`` (read only by settings with ``lam > 0``).
    test : (G, y_test)
        ``G[p, t] = <X[p], x_t>`` with the ``T`` test rows (float64), and the
        test labels in {-1, +1}.
    grid : (eta, C, theta_init, margins, lams, alphas)
        Learning rate, threshold step, starting threshold; the margin band's
        half-width in score units (:func:`perceptron_core.steps.kw.absolute_margin`)
        and λ-trick strength per setting (float64 arrays); α-bound per setting
        (int64, :data:`NO_BOUND` for none).
    checkpoints : (P,) int64, increasing, >= 1
        Epochs after which to count; the run lasts ``checkpoints[-1]`` epochs.
    out : (S, P, 4) int64, zeroed
        Correct test predictions per setting, checkpoint and mode
        (:data:`MODES` order).
    n_updates : (S,) int64
        Filled with the number of updates of each setting's run.
    shortcut : bool, default=True
        Finish a run arithmetically after an update-free epoch
        (:func:`_finish_frozen`); False runs every epoch (for the tests).

    Examples
    --------
    The data go in as :func:`~perceptron_core.experiments.fold_run.run_fold` hands them
    over (a read-only ``X``, ``shortcut`` given), so this call reuses that compilation.

    >>> import numpy as np
    >>> from perceptron_core._jit import read_only
    >>> X = np.array([[2.0, 1.0], [-1.0, -2.0], [1.5, 2.0], [-2.0, -0.5]])
    >>> y = np.array([1.0, -1.0, 1.0, -1.0])
    >>> Xt = np.array([[3.0, 1.0], [-1.0, -1.0]]); yt = np.array([1.0, -1.0])
    >>> norms2 = (X ** 2).sum(axis=1); theta0 = norms2.mean()
    >>> out = np.zeros((1, 1, 4), dtype=np.int64); upd = np.zeros(1, dtype=np.int64)
    >>> grid = (0.1, theta0, theta0, np.zeros(1), np.zeros(1), np.array([NO_BOUND]))
    >>> run_grid((read_only(X), y, norms2), (X @ Xt.T, yt), grid, np.array([10]), out, upd, True)
    >>> out[0, 0].tolist()           # last, longest, voted, averaged: both test rows right
    [2, 2, 2, 2]
    """
    X, y, norms2 = train
    G, y_test = test
    eta, C, theta_init, margins, lams, alphas = grid
    m = X.shape[0]
    T = G.shape[1]
    n_epochs = checkpoints[-1]
    W = np.zeros((1, X.shape[1]))
    row = np.int64(ROW)  # typed, not 0: see perceptron_core._jit
    counts = np.zeros(m, dtype=np.int64)
    d = np.zeros(T)
    V = np.zeros(T)
    A = np.zeros(T)
    Ld = np.zeros(T)
    state = np.zeros((1, kw.SURVIVAL_COLUMNS), dtype=np.int64)  # the survival table
    for s in range(margins.shape[0]):
        t_margin = margins[s]
        lam = lams[s]
        alpha = alphas[s]
        W[:] = 0.0
        counts[:] = 0
        d[:] = 0.0
        V[:] = 0.0
        A[:] = 0.0
        Ld[:] = 0.0
        state[:] = 0  # hypothesis 0 (w = 0) is the longest until beaten
        theta = theta_init
        theta_ls = theta_init
        # typed starting values, not 0: see perceptron_core._jit
        k = np.int64(0)  # index of the current hypothesis = updates so far
        next_cp = np.int64(0)
        for e in range(n_epochs):
            vote_at_start = state[ROW, CURRENT_VOTES]
            updates = 0
            for p in range(m):
                yp = y[p]
                a = counts[p]
                kind, _, _ = kw.decide(
                    row_dot(W, row, X, p), yp, a, theta, t_margin, lam, norms2, p, alpha
                )
                if kind == MISTAKE or kind == MARGIN:
                    if state[ROW, LONGEST_K] == k:  # the longest survivor is closing
                        copy_into(Ld, d)
                        theta_ls = theta
                    step_w = eta * yp
                    vote = state[ROW, CURRENT_VOTES]
                    # Hypothesis k closes with its final vote, then the update
                    # moves every test score. One pass does both, written out
                    # here: a called function was not inlined and paid the
                    # aliasing checks at each call.
                    if k >= 1 and vote > 0:
                        c = np.float64(vote)
                        for t in range(T):
                            diff = d[t] - theta
                            V[t] += c * (1.0 if diff > 0.0 else (-1.0 if diff < 0.0 else 0.0))
                            A[t] += c * diff
                            d[t] += step_w * G[p, t]
                    else:
                        for t in range(T):
                            d[t] += step_w * G[p, t]
                    for i in range(X.shape[1]):
                        W[0, i] += step_w * X[p, i]
                    theta -= step_w * C  # minus: the classifier is sign(<w,x> - theta)
                    counts[p] = a + 1
                    k += 1
                    kw.start_hypothesis(state, row)
                    updates += 1
                elif kind != BLOCKED:
                    kw.survive(state, row, k, np.int64(1))
            epochs_done = e + 1
            test_side = (d, V, A, Ld, y_test)
            if updates == 0 and shortcut:
                gain = state[ROW, CURRENT_VOTES] - vote_at_start
                hypotheses = (theta, k, theta_ls)
                _finish_frozen(
                    epochs_done, gain, checkpoints, next_cp, test_side, hypotheses, state, out[s]
                )
                next_cp = checkpoints.shape[0]
                break
            if epochs_done == checkpoints[next_cp]:
                _record(test_side, (theta, k, theta_ls), state, out[s, next_cp])
                next_cp += 1
        n_updates[s] = k
