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

Two habits keep the first compilation short (each measured from an empty
cache, and checked by ``tests/test_jit_cache.py``):

* no slice assignment in compiled code, :func:`perceptron_core.vectors.copy_into`
  instead (see there why);
* counters and flags that a compiled function passes on start from a typed
  value, ``np.int64(0)`` or ``np.bool_(True)``, not the constant: numba first
  types a call whose argument still holds a constant with that literal, and
  compiles the callee once more for it (the KW epoch loop twice on the default
  page, 0.7-1.2 s of a cold start).
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

import numba

_PACKAGE = Path(__file__).resolve().parent


@functools.cache
def _sources_digest() -> str:
    """A digest of every source file of the package's compiled code.

    numba's cache checks only the file of the function it loads, but the
    drivers compile in the rules' steps, the vector loops and constants of
    other files: a changed rule would leave the driver running the old one.
    """
    files = sorted(_PACKAGE.rglob("*.py"))
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.relative_to(_PACKAGE).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _forget_if_stale(dispatcher) -> None:
    """Drop ``dispatcher``'s cached compilations when the package's sources changed since."""
    module = dispatcher.py_func.__module__.rsplit(".", 1)[-1]
    stamp = Path(dispatcher.stats.cache_path) / f"{module}.{dispatcher.__qualname__}.sources"
    try:
        if stamp.exists() and stamp.read_text() == _sources_digest():
            return
        dispatcher._cache.flush()  # numba's own way to drop an index (no public one)
        stamp.write_text(_sources_digest())
    except OSError:  # a read-only cache: numba then caches nothing here either
        pass


def jit(func, **options):
    """Compile ``func`` with numba (nogil, cached when possible).

    A cached compilation is dropped when any source file of the package has
    changed since it was made (not only the function's own file, which is
    all numba checks).

    Examples
    --------
    >>> @jit
    ... def add(a, b):
    ...     return a + b
    >>> add(2, 3)
    5
    """
    try:
        dispatcher = numba.njit(nogil=True, cache=True, **options)(func)
    except RuntimeError:  # "cannot cache function ...: no locator available"
        return numba.njit(nogil=True, cache=False, **options)(func)
    _forget_if_stale(dispatcher)
    return dispatcher


def jit_reassoc(func):
    """:func:`jit` with reassociation allowed, for vectorised reductions."""
    return jit(func, fastmath={"reassoc"})


def jit_inline(func):
    """:func:`jit`, inlined into its callers by numba (a short vector loop, the KW decision).

    A call that LLVM does not inline passes every array argument as a struct
    and returns a tuple through memory: tens of nanoseconds per visit, as
    much as a rule's whole step on short rows.
    """
    return jit(func, inline="always")


def jit_visit(func):
    """:func:`jit` for what the on-line loops call at every visit of an example.

    That is a rule's functions and the switch that picks them, and the KW
    trainer's bookkeeping. A compiled function takes a reference to every
    array it is given or unpacks from a tuple (an atomic counter update in,
    one out), and LLVM removes those pairs only when it sees both ends in one
    function; numba cannot inline the rules itself, since the switch reaches
    them through a tuple of compiled functions (see
    :mod:`perceptron_core.rules`), so each visit was a real call, with eight
    such pairs, returning through memory. Two options remove that:
    ``forceinline`` has LLVM inline the function into its caller, and
    ``_nrt=False`` (numba's private switch for its reference-counting
    runtime) compiles it without reference counts, which these functions do
    not need: they allocate nothing, and their caller holds every array they
    touch. Measured on ``benchmarks/bench_rules.py``
    (20,000 x 200, per epoch, against the rules' hand-written loops before the
    driver): PAUM 1.51-1.67 x before, 1.04 x with these; Winnow 1.30 x, 1.00 x.
    A step that allocates an array does not compile here (numba says it
    "Only accept[s] returning of array passed into the function as argument").
    """
    return jit(func, forceinline=True, _nrt=False)
