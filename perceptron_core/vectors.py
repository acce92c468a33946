"""Vector loops shared by the compiled rules and drivers.

:func:`row_dot` is the only code compiled with a floating-point licence,
``reassoc``, which lets LLVM split the sum over several vector registers
(see :mod:`perceptron_core.engine.kw_trainer` for what it buys and costs). The
reduction order is fixed when the function is compiled for the machine's
CPU, so a machine gives identical results on every run.
"""

from __future__ import annotations

import numpy as np

from perceptron_core._jit import jit, jit_inline, jit_reassoc


@jit
def dot(w, x):
    """``<w, x>`` summed left to right (the tests' references sum in the same order).

    Examples
    --------
    >>> import numpy as np
    >>> float(dot(np.array([1.0, 2.0]), np.array([3.0, 4.0])))
    11.0
    """
    s = 0.0
    for i in range(x.shape[0]):
        s += w[i] * x[i]
    return s


@jit_inline
def copy_into(dst, src):
    """Write ``src`` into the leading corner of ``dst``: ``dst[:len(src)] = src`` in NumPy.

    A loop, not a slice assignment: numba compiles a slice assignment with
    its shape-mismatch error message, and with it its string formatting,
    which made compiling a learner from an empty cache much slower.

    Examples
    --------
    >>> import numpy as np
    >>> grown = np.zeros((3, 2))
    >>> copy_into(grown, np.ones((2, 2)))
    >>> grown.tolist()
    [[1.0, 1.0], [1.0, 1.0], [0.0, 0.0]]
    """
    for i in np.ndindex(src.shape):
        dst[i] = src[i]


@jit_inline
def add_row(A, a, c, B, b):
    """``A[a] <- A[a] + c B[b]`` in place: the additive update of the perceptron-like rules.

    Rows are indexed in place, not sliced (see :func:`row_dot`).
    """
    for i in range(B.shape[1]):
        A[a, i] += c * B[b, i]


@jit_reassoc
def row_dot(A, a, B, b):
    """``<A[a], B[b]>`` in float64, vectorised with a compile-time reduction order.

    Rows are indexed in place rather than sliced: a slice is an array object
    whose reference count numba must update atomically, which costs as much
    as a short dot product when done once per example.

    Examples
    --------
    >>> import numpy as np
    >>> float(row_dot(np.arange(10.0)[None, :], 0, np.ones((2, 10), dtype=np.int8), 1))
    45.0
    """
    total = 0.0
    for i in range(B.shape[1]):
        total += A[a, i] * B[b, i]
    return total


@jit
def squared_norms(X):
    """``||x_j||^2`` of every row, in float64 (no float64 copy of ``X``).

    With the training loop's dot product: vectorised, which is much faster
    than a strict left-to-right sum on long rows.
    """
    out = np.empty(X.shape[0])
    for j in range(X.shape[0]):
        out[j] = row_dot(X, j, X, j)
    return out
