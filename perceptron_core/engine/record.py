"""The record of one fit, and the four predictions it yields.

A run of the on-line loop stores, per binary problem, the sequence of updated
examples and the vote of every hypothesis (see :mod:`perceptron_core.engine.kw_trainer`).
:class:`HypothesisRecord` keeps that sequence as positions in a shared
:class:`SupportStore` (the distinct example vectors that caused an update), and
derives from it the **voted** scores, by one matrix product per test chunk and
a running sum along the update sequence
(:func:`perceptron_core.engine.kw_trainer.voted_scores`); the dual form reads
its hypotheses from it too (:mod:`perceptron_core.engine.dual_record`).

Nothing here retrains; switching prediction mode only reads the record.
:class:`RunningAverage` keeps the averaged hypothesis without the update
sequence (the linear estimators take their averaged hypothesis from it, and
their longest survivor from a snapshot the trainer keeps, whether or not the
list is kept).
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from perceptron_core._jit import compiled_or_plain, jit, read_only
from perceptron_core.engine.kw_trainer import (
    voted_scores,
    voted_scores_in_order,
    weighted_row_sum,
)
from perceptron_core.steps import kw
from perceptron_core.vectors import squared_norms

#: Budget for one chunk of the voted product ``X_chunk @ support.T`` (bytes).
DEFAULT_CHUNK_BYTES = 64 * 2**20


@jit
def _row_hashes(B):
    """FNV-1a hash of each row of an unsigned-integer view of the rows' bytes."""
    out = np.empty(B.shape[0], dtype=np.uint64)
    prime = np.uint64(1099511628211)
    for i in range(B.shape[0]):
        h = np.uint64(14695981039346656037)
        for b in range(B.shape[1]):
            h = (h ^ np.uint64(B[i, b])) * prime
        out[i] = h
    return out


def _hashes(rows: np.ndarray) -> np.ndarray:
    """Hashes of the rows' bytes, read eight bytes at a time when they allow it."""
    words = rows.view(np.uint8).reshape(len(rows), -1)
    if words.shape[1] % 8 == 0:
        words = words.view(np.uint64)
    return compiled_or_plain(_row_hashes)(words)


class SupportStore:
    """The distinct example vectors that updates used, by content.

    Rows are identified by their bytes, so the same example seen again in a
    later ``partial_fit`` call reuses its stored copy instead of adding a
    duplicate. Vectors keep their storage type (int8 data stays int8).

    Examples
    --------
    >>> import numpy as np
    >>> store = SupportStore(2)
    >>> X = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    >>> store.add(X, np.array([1, 0, 1]))
    array([1, 0, 1])
    >>> store.add(X[::-1].copy(), np.array([0, 1, 2]))   # seen rows are found again
    array([2, 1, 0])
    >>> len(store)
    3
    """

    def __init__(self, n_features: int, dtype=np.float64):
        self.vectors = np.empty((0, n_features), dtype=dtype)
        # Hashes are needed only when a second call adds rows; a plain fit
        # (one call, rows already distinct by index) never computes them.
        self._sorted_hashes: np.ndarray | None = None
        self._sorted_positions: np.ndarray | None = None

    def _index(self) -> tuple[np.ndarray, np.ndarray]:
        """The stored vectors' hashes, sorted, and their positions (hashed once) so that
        later rows can be matched."""
        if self._sorted_hashes is None or self._sorted_positions is None:
            hashes = _hashes(self.vectors)
            self._sorted_positions = np.argsort(hashes, kind="stable")
            self._sorted_hashes = hashes[self._sorted_positions]
        return self._sorted_hashes, self._sorted_positions

    def __len__(self) -> int:
        return len(self.vectors)

    def add(self, X: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """Store ``X[rows]`` (deduplicated) and return each row's position."""
        if len(rows) == 0:
            return np.empty(0, dtype=np.int64)
        unique_rows, inverse = np.unique(rows, return_inverse=True)
        candidates = np.ascontiguousarray(X[unique_rows])
        dtype = np.result_type(self.vectors.dtype, candidates.dtype)
        if dtype != self.vectors.dtype:
            self.vectors = self.vectors.astype(dtype)
        candidates = candidates.astype(dtype, copy=False)
        if len(self.vectors) == 0:  # a first call: rows are distinct by index already
            self.vectors = candidates
            return inverse.astype(np.int64)

        sorted_hashes, sorted_positions = self._index()
        hashes = _hashes(candidates)
        # Identical rows within this batch share one entry.
        _, first, group = np.unique(hashes, return_index=True, return_inverse=True)
        if not np.array_equal(candidates, candidates[first[group]]):  # a hash collision
            first, group = np.arange(len(candidates)), np.arange(len(candidates))
        positions = np.empty(len(first), dtype=np.int64)

        # Rows stored by an earlier call keep their position.
        at = np.searchsorted(sorted_hashes, hashes[first])
        at = np.minimum(at, len(sorted_hashes) - 1)
        old = sorted_positions[at]
        found = (sorted_hashes[at] == hashes[first]) & (
            self.vectors[old] == candidates[first]
        ).all(axis=1)
        positions[found] = old[found]
        new = np.flatnonzero(~found)
        positions[new] = len(self.vectors) + np.arange(len(new))
        self.vectors = np.concatenate([self.vectors, candidates[first[new]]])
        all_hashes = np.concatenate([sorted_hashes, hashes[first[new]]])
        all_positions = np.concatenate([sorted_positions, positions[new]])
        order = np.argsort(all_hashes, kind="stable")
        self._sorted_hashes, self._sorted_positions = all_hashes[order], all_positions[order]
        return positions[group][inverse]

    def as_float64(self) -> np.ndarray:
        return self.vectors.astype(np.float64, copy=False)


class RunningAverage:
    r"""The averaged hypotheses of ``K`` problems, kept in O(features) memory, no update list.

    The averaged hypothesis is :math:`\sum_{k\ge1} c_k w_k / T` with ``T`` the
    votes of hypotheses 1 on. Update ``i`` (on example ``x_i``, label ``y_i``)
    is part of every hypothesis after it, so it counts with the votes those
    got, ``T - V_i``, where ``V_i`` is the vote total when it was made:
    :math:`\sum_k c_k w_k = \eta \sum_i y_i (T - V_i) x_i`. The trainer adds
    ``V_i`` to a per-example clock (:func:`~perceptron_core.engine.kw_trainer.note_update`);
    :meth:`fold` turns one call's clocks and update counts into the weighted
    sum, an exact integer weight per example (``y (T n_j - clock_j)``), read
    in row order. A later ``partial_fit`` call raises ``T``, which adds
    ``(T' - T)`` times the plain sum of the earlier updates.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[1.0, 0.0], [0.0, 2.0]])
    >>> Y = np.array([[1, -1]])
    >>> avg = RunningAverage(1, 2)
    >>> # update on row 0 with 0 votes so far, then on row 1 with 3; 5 votes in all
    >>> avg.fold(X, Y, np.array([[1, 1]]), np.array([[0, 3]]), np.array([5]))
    >>> w, theta = avg.hypothesis(0, eta=1.0, C=1.0, theta_init=0.0)
    >>> w.tolist(), theta   # (5 * x_0 - 2 * x_1) / 5 and -(5 - 2) / 5
    ([1.0, -0.8], -0.6)
    """

    def __init__(self, n_problems: int, n_features: int):
        self.weighted = np.zeros((n_problems, n_features))  # sum_i y_i (T - V_i) x_i
        self.plain = np.zeros((n_problems, n_features))  # sum_i y_i x_i
        self.weighted_signs = np.zeros(n_problems, dtype=np.int64)  # sum_i y_i (T - V_i)
        self.plain_signs = np.zeros(n_problems, dtype=np.int64)  # sum_i y_i
        self.total = np.zeros(n_problems, dtype=np.int64)  # T when last folded

    def fold(self, X, Y, n_updates, clock, total) -> None:
        """Add one call's updates: ``n_updates[c, j]`` updates on row ``j`` of ``X``,
        ``clock[c, j]`` their summed vote totals, ``total[c]`` the votes after the call."""
        add_rows, data = compiled_or_plain(weighted_row_sum), read_only(X)
        for c in range(len(self.total)):
            grown = int(total[c] - self.total[c])
            if grown:
                self.weighted[c] += grown * self.plain[c]
                self.weighted_signs[c] += grown * self.plain_signs[c]
            rows = np.flatnonzero(n_updates[c])
            signs = Y[c, rows].astype(np.int64)
            made = n_updates[c, rows].astype(np.int64)
            weights = signs * (int(total[c]) * made - clock[c, rows])
            plain = signs * made
            add_rows(data, rows, weights.astype(np.float64), self.weighted[c])
            add_rows(data, rows, plain.astype(np.float64), self.plain[c])
            self.weighted_signs[c] += weights.sum()
            self.plain_signs[c] += plain.sum()
            self.total[c] = total[c]

    def hypothesis(self, c: int, eta: float, C: float, theta_init: float):
        """``(w, theta)`` of problem ``c``'s averaged hypothesis, or None without votes."""
        if self.total[c] == 0:
            return None
        T = float(self.total[c])
        return eta * self.weighted[c] / T, theta_init - eta * C * float(self.weighted_signs[c]) / T


class HypothesisRecord:
    """Update sequences and votes of ``K`` binary problems over one support store.

    Parameters
    ----------
    n_problems, n_features : int
    eta, C, theta_init : float
        The training constants that turn an update sequence into hypotheses.
    """

    def __init__(
        self,
        n_problems: int,
        n_features: int,
        eta: float,
        C: float,
        theta_init: float,
        dtype=np.float64,
    ):
        self.eta, self.C, self.theta_init = float(eta), float(C), float(theta_init)
        self.support = SupportStore(n_features, dtype)
        self.positions = [np.empty(0, dtype=np.int64) for _ in range(n_problems)]
        self.signs = [np.empty(0, dtype=np.float64) for _ in range(n_problems)]
        self.votes = [np.zeros(1, dtype=np.int64) for _ in range(n_problems)]
        self.longest_k = np.zeros(n_problems, dtype=np.int64)
        self._cache: dict = {}

    @property
    def n_problems(self) -> int:
        return len(self.positions)

    def extend(self, X, Y, new_rows, votes, longest_k) -> None:
        """Append one call's updates (rows of ``X``) and replace votes/longest."""
        flat = np.concatenate(new_rows)
        flat_positions = self.support.add(X, flat)
        offsets = np.cumsum([0] + [len(r) for r in new_rows])
        for c, rows in enumerate(new_rows):
            self.positions[c] = np.concatenate(
                [self.positions[c], flat_positions[offsets[c] : offsets[c + 1]]]
            )
            self.signs[c] = np.concatenate([self.signs[c], Y[c, rows].astype(np.float64)])
            self.votes[c] = votes[c]
        self.longest_k = np.asarray(longest_k, dtype=np.int64).copy()
        self._cache.clear()

    # -- single hypotheses -------------------------------------------------

    def total_votes(self, c: int) -> int:
        """Votes cast by the hypotheses (:func:`perceptron_core.steps.kw.casting`)."""
        return int(kw.casting(self.votes[c]).sum())

    # -- voted --------------------------------------------------------------

    def _support_by_norm(self):
        """Support rows sorted by norm: ``(order, rank, squared norms in that order)``."""
        if "by_norm" not in self._cache:
            norms2 = compiled_or_plain(squared_norms)(read_only(self.support.vectors))
            order = np.argsort(norms2, kind="stable")
            rank = np.empty_like(order)
            rank[order] = np.arange(len(order))
            self._cache["by_norm"] = order, rank, norms2[order]
        return self._cache["by_norm"]

    def voted_scores(
        self, X: np.ndarray, last_scores: np.ndarray, chunk_size: int | None = None
    ) -> np.ndarray:
        """Voted raw scores, shape ``(len(X), K)``; memory bounded by the chunk size.

        ``last_scores`` (the last hypothesis's raw scores) stand in for a
        problem none of whose hypotheses from 1 on has a vote. Per chunk of
        ``chunk_size`` test rows the work is one product with the support
        rows, shared by all problems (:func:`exact_products`), then one
        running sum per problem (:func:`~perceptron_core.engine.kw_trainer.voted_scores`),
        the problems on threads (the compiled walk releases the GIL). Memory:
        ``8 * chunk_size * n_support`` bytes for the product plus blocks of
        :data:`SUPPORT_BLOCK` support rows; no float copy of the whole support.
        With at most :data:`IN_ORDER_MAX_FEATURES` features the updates are read
        in order instead (:meth:`_voted_in_order`; ``chunk_size`` does not apply).

        The work grows with test rows x updates: the sign of every hypothesis's
        score on every row is needed, and no sum over the update sequence gives a
        sum of signs. (The averaged predictor, a sum of the scores themselves, is
        kept in O(features) by :class:`RunningAverage`.)
        """
        m = len(X)
        out = np.array(last_scores, dtype=np.float64, copy=True)
        voting = [c for c in range(self.n_problems) if self.total_votes(c) > 0]
        if not voting or m == 0:
            return out
        if X.shape[1] <= IN_ORDER_MAX_FEATURES:
            self._voted_in_order(X, voting, out)
            return out
        n_support = len(self.support)
        if chunk_size is None:
            chunk_size = max(1, DEFAULT_CHUNK_BYTES // (8 * n_support))
        integer = self.support.vectors.dtype.kind in "iu" and X.dtype.kind in "iu"
        if integer:  # float32 products where exact: both sides sorted by norm
            order, rank, support_norms2 = self._support_by_norm()
        else:  # float64 products on the support as stored: no reordering, no copy
            order = rank = support_norms2 = None
        walks = []
        for c in voting:
            positions, steps, thetas, votes = self._walk(c)
            walks.append((c, positions if rank is None else rank[positions], steps, thetas, votes))
        GT = np.empty((n_support, min(chunk_size, m)))
        columns = np.empty((len(walks), min(chunk_size, m)))
        walk_votes = compiled_or_plain(voted_scores)  # here: the pool's threads run it
        with ThreadPoolExecutor(min(len(walks), PREDICT_THREADS)) as pool:
            for start in range(0, m, chunk_size):
                stop = min(start + chunk_size, m)
                chunk = X[start:stop]
                width = stop - start
                rows, rows_norms2 = np.arange(width), None
                if integer:
                    chunk_norms2 = compiled_or_plain(squared_norms)(chunk)
                    rows = np.argsort(chunk_norms2, kind="stable")
                    chunk, rows_norms2 = chunk[rows], chunk_norms2[rows]
                # A shorter last chunk is written to the start of GT's memory, not to its first
                # columns: those are not contiguous, and would compile the walk a second time.
                G = GT.reshape(-1)[: n_support * width].reshape(n_support, width)
                exact_products(self.support.vectors, order, support_norms2, chunk, rows_norms2, G)

                def walk(i, G=G, width=width):
                    _, positions, steps, thetas, votes = walks[i]
                    walk_votes(G, positions, steps, thetas, votes, columns[i, :width])

                list(pool.map(walk, range(len(walks))))
                for i, (c, *_) in enumerate(walks):
                    out[start + rows, c] = columns[i, :width]
        return out

    def _walk(self, c: int):
        """Problem ``c``'s update sequence: ``(positions, steps, thresholds, votes)``."""
        steps = self.eta * self.signs[c]
        return self.positions[c], steps, self.theta_init - self.C * np.cumsum(steps), self.votes[c]

    def _voted_in_order(self, X: np.ndarray, voting: list[int], out: np.ndarray) -> None:
        """:meth:`voted_scores` for few features: each problem's updates read in order
        (:func:`~perceptron_core.engine.kw_trainer.voted_scores_in_order`), the rows split
        between threads. Memory: the rows in float64, and one problem's update examples
        (updates x features x 8 bytes) at a time."""
        m = len(X)
        # read-only whether or not the transpose had to be copied: one compilation of the walk
        XT = read_only(np.ascontiguousarray(X.T, dtype=np.float64))
        walk = compiled_or_plain(voted_scores_in_order)  # here: the pool's threads run it
        parts = np.linspace(0, m, min(PREDICT_THREADS, m) + 1).astype(np.int64)
        with ThreadPoolExecutor(len(parts) - 1) as pool:
            for c in voting:
                positions, steps, thetas, votes = self._walk(c)
                U = self.support.vectors[positions].astype(np.float64)
                s, votes_sum = np.zeros(m), np.zeros(m)

                def rows(k, U=U, steps=steps, thetas=thetas, votes=votes, s=s, v=votes_sum):
                    walk(U, XT, steps, thetas, votes, s, v, parts[k], parts[k + 1])

                list(pool.map(rows, range(len(parts) - 1)))
                out[:, c] = votes_sum


#: Up to this many features :meth:`HypothesisRecord.voted_scores` reads the updates in order
#: and computes each product where it uses it; beyond, one product of the support rows with
#: a chunk of test rows is cheaper (``benchmarks/bench_voted.py``).
IN_ORDER_MAX_FEATURES = 12

#: Support rows converted to floating point at a time by :func:`exact_products`.
SUPPORT_BLOCK = 1024

#: Threads for the per-problem walks of a voted prediction (plain threads over
#: a ``nogil`` kernel: safe inside the Streamlit server, unlike numba's
#: ``parallel=True``).
PREDICT_THREADS = max(1, os.cpu_count() or 1)

#: float32 represents every integer of magnitude up to 2**24 exactly.
_FLOAT32_EXACT_SQUARED = float(2**24) ** 2


def exact_products(support, order, support_norms2, rows, rows_norms2, out):
    """``out[s, r] = <support[order[s]], rows[r]>`` in float64, as exact as float64 BLAS.

    ``order``, ``support_norms2`` and ``rows_norms2`` are None for float data
    (the support is then read in its stored order, a slice at a time).

    For integer storage of both (the int8/uint8 data of KW sets and images)
    the products are computed in float32, which BLAS runs at twice the float64
    rate, wherever that is still exact: every partial sum of ``<s, x>`` is an
    integer of magnitude at most ``||s|| ||x||`` (Cauchy–Schwarz), so if
    ``||s|| ||x|| <= 2**24`` float32 makes no rounding error in any order of
    summation, fused multiply-adds included. ``support_norms2`` and
    ``rows_norms2`` are ascending, so the pairs that miss the bound form one
    corner of each block, done in float64. Float data is multiplied in
    float64. Both give the exact integer result, so the choice never changes
    a prediction.

    Examples
    --------
    >>> import numpy as np
    >>> S = np.array([[255] * 300, [1] * 300], dtype=np.uint8)  # ||s|| ||x|| > 2**24 for row 0
    >>> X = np.array([[1] * 300, [255] * 300], dtype=np.uint8)
    >>> out = np.empty((2, 2))
    >>> exact_products(S, np.array([1, 0]), np.array([300.0, 300 * 255.0**2]), X,
    ...                np.array([300.0, 300 * 255.0**2]), out)
    >>> out.astype(int).tolist()
    [[300, 76500], [76500, 19507500]]
    """
    integer = order is not None and support.dtype.kind in "iu" and rows.dtype.kind in "iu"
    if integer:
        rows32 = rows.astype(np.float32)
    rows64 = None
    for b0 in range(0, len(support), SUPPORT_BLOCK):
        b1 = min(b0 + SUPPORT_BLOCK, len(support))
        block = support[b0:b1] if order is None else support[order[b0:b1]]
        split = 0
        if integer:  # rows [0, split) meet the float32 bound with this whole block
            limit = _FLOAT32_EXACT_SQUARED / max(support_norms2[b1 - 1], 1.0)
            split = int(np.searchsorted(rows_norms2, limit, side="right"))
            if split:
                np.matmul(block.astype(np.float32), rows32[:split].T, out=out[b0:b1, :split])
        if split < len(rows):
            if rows64 is None:
                rows64 = rows.astype(np.float64, copy=False)
            np.matmul(
                block.astype(np.float64, copy=False), rows64[split:].T, out=out[b0:b1, split:]
            )
