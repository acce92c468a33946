"""The one compiled on-line loop behind every Khardon–Wachman variant.

:func:`run_epochs` implements SPEC §1 for ``K`` one-vs-rest binary problems at
once: each example is read from memory once per visit and scored against all
``K`` weight vectors, so multi-class training costs one pass over the data per
epoch. Everything a variant needs is a switch (``t_margin``, ``lam``,
``alpha_bound``); the loop never allocates per example.

What one run records, per binary problem ``c`` (enough for the last,
longest-survivor, voted and averaged predictions without retraining):

* ``upd_rows[c, i]``: the training row of update ``i`` (its label is known), so
  hypothesis ``k`` is ``w_k = eta * sum_{i<k} y_i x_{rows[i]}`` and
  ``theta_k = theta_init - eta * C * sum_{i<k} y_i``;
* ``votes[c, k]``: the number of correct predictions hypothesis ``k`` made;
* ``state[c]``: the current survival tally, the best tally so far and the
  number ``k`` of the longest-surviving hypothesis.

With ``record_updates`` each update also stores its visit step, event code and
score (for the app's trace); with ``record_visits`` every visit stores its
event code and score.

The dot product (:func:`row_dot`) keeps eight partial sums in a fixed order. numba leaves
LLVM's SLP vectoriser off, so a single running sum is a serial chain of
dependent additions (about 2.4 × the cost of a BLAS ``X @ w`` pass here);
eight independent lanes let the CPU overlap them (about 1.3 ×), and the fixed
lane order keeps every result identical from run to run.
"""

from __future__ import annotations

import numpy as np

from perceptron_core._jit import jit
from perceptron_core.trace import BLOCKED, CORRECT, MARGIN, MISTAKE, RESCUED

#: ``alpha_bound=None`` (no bound) is passed to the kernel as this count.
NO_BOUND = np.iinfo(np.int64).max


@jit
def row_dot(A, a, B, b):
    """``<A[a], B[b]>`` in float64, with eight fixed-order partial sums.

    Rows are indexed in place rather than sliced: a slice is an array object
    whose reference count numba must update atomically, which costs as much
    as a short dot product when done once per example.

    Examples
    --------
    >>> import numpy as np
    >>> float(row_dot(np.arange(10.0)[None, :], 0, np.ones((2, 10), dtype=np.int8), 1))
    45.0
    """
    n = B.shape[1]
    head = n - n % 8
    a0 = a1 = a2 = a3 = a4 = a5 = a6 = a7 = 0.0
    for i in range(0, head, 8):
        a0 += A[a, i] * B[b, i]
        a1 += A[a, i + 1] * B[b, i + 1]
        a2 += A[a, i + 2] * B[b, i + 2]
        a3 += A[a, i + 3] * B[b, i + 3]
        a4 += A[a, i + 4] * B[b, i + 4]
        a5 += A[a, i + 5] * B[b, i + 5]
        a6 += A[a, i + 6] * B[b, i + 6]
        a7 += A[a, i + 7] * B[b, i + 7]
    tail = 0.0
    for i in range(head, n):
        tail += A[a, i] * B[b, i]
    return (((a0 + a4) + (a2 + a6)) + ((a1 + a5) + (a3 + a7))) + tail


@jit
def squared_norms(X):
    """``||x_j||^2`` of every row, in float64 (no float64 copy of ``X``)."""
    out = np.empty(X.shape[0])
    for j in range(X.shape[0]):
        total = 0.0
        for f in range(X.shape[1]):
            v = np.float64(X[j, f])
            total += v * v
        out[j] = total
    return out


@jit
def _predict_margin(s, theta, t):
    """SPEC §1 step 2: -1 below the band, +1 above it, 0 inside it."""
    if s < theta - t:
        return -1.0
    if s > theta + t:
        return 1.0
    return 0.0


@jit
def _grown(a, capacity):
    """A copy of the 2-D record ``a`` with room for ``capacity`` columns."""
    out = np.zeros((a.shape[0], capacity), dtype=a.dtype)
    out[:, : a.shape[1]] = a
    return out


@jit
def run_epochs(
    X, Y, order, n_epochs, eta, C, t_margin, lam, alpha_bound, norms2,
    W, theta, counts, state, n_upd, votes, upd_rows, upd_step, upd_kind, upd_score,
    record_updates, visit_kind, visit_score, epoch_updates, first_step,
):  # fmt: skip
    """Run ``n_epochs`` epochs of SPEC §1 over ``X`` in the given ``order``.

    Parameters
    ----------
    X : (m, n) array, float64/float32/int8/uint8
    Y : (K, m) float64 array of ±1 targets, one row per binary problem
    order : (m,) int64 visiting order
    n_epochs : int
    eta, C, t_margin, lam : float
        Learning rate, threshold step, absolute margin ``tau * theta_init``,
        λ-trick strength.
    alpha_bound : int
        Maximum number of updates per example and problem.
    norms2 : (m,) float64 squared norms (read only when ``lam > 0``)
    W, theta, counts, state, n_upd : arrays, updated in place
        Weights (K, n), thresholds (K,), per-example update counts (K, m),
        ``[tally, best_tally, longest_k]`` (K, 3), updates so far (K,).
    votes, upd_rows, upd_step, upd_kind, upd_score : 2-D records
        Grown when full; the possibly new arrays are returned.
    record_updates : bool
        Fill ``upd_step``, ``upd_kind`` and ``upd_score``.
    visit_kind, visit_score : (K, n_epochs * m) or (K, 0) arrays
        Per-visit record (empty to skip).
    epoch_updates : (n_epochs, K) int64, updates made in each epoch
    first_step : int
        Global number of this call's first visit (continues across calls).

    Returns
    -------
    votes, upd_rows, upd_step, upd_kind, upd_score
    """
    m = X.shape[0]
    K = Y.shape[0]
    record_visits = visit_kind.shape[1] > 0
    use_lam = lam > 0.0
    step = first_step
    for e in range(n_epochs):
        for p in range(m):
            j = order[p]
            for c in range(K):
                y = Y[c, j]
                a = counts[c, j]
                s = row_dot(W, c, X, j)
                raw = s
                if use_lam and a > 0:
                    s += y * lam * norms2[j]  # λ-trick: a push towards the own label
                yhat = _predict_margin(s, theta[c], t_margin)
                k = n_upd[c]
                if yhat != y:
                    if a < alpha_bound:
                        kind = MISTAKE if yhat == -y else MARGIN
                        step_w = eta * y
                        for i in range(X.shape[1]):
                            W[c, i] += step_w * X[j, i]
                        # minus: the classifier is sign(<w,x> - theta) (see SPEC §1)
                        theta[c] -= step_w * C
                        counts[c, j] = a + 1
                        if k == upd_rows.shape[1]:
                            capacity = 2 * k + 16
                            upd_rows = _grown(upd_rows, capacity)
                            votes = _grown(votes, capacity + 1)
                            if record_updates:
                                upd_step = _grown(upd_step, capacity)
                                upd_kind = _grown(upd_kind, capacity)
                                upd_score = _grown(upd_score, capacity)
                        upd_rows[c, k] = j
                        if record_updates:
                            upd_step[c, k] = step
                            upd_kind[c, k] = kind
                            upd_score[c, k] = s
                        n_upd[c] = k + 1
                        state[c, 0] = 0
                        epoch_updates[e, c] += 1
                    else:
                        kind = BLOCKED
                else:
                    votes[c, k] += 1
                    state[c, 0] += 1
                    if state[c, 0] > state[c, 1]:
                        state[c, 1] = state[c, 0]
                        state[c, 2] = k
                    kind = CORRECT
                    if use_lam and a > 0 and _predict_margin(raw, theta[c], t_margin) != y:
                        kind = RESCUED
                if record_visits:
                    visit_kind[c, step - first_step] = kind
                    visit_score[c, step - first_step] = s
            step += 1
    return votes, upd_rows, upd_step, upd_kind, upd_score


@jit
def weighted_row_sum(X, rows, weights, out):
    """``out += sum_i weights[i] * X[rows[i]]`` without a float64 copy of ``X``."""
    for i in range(rows.shape[0]):
        wt = weights[i]
        if wt != 0.0:
            r = rows[i]
            for f in range(X.shape[1]):
                out[f] += wt * X[r, f]


@jit
def voted_scores(G, positions, signs, votes, eta, C, theta_init, fallback, out):
    """Voted raw scores ``sum_{k>=1} c_k sign(<w_k,x> - theta_k)`` for a test chunk.

    ``G[r, s] = <x_r, support_s>`` (one matrix product); ``positions[i]`` is
    the support row of update ``i`` and ``signs[i]`` its label. The scores of
    all hypotheses follow by a running sum along the update sequence
    (Freund & Schapire), so no weight vector is ever formed. A hypothesis
    whose score is exactly 0 adds nothing. Rows where no hypothesis from 1 on
    has a vote take ``fallback[r]`` (the last hypothesis's score).
    """
    total_votes = 0
    for k in range(1, votes.shape[0]):
        total_votes += votes[k]
    for r in range(G.shape[0]):
        if total_votes == 0:
            out[r] = fallback[r]
            continue
        s = 0.0
        th = theta_init
        acc = 0.0
        for i in range(positions.shape[0]):
            step = eta * signs[i]
            s += step * G[r, positions[i]]
            th -= step * C
            v = votes[i + 1]
            if v != 0:
                d = s - th
                if d > 0.0:
                    acc += v
                elif d < 0.0:
                    acc -= v
        out[r] = acc
