"""The one way this package compiles its hot loops.

:func:`jit` is ``numba.njit(nogil=True, cache=True)`` that falls back to an
uncached compilation when the install is read-only and numba finds no
writable cache directory (numba raises at decoration time in that case), so
a read-only install still works, only with a slower first call.

``nogil=True`` lets several Streamlit sessions (each in its own thread) train
at once; the loops are sequential (no ``parallel=True``), which keeps them
safe under any numba threading layer. ``fastmath`` stays off: mistake counts
must be exact and reproducible.
"""

from __future__ import annotations

import numba


def jit(func):
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
        return numba.njit(nogil=True, cache=True)(func)
    except RuntimeError:  # "cannot cache function ...: no locator available"
        return numba.njit(nogil=True, cache=False)(func)
