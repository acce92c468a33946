"""The one compiled on-line loop behind every Khardon–Wachman variant.

:func:`run_epochs` implements docs/algorithms.md §1 for ``K`` one-vs-rest binary problems at
once: each example is read from memory once per visit and scored against all
``K`` weight vectors, so multi-class training costs one pass over the data per
epoch. Everything a variant needs is a switch (``t_margin``, ``lam``,
``alpha_bound``); the loop never allocates per example.

What one run keeps, per binary problem ``c``, in O(features + examples) memory
whatever the number of updates (:class:`Model` and :class:`Record` name them):

* ``state[c]``: the survival table's row (:data:`perceptron_core.steps.kw.TALLY`
  and the columns after it), counted by :func:`perceptron_core.steps.kw.survive`
  and :func:`~perceptron_core.steps.kw.start_hypothesis`;
* the longest-survivor snapshot (primal loop): the weights and threshold of
  hypothesis ``state[c, LONGEST_K]``, copied just before the update that ends it
  (:func:`keep_longest`);
* with the vote clock on (the averaged hypothesis), ``clock[c, j]``: the sum,
  over the updates example ``j`` made, of the votes hypotheses 1 on had when
  it made them. Update ``i`` is part of every later hypothesis, so the
  averaged hypothesis weights it by ``T - clock`` (``T``: all votes), one
  integer per example, exact.

The update list, only when a fit keeps it (the voted prediction, the
replay): ``upd_rows[c, i]``, the training row of update ``i`` (its label is
known), so hypothesis ``k`` is ``w_k = eta * sum_{i<k} y_i x_{rows[i]}`` and
``theta_k = theta_init - eta * C * sum_{i<k} y_i``, and ``votes[c, k]``, the
number of correct predictions hypothesis ``k`` made. With ``full`` each
update also stores its visit step, event code and score (for the app's
trace); with the per-visit record every visit stores its event code and
score.

The dot product (:func:`row_dot`) is the only code compiled with a
floating-point licence: ``reassoc``, which lets LLVM split the sum over
several vector registers. numba leaves LLVM's SLP vectoriser off, so without
it a sum is a serial chain of dependent additions (about 2.4 × the cost of a
single-threaded BLAS ``X @ w`` pass on 100,000 x 500 float64; eight scalar
partial sums reach about 1.3 ×); with it the dot product runs at 0.9 × that
pass for float64, 0.55 × for float32 and 0.25 × for int8 data. The
reduction order is fixed when the function is compiled for the machine's CPU,
so a machine gives identical results on every run; another CPU (other vector
width) may differ in the last bits of a score.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from perceptron_core._jit import jit, jit_visit, plain_stand_in
from perceptron_core.steps import kw
from perceptron_core.steps.kw import CURRENT_VOTES, LONGEST_K, SNAPSHOT_K, TOTAL_VOTES
from perceptron_core.trace import BLOCKED, MARGIN, MISTAKE
from perceptron_core.vectors import copy_into, row_dot

#: ``alpha_bound=None`` (no bound) is passed to the kernel as this count.
NO_BOUND = np.iinfo(np.int64).max


@jit
def _grown(a, capacity):
    """A copy of the 2-D record ``a`` with room for ``capacity`` columns."""
    out = np.zeros((a.shape[0], capacity), dtype=a.dtype)
    copy_into(out, a)
    return out


class Settings(NamedTuple):
    """The switches of docs/algorithms.md §1.1 as the compiled decision reads them."""

    #: The learning rate.
    eta: float
    #: The threshold's step.
    C: float
    #: ``t``, the margin band's half-width in score units
    #: (:func:`perceptron_core.steps.kw.absolute_margin`).
    margin: float
    #: The λ-trick's strength.
    lam: float
    #: The most updates per example and problem (:data:`NO_BOUND`: none).
    alpha_bound: int


class Model(NamedTuple):
    """The learner's state, which a compiled run updates in place (K binary problems, m rows)."""

    #: (K, n) weights; in the dual loop the (K, m) running scores ``S`` instead.
    W: np.ndarray
    #: (K,) thresholds.
    theta: np.ndarray
    #: (K, m) updates each example has caused (``a_j``).
    counts: np.ndarray
    #: (K, :data:`perceptron_core.steps.kw.SURVIVAL_COLUMNS`) int64 survival table.
    state: np.ndarray
    #: (K,) updates so far: the number of the current hypothesis.
    n_upd: np.ndarray


class Record(NamedTuple):
    """What a compiled run records for the predictors and the replay.

    The update list's arrays grow between segments (:func:`grown_records`), so a run
    returns the record it ends with. A run that keeps no update list passes
    ``votes`` of shape ``(K, 0)``; one without the per-visit record passes
    ``visit_kind`` of shape ``(K, 0)`` and ``visit_score`` of shape ``(K, 0, 2)``.
    """

    #: (K, updates + 1) int64: the votes of each hypothesis.
    votes: np.ndarray
    #: (K, updates) int64: the training row of each update.
    upd_rows: np.ndarray
    #: (K, updates) int64, int8, float64: each update's visit step, event and score
    #: (filled when ``full``).
    upd_step: np.ndarray
    upd_kind: np.ndarray
    upd_score: np.ndarray
    #: (K, visits) int8 and (K, visits, 2) float64: every visit's event, and its score
    #: with the λ-trick's term in it.
    visit_kind: np.ndarray
    visit_score: np.ndarray
    #: (K, epochs) int64: updates per epoch, grown to the epochs run (:func:`with_epoch_room`).
    per_epoch: np.ndarray
    #: Whether the update list also keeps ``upd_step``, ``upd_kind`` and ``upd_score``.
    full: bool
    #: (K, m) int64 vote clock (the averaged hypothesis), or (K, 0) to skip.
    clock: np.ndarray
    #: (K, n) and (K,): the longest survivor's snapshot (the primal loop's).
    W_best: np.ndarray
    theta_best: np.ndarray


@jit
def _regrown(log, votes, upd_rows, upd_step, upd_kind, upd_score, per_epoch):
    """``log`` with the arrays that grow replaced (numba's NamedTuples have no ``_replace``)."""
    return Record(
        votes,
        upd_rows,
        upd_step,
        upd_kind,
        upd_score,
        log.visit_kind,
        log.visit_score,
        per_epoch,
        log.full,
        log.clock,
        log.W_best,
        log.theta_best,
    )


@jit
def keeps_list(log):
    """Whether this run keeps the update list (``votes`` has a column per hypothesis)."""
    return log.votes.shape[1] > 0


@jit
def grown_records(needed, log):
    """The record ``log``, grown (doubling) if it has room for fewer than ``needed`` updates.

    Called between the segments of an epoch only (:func:`run_epochs`):
    growing inside :func:`_epoch`'s loop would make LLVM reload every
    array's address after each update. A run without the update list has
    nothing to grow.
    """
    votes, upd_rows, upd_step, upd_kind, upd_score = (
        log.votes,
        log.upd_rows,
        log.upd_step,
        log.upd_kind,
        log.upd_score,
    )
    if keeps_list(log) and needed > upd_rows.shape[1]:
        capacity = max(needed, 2 * upd_rows.shape[1])
        upd_rows = _grown(upd_rows, capacity)
        votes = _grown(votes, capacity + 1)
        if log.full:
            upd_step = _grown(upd_step, capacity)
            upd_kind = _grown(upd_kind, capacity)
            upd_score = _grown(upd_score, capacity)
    return _regrown(log, votes, upd_rows, upd_step, upd_kind, upd_score, log.per_epoch)


@jit
def with_epoch_room(log, e):
    """The record with a column for the updates of epoch ``e`` (doubling when full).

    Growing as the epochs run, not ``epochs`` columns at the start: a fit with
    ``epochs=10**8`` that converges in five allocates for five.
    """
    per_epoch = log.per_epoch
    if e >= per_epoch.shape[1]:
        per_epoch = _grown(per_epoch, max(e + 1, 2 * per_epoch.shape[1]))
    return _regrown(
        log, log.votes, log.upd_rows, log.upd_step, log.upd_kind, log.upd_score, per_epoch
    )


@jit_visit
def note_update(c, j, a, kind, s, step, e, model, log):
    """Step 3's bookkeeping (docs/algorithms.md §1.2): ``j`` made problem ``c``'s next update.

    Hypothesis ``k + 1`` starts with no vote and the survival tally restarts
    (:func:`perceptron_core.steps.kw.start_hypothesis`); the caller has already
    moved the weights (or the running scores of the dual form) and the threshold.
    """
    counts, state, n_upd = model.counts, model.state, model.n_upd
    k = n_upd[c]
    counts[c, j] = a + 1
    if keeps_list(log):
        log.upd_rows[c, k] = j
        if log.full:
            log.upd_step[c, k] = step
            log.upd_kind[c, k] = kind
            log.upd_score[c, k] = s
    if log.clock.shape[1] > 0:
        log.clock[c, j] += state[c, TOTAL_VOTES]
    n_upd[c] = k + 1
    kw.start_hypothesis(state, c)
    log.per_epoch[c, e] += 1


@jit_visit
def note_correct(c, k, n, votes, state):
    """Step 4 of docs/algorithms.md §1.2: hypothesis ``k`` of problem ``c`` earns ``n`` votes
    (:func:`perceptron_core.steps.kw.survive`), kept per hypothesis in the update list.

    ``votes`` has no column when the run keeps no update list; the totals in
    ``state`` are kept either way.
    """
    if votes.shape[1] > 0:
        votes[c, k] += n
    kw.survive(state, c, k, n)


@jit_visit
def keep_longest(c, W, theta, state, n_upd, log):
    """Before problem ``c``'s next update: snapshot the current hypothesis if it is the
    longest survivor so far and not already in the snapshot (at most one copy of ``w``
    per update, none per vote)."""
    k = n_upd[c]
    if state[c, LONGEST_K] == k and state[c, SNAPSHOT_K] != k:
        for f in range(W.shape[1]):
            log.W_best[c, f] = W[c, f]
        log.theta_best[c] = theta[c]
        state[c, SNAPSHOT_K] = k


@jit_visit
def note_visit(visit_kind, visit_score, c, at, kind, s, push):
    """Record one visit's event, its score and the λ-trick's term in that score (when the
    per-visit record is on)."""
    if visit_kind.shape[1] > 0:
        visit_kind[c, at] = kind
        visit_score[c, at, 0] = s
        visit_score[c, at, 1] = push


@intrinsic
def _prefetch(typingctx, X, r, f):
    """Ask the CPU to start loading the cache line of ``X[r, f]`` (LLVM's prefetch)."""

    def codegen(context, builder, signature, args):
        array_type = signature.args[0]
        array = context.make_array(array_type)(context, builder, args[0])
        address = cgutils.get_item_pointer(
            context, builder, array_type, array, [args[1], args[2]], wraparound=False
        )
        byte_pointer = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        function = builder.module.declare_intrinsic(
            "llvm.prefetch",
            [byte_pointer],
            ir.FunctionType(ir.VoidType(), [byte_pointer, i32, i32, i32]),
        )
        # read access, keep in all cache levels, data (not instruction) cache
        builder.call(
            function,
            [
                builder.bitcast(address, byte_pointer),
                ir.Constant(i32, 0),
                ir.Constant(i32, 3),
                ir.Constant(i32, 1),
            ],
        )
        return context.get_dummy_value()

    return types.void(X, r, f), codegen


@plain_stand_in(_prefetch)
def _no_prefetch(X, r, f):
    """Uncompiled, nothing is prefetched: prefetching changes only the speed."""


@jit
def prefetch_row(X, r):
    """Start loading every cache line of row ``r`` of ``X`` (C-contiguous rows)."""
    step = max(1, 64 // X.itemsize)
    for f in range(0, X.shape[1], step):
        _prefetch(X, r, f)


#: Rows prefetched ahead when the visiting order jumps around memory: enough
#: loads in flight to hide part of the latency of random rows (docs/benchmarks.md
#: has the epoch times with and without it), few enough
#: that the rows are still in cache when their turn comes. Rows of several
#: KiB (float64 images) gain little: each is a page of its own.
PREFETCH_BYTES = 16 * 1024


def prefetch_distance(X, order) -> int:
    """How many rows ahead :func:`run_epochs` prefetches (0: the rows are read in order)."""
    if len(order) < 2:
        return 0  # hardware prefetchers already follow a sequential scan
    return int(min(32, max(2, PREFETCH_BYTES // max(1, X.shape[1] * X.itemsize))))


@jit
def _epoch(X, Y, order, norms2, settings, model, log, e, span):
    """docs/algorithms.md §1 over the visits ``order[p0:p1]`` of epoch ``e``, ``span =
    (step, visit0, ahead, p0, p1)``; the record has room for ``p1 - p0`` more updates (a
    visit makes at most one per problem).

    No array is reallocated here, so LLVM keeps every array's address in a
    register for the whole segment (growing the records inside this loop cost
    about a third of an ``X @ w`` pass per epoch). With ``ahead > 0`` the row
    visited ``ahead`` steps later is prefetched, which hides part of the cost
    of reading ``X`` in place in a shuffled order (see :data:`PREFETCH_BYTES`).
    """
    eta, C, t_margin, lam = settings.eta, settings.C, settings.margin, settings.lam
    alpha_bound = settings.alpha_bound
    W, theta, counts, state, n_upd = model
    votes, visit_kind, visit_score = log.votes, log.visit_kind, log.visit_score
    step, visit0, ahead, p0, p1 = span
    m = X.shape[0]
    K = Y.shape[0]
    for p in range(p0, p1):
        j = order[p] if order.shape[0] > 0 else p
        if ahead > 0 and p + ahead < m:
            later = order[p + ahead]
            prefetch_row(X, later)
            for c in range(K):  # the label and update count are random reads too
                _prefetch(Y, c, later)
                _prefetch(counts, c, later)
        for c in range(K):
            y = Y[c, j]
            a = counts[c, j]
            kind, s, push = kw.decide(
                row_dot(W, c, X, j), y, a, theta[c], t_margin, lam, norms2, j, alpha_bound
            )
            if kind == MISTAKE or kind == MARGIN:
                keep_longest(c, W, theta, state, n_upd, log)
                kw.update(W, c, X, j, theta, eta, C, y)
                note_update(c, j, a, kind, s, step, e, model, log)
            elif kind != BLOCKED:
                note_correct(c, n_upd[c], np.int64(1), votes, state)
            note_visit(visit_kind, visit_score, c, step - visit0, kind, s, push)
        step += 1


#: The fewest visits :func:`run_epochs` hands to :func:`_epoch` at once (unless
#: the epoch has fewer left): the records grow to make room for at least as
#: many updates, so a segment's call overhead is spread over thousands of visits.
MIN_SEGMENT = 4096


@jit
def run_epochs(X, Y, order, norms2, settings, model, log, n_epochs, first_step, ahead):
    """Run ``n_epochs`` epochs of docs/algorithms.md §1 over ``X`` in the given ``order``.

    Parameters
    ----------
    X : (m, n) array, float64/float32/int8/uint8
        C-contiguous; a ``numpy.memmap`` is read in place.
    Y : (K, m) float64 array of ±1 targets, one row per binary problem
    order : (m,) int64 visiting order, or empty: the rows in order
    norms2 : (m,) float64 squared norms (read only when ``lam > 0``)
    settings : Settings
        The switches.
    model : Model
        The learner's state, updated in place.
    log : Record
        The record to fill (its update list and per-epoch counts grow, so the
        possibly new arrays are returned).
    n_epochs, first_step : int
        Epochs to run; the global number of this call's first visit.
    ahead : int
        Prefetch distance in rows (:func:`prefetch_distance`; 0 turns it off).
        It changes only the speed, never a result.

    Returns
    -------
    Record
        ``log``, with the grown arrays.
    """
    m = X.shape[0]
    K = Y.shape[0]
    state, n_upd = model.state, model.n_upd
    step = first_step
    votes_before = np.empty(K, dtype=np.int64)
    for e in range(n_epochs):
        log = with_epoch_room(log, e)
        for c in range(K):
            votes_before[c] = state[c, CURRENT_VOTES]
        # The epoch runs in segments of as many visits as the records have
        # room for updates (one visit makes at most one update per problem),
        # growing them in between: they stay about twice the updates made,
        # not the m per problem an epoch could make.
        p = np.int64(0)  # typed, not 0: see perceptron_core._jit
        while p < m:
            q = m  # without the update list, the whole epoch at once
            if keeps_list(log):
                want = min(m - p, MIN_SEGMENT)
                if log.upd_rows.shape[1] - n_upd.max() < want:
                    log = grown_records(n_upd.max() + want, log)
                q = min(m, p + log.upd_rows.shape[1] - n_upd.max())
            _epoch(X, Y, order, norms2, settings, model, log, e, (step, first_step, ahead, p, q))
            step += q - p
            p = q
        if log.per_epoch[:, e].sum() == 0 and log.visit_kind.shape[1] == 0:
            # An epoch without updates is repeated by every later one (blocked
            # errors neither vote nor reset the tally): its correct predictions
            # are added at once (the closed form of perceptron_core.steps.kw.survive).
            rest = n_epochs - e - 1
            for c in range(K):
                gained = rest * (state[c, CURRENT_VOTES] - votes_before[c])
                note_correct(c, n_upd[c], gained, log.votes, state)
            break
    return log


@jit
def weighted_row_sum(X, rows, weights, out):
    """``out += sum_i weights[i] * X[rows[i]]`` without a float64 copy of ``X``."""
    for i in range(rows.shape[0]):
        wt = weights[i]
        if wt != 0.0:
            r = rows[i]
            for f in range(X.shape[1]):
                out[f] += wt * X[r, f]


@jit_visit
def add_votes(s, theta, vote, out, start, stop):
    """``out[r] += vote * sign(s[r] - theta)`` for rows ``start`` to ``stop``: one
    hypothesis's vote on each row (a score of exactly 0 adds nothing)."""
    for r in range(start, stop):
        out[r] += vote * np.sign(s[r] - theta)  # not (d > 0) - (d < 0): NumPy's bools refuse it


@jit
def voted_scores(GT, positions, steps, thetas, votes, out):
    """Voted raw scores ``sum_{k>=1} c_k sign(<w_k,x> - theta_k)`` for a test chunk.

    ``GT[s, r] = <support_s, x_r>`` (one matrix product); update ``i`` added
    ``steps[i] * support[positions[i]]`` to ``w`` and produced hypothesis
    ``i + 1`` with threshold ``thetas[i]`` and vote ``votes[i + 1]``. The
    scores of all hypotheses follow by a running sum along the update
    sequence (Freund & Schapire), so no weight vector is ever formed; the
    inner loops run over the test rows, which LLVM vectorises.
    """
    R = GT.shape[1]
    s = np.zeros(R)
    out[:] = 0.0
    for i in range(positions.shape[0]):
        p = positions[i]
        step = steps[i]
        for r in range(R):
            s[r] += step * GT[p, r]
        v = votes[i + 1]
        if v != 0:
            add_votes(s, thetas[i], v, out, np.int64(0), R)


#: Rows whose running scores the in-order walk keeps at once (in the core's first-level cache).
WALK_ROWS = 256


@jit
def voted_scores_in_order(U, XT, steps, thetas, votes, s, out, start, stop):
    """:func:`voted_scores` for rows ``start`` to ``stop`` of ``XT`` (features x rows),
    reading the update sequence in order: ``U[i]`` is update ``i``'s example, and each
    product ``<U[i], x_r>`` is computed where it is used, as float64 terms added in feature
    order. Continues ``s`` (the rows' scores so far) and ``out`` (their votes so far).

    For few features this is cheaper than reading a product matrix of every support row and
    test row at the updates' positions, which for many support rows lies in main memory:
    every update then reads a row of it from somewhere else (``benchmarks/bench_voted.py``).
    :data:`WALK_ROWS` rows at a time are copied into arrays of this function's own, so LLVM
    knows they overlap nothing and vectorises the loops over them (on the arguments
    themselves, which might overlap, it did not).
    """
    F = XT.shape[0]
    x = np.empty((F, WALK_ROWS))
    dot = np.empty(WALK_ROWS)
    scores = np.empty(WALK_ROWS)
    total = np.empty(WALK_ROWS)
    for r0 in range(start, stop, WALK_ROWS):
        width = min(WALK_ROWS, stop - r0)
        for r in range(width):
            scores[r] = s[r0 + r]
            total[r] = out[r0 + r]
        for f in range(F):
            for r in range(width):
                x[f, r] = XT[f, r0 + r]
        for i in range(U.shape[0]):
            for r in range(width):
                dot[r] = 0.0
            for f in range(F):
                u = U[i, f]
                for r in range(width):
                    dot[r] += u * x[f, r]
            step = steps[i]
            for r in range(width):
                scores[r] += step * dot[r]
            v = votes[i + 1]
            if v != 0:
                add_votes(scores, thetas[i], v, total, np.int64(0), width)
        for r in range(width):
            s[r0 + r] = scores[r]
            out[r0 + r] = total[r]
