r"""Kernel values and the cache of kernel columns the dual-form trainer reads.

The dual form (:mod:`perceptron_core.engine.dual_trainer`) adds one kernel
column :math:`k(\cdot, x_j)` to every running score per update. Columns come
from a cache: when the whole Gram matrix fits ``cache_size_mb`` every column
is computed at most once (lazily, only for examples that do update);
otherwise a smaller column cache keeps the columns of the examples that
update most often (least-frequently-used eviction, :func:`fetch_column`).
The same compiled function (:func:`kernel_column`) computes a column
wherever it is needed, in training and prediction, so the cache size never
changes a result. :class:`KernelSpec` is the fitted kernel as an object,
:class:`KernelBatch` the training state tied to one training matrix.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from perceptron_core import vectors
from perceptron_core._jit import compiled_or_plain, jit, jit_inline, read_only

#: Kernel codes understood by the compiled functions.
LINEAR, POLY, RBF, PRECOMPUTED = 0, 1, 2, 3
KERNELS = {"linear": LINEAR, "poly": POLY, "rbf": RBF}

MIB = 2**20


@jit
def kernel_column(Zt, A, a, code, gamma, coef0, degree, out):
    """``out[r] = k(z_r, A[a])`` for every row ``z_r`` of ``Z``, given ``Zt = Z.T``.

    The one function that computes kernel values, in training (columns of
    the Gram matrix) and prediction (rows of ``k(support, X_test)``) alike.
    The sum over features runs in order for each ``r``, and the loop over
    ``r`` is what LLVM vectorises (no floating-point licence needed). Both
    arguments enter symmetrically, bit for bit (a product or a squared
    difference does not depend on their order), so a Gram matrix computed
    by columns is exactly symmetric and its linear diagonal equals
    :func:`perceptron_core.vectors.squared_norms`.

    Kernels: linear ``<x, x'>``; poly ``(gamma <x, x'> + coef0)^degree``;
    rbf ``exp(-gamma ||x - x'||^2)``. The exponential is ``math.exp``, the C
    library's ``exp``, compiled or not: NumPy's ``np.exp`` may take a vector
    path of its own on some CPUs (AVX-512), which rounds some values
    differently, and then the plain twin (:func:`perceptron_core._jit.uncompiled`)
    would not give the compiled numbers; the power is :func:`whole_power` for
    the same reason.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[1.0, 2.0], [3.0, 0.0]])
    >>> out = np.empty(2)
    >>> kernel_column(np.ascontiguousarray(X.T), X, 1, POLY, 1.0, 1.0, 2, out)
    >>> out.tolist()                   # (3 + 1)^2 and (9 + 1)^2
    [16.0, 100.0]
    """
    n, m = Zt.shape
    for r in range(m):
        out[r] = 0.0
    if code == RBF:
        for f in range(n):
            v = np.float64(A[a, f])
            for r in range(m):
                d = np.float64(Zt[f, r]) - v
                out[r] += d * d
        for r in range(m):
            out[r] = math.exp(-gamma * out[r])
        return
    for f in range(n):
        v = np.float64(A[a, f])
        for r in range(m):
            out[r] += np.float64(Zt[f, r]) * v
    if code == POLY:
        for r in range(m):
            out[r] = whole_power(gamma * out[r] + coef0, degree)


@jit_inline
def whole_power(base, n):
    """``base ** n`` for a whole ``n >= 0``, by repeated squaring.

    That is what numba compiles ``**`` with a whole exponent into; written
    out, the uncompiled twin makes the same multiplications, where Python's
    ``**`` on a NumPy float would call the C library's ``pow``, which can
    round differently from ``n > 2`` on.

    Examples
    --------
    >>> whole_power(1.5, 3), whole_power(2.0, 0)
    (3.375, 1.0)
    """
    result = 1.0
    while n:
        if n & 1:
            result *= base
        n >>= 1
        base *= base
    return result


@jit
def _cross_kernel(A, Bt, code, gamma, coef0, degree, out):
    """``out[s, r] = k(b_r, A[s])``: support rows ``A`` against test rows (``Bt = B.T``)."""
    for s in range(A.shape[0]):
        kernel_column(Bt, A, s, code, gamma, coef0, degree, out[s])


@jit
def fetch_column(j, columns):
    """The cache row holding kernel column ``j``, computing it on a miss.

    ``columns = (X, Xt, code, gamma, coef0, degree, cache, slot_of, owner,
    uses, stats)``: the training rows (and their transpose), the kernel, and
    the column cache.

    ``stats = [slots filled, columns computed, hits]``; ``uses[j]`` counts the
    requests for column ``j``. With one row per example (the whole Gram
    matrix fits) column ``j`` lives in row ``j``. Otherwise the last row is
    scratch space and the others keep the most requested columns (least
    frequently used eviction, with admission): a column replaces the least
    requested cached one only if it has been requested more often. An
    update cycle over more support vectors than the cache holds would make
    a recency rule (LRU, clock) miss every time; the examples that update
    most often (hard or mislabelled ones) are the ones worth keeping.
    """
    X, Xt, code, gamma, coef0, degree, cache, slot_of, owner, uses, stats = columns
    uses[j] += 1
    s = slot_of[j]
    if s >= 0:
        stats[2] += 1
        return s
    n_slots = cache.shape[0]
    if n_slots == X.shape[0]:
        s = j
        slot_of[j] = s
    else:
        s = n_slots - 1  # scratch
        if stats[0] < n_slots - 1:  # a free slot
            s = stats[0]
            stats[0] += 1
        elif n_slots > 1:
            victim = 0
            for v in range(1, n_slots - 1):
                if uses[owner[v]] < uses[owner[victim]]:
                    victim = v
            if uses[owner[victim]] < uses[j]:
                slot_of[owner[victim]] = -1
                s = victim
        if s < n_slots - 1:
            owner[s] = j
            slot_of[j] = s
    kernel_column(Xt, X, j, code, gamma, coef0, degree, cache[s])
    stats[1] += 1
    return s


@dataclass(frozen=True)
class KernelSpec:
    """A fitted kernel: a built-in one (code and parameters) or a Python callable.

    Examples
    --------
    >>> import numpy as np
    >>> spec = KernelSpec("rbf", RBF, gamma=0.5)
    >>> X = np.array([[0.0, 0.0], [1.0, 1.0]])
    >>> spec.matrix(X, X).round(4).tolist()       # exp(-0.5 * 2) off the diagonal
    [[1.0, 0.3679], [0.3679, 1.0]]
    """

    name: str
    code: int
    gamma: float = 1.0
    coef0: float = 0.0
    degree: int = 1
    func: Callable[[np.ndarray, np.ndarray], Any] | None = None

    def matrix(self, A, B) -> np.ndarray:
        """``K[s, r] = k(A[s], B[r])`` as float64, shape ``(len(A), len(B))``."""
        if self.func is not None:
            K = np.asarray(self.func(A, B), dtype=np.float64)
            if K.shape != (len(A), len(B)):
                raise ValueError(
                    f"The kernel function returned an array of shape {K.shape}; for inputs "
                    f"with {len(A)} and {len(B)} rows it must return shape "
                    f"({len(A)}, {len(B)}): one value k(a, b) per pair of rows."
                )
            if not np.isfinite(K).all():
                raise ValueError("The kernel function returned NaN or infinite values.")
            return K
        out = np.empty((len(A), len(B)))
        # Both read-only, whoever made them: one compilation per kind of data, not one for
        # each mix of writable and read-only arrays the callers happen to hold.
        A, Bt = read_only(A), read_only(np.ascontiguousarray(B.T))
        compiled_or_plain(_cross_kernel)(
            A, Bt, self.code, self.gamma, self.coef0, self.degree, out
        )
        return out

    def diagonal(self, X) -> np.ndarray:
        """``k(x_j, x_j)`` of every row (the kernel-space squared norms)."""
        if self.func is not None:
            return np.array([self.matrix(X[j : j + 1], X[j : j + 1])[0, 0] for j in range(len(X))])
        norms2 = compiled_or_plain(vectors.squared_norms)(read_only(X))
        if self.code == RBF:
            return np.ones(len(X))
        if self.code == POLY:
            return (self.gamma * norms2 + self.coef0) ** self.degree
        return norms2


class KernelBatch:
    """Training state tied to one training matrix: running scores and the column cache
    that :func:`fetch_column` reads (``columns`` of
    :func:`perceptron_core.engine.dual_trainer.run_dual_epochs`)."""

    def __init__(self, X, spec: KernelSpec, budget_bytes: float):
        self.X = np.array(X, copy=True)  # compared with later partial_fit batches
        self.spec = spec
        self.budget_bytes = budget_bytes
        self.S: np.ndarray | None = None  # running scores (K, m), set by the estimator
        self.diag: np.ndarray | None = None
        self.cache: np.ndarray | None = None
        self.n_columns = 0

    def matches(self, X) -> bool:
        return X.shape == self.X.shape and X.dtype == self.X.dtype and np.array_equal(X, self.X)

    @property
    def full(self) -> bool:
        m = len(self.X)
        return self.spec.func is not None or m * m * 8 <= self.budget_bytes

    def ensure_cache(self) -> np.ndarray:
        """The column cache, allocated on first use (for a callable kernel: its Gram matrix)."""
        if self.cache is not None:
            return self.cache
        m = len(self.X)
        if self.spec.func is not None:
            if m * m * 8 > self.budget_bytes:
                raise ValueError(
                    f"A kernel given as a function is evaluated on the whole training set at "
                    f"once: its {m} x {m} Gram matrix needs {m * m * 8 / MIB:,.0f} MiB, more "
                    f"than cache_size_mb={self.budget_bytes / MIB:g}. Raise cache_size_mb, "
                    "use fewer examples, or use a built-in kernel ('linear', 'poly', 'rbf'), "
                    "whose columns are computed on demand."
                )
            G = self.spec.matrix(self.X, self.X)
            self.cache = np.ascontiguousarray(G.T)  # row j = column j
            self.slot_of = np.arange(m, dtype=np.int64)
            self.n_columns += m
        else:
            n_slots = m if self.full else int(max(1, min(m, self.budget_bytes // (8 * m))))
            self.cache = np.empty((n_slots, m))
            self.slot_of = np.full(m, -1, dtype=np.int64)
        self.Xt = np.ascontiguousarray(self.X.T)
        self.owner = np.full(len(self.cache), -1, dtype=np.int64)
        self.uses = np.zeros(m, dtype=np.int64)
        self.stats = np.zeros(3, dtype=np.int64)
        return self.cache

    def release_cache(self):
        if self.cache is not None:
            if self.spec.func is None:
                self.n_columns += int(self.stats[1])
            self.cache = self.Xt = None

    @property
    def columns_computed(self) -> int:
        live = int(self.stats[1]) if self.cache is not None and self.spec.func is None else 0
        return self.n_columns + live
