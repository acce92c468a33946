"""The one way this package compiles its hot loops.

:func:`jit` is ``numba.njit(nogil=True, cache=True)`` that falls back to an
uncached compilation when the install is read-only and numba finds no
writable cache directory (numba raises at decoration time in that case), so
a read-only install still works, only with a slower first call.

:func:`jit_reassoc` adds one floating-point licence, reassociation, for
reductions (dot products) that LLVM may then vectorise; see
:mod:`perceptron_core.engine.kw_trainer` for why and what it costs in reproducibility.

``nogil=True`` lets several Streamlit sessions (each in its own thread) train
at once; the loops are sequential (no ``parallel=True``), which keeps them
safe under any numba threading layer. Every other fastmath flag stays off:
no contraction into fused multiply-adds, no assumptions about NaN or
infinity, so mistake counts are reproducible.
"""

from __future__ import annotations

import numba


def jit(func, **options):
    """Compile ``func`` with numba (nogil, cached when possible).

    Examples
    --------
    >>> @jit
    ... def add(a, b):
    ...     return a + b
    >>> add(2, 3)
    5
    """
    try:
        return numba.njit(nogil=True, cache=True, **options)(func)
    except RuntimeError:  # "cannot cache function ...: no locator available"
        return numba.njit(nogil=True, cache=False, **options)(func)


def jit_reassoc(func):
    """:func:`jit` with reassociation allowed, for vectorised reductions."""
    return jit(func, fastmath={"reassoc"})


def jit_inline(func):
    """:func:`jit`, inlined into its callers by numba (a dispatch switch, a rule's step).

    A call that LLVM does not inline passes every array argument as a struct
    and returns a tuple through memory: tens of nanoseconds per visit, as
    much as a rule's whole step on short rows.
    """
    return jit(func, inline="always")
