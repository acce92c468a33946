"""The one way this package compiles its hot loops, and runs them uncompiled.

:func:`jit` is ``numba.njit(nogil=True, cache=True)`` that falls back to an
uncached compilation when the install is read-only and numba finds no
writable cache directory (numba raises at decoration time in that case), so
a read-only install still works, only with a slower first call. It also
compiles without the cache when the cache may hold a stale compilation that
the installed numba gives no way to drop: the private parts of numba this
module needs are reached only through :mod:`perceptron_core._numba_internals`,
which says so when a numba release renamed them.

:func:`jit_reassoc` adds one floating-point licence, reassociation, for
reductions (dot products) that LLVM may then vectorise; see
:mod:`perceptron_core.engine.kw_trainer` for why and what it costs in reproducibility.

``nogil=True`` lets several Streamlit sessions (each in its own thread) train
at once; the loops are sequential (no ``parallel=True``), which keeps them
safe under any numba threading layer. Every other fastmath flag stays off:
no contraction into fused multiply-adds, no assumptions about NaN or
infinity, so mistake counts are reproducible.

Python code calls a compiled function ``f`` as ``compiled_or_plain(f)(...)``. Inside
:func:`uncompiled` that runs the same function as plain Python instead (its
``py_func``, with every compiled function it reaches swapped for its own
plain twin): a small run then needs no compilation at all, which is what the
app's first page does right after an install, while numba compiles in the
background.

Three habits keep the first compilation short (checked by ``tests/test_jit_cache.py``
and ``tests/test_compiled_signatures.py``):

* no slice assignment in compiled code, :func:`perceptron_core.vectors.copy_into`
  instead (see there why);
* counters and flags that a compiled function passes on start from a typed
  value, ``np.int64(0)`` or ``np.bool_(True)``, not the constant: numba first
  types a call whose argument still holds a constant with that literal, and
  compiles the callee once more for it;
* the data a compiled function only reads (its parameter ``X``) go in through
  :func:`read_only`: numba types a read-only array apart from a writable one,
  so a data set cached read-only and a writable copy of it would each compile
  the loops, every rule's step with the on-line driver.
"""

from __future__ import annotations

import ast
import contextlib
import contextvars
import functools
import hashlib
import sys
import threading
import types
from pathlib import Path

import numba
import numpy as np
from numba.core.dispatcher import Dispatcher

from perceptron_core import _numba_internals as numba_internals

_PACKAGE = __name__.partition(".")[0]


# -- what a compiled function's code reads ---------------------------------------------------


def _code_names(code: types.CodeType) -> set[str]:
    """Every global or attribute name ``code`` (and the code nested in it) reads."""
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _code_names(const)
    return names


def _in_package(obj) -> bool:
    name = obj.__name__ if isinstance(obj, types.ModuleType) else getattr(obj, "__module__", "")
    return (name or "").partition(".")[0] == _PACKAGE


def _reads(func) -> dict:
    """``{name: value}`` of the globals and closure cells ``func``'s code reads."""
    names = _code_names(func.__code__)
    found = {name: func.__globals__[name] for name in names if name in func.__globals__}
    for name, cell in zip(func.__code__.co_freevars, func.__closure__ or ()):
        found[name] = cell.cell_contents
    return found


# -- numba's cache, kept in step with the files the compiled code comes from ----------------


def _file(module: types.ModuleType) -> Path:
    """The file a module of the package was loaded from (each has one)."""
    assert module.__file__ is not None, module
    return Path(module.__file__)


@functools.cache
def _imported_from(module_name: str) -> dict[str, str]:
    """``{name: module}`` of the ``from perceptron_core... import name`` lines of a module."""
    tree = ast.parse(_file(sys.modules[module_name]).read_text(encoding="utf-8"))
    return {
        alias.asname or alias.name: node.module
        for node in tree.body
        if isinstance(node, ast.ImportFrom)
        and node.module is not None
        and node.module.partition(".")[0] == _PACKAGE
        for alias in node.names
    }


def _items(value) -> list:
    """``value``, or the items of a tuple and of the tuples in it (the rules' switches
    unroll over tuples of ``(function, class)`` pairs)."""
    if not isinstance(value, tuple):
        return [value]
    return [item for element in value for item in _items(element)]


def _source_files(func, seen: set) -> set[Path]:
    """The files whose code numba compiles into ``func``: its own, and those of every
    compiled function it calls (transitively) and of every constant it reads."""
    if func in seen:
        return set()
    seen.add(func)
    module = func.__module__
    files = {_file(sys.modules[module])}
    origins = _imported_from(module)
    names = _code_names(func.__code__)
    for name, value in _reads(func).items():
        if name in origins and origins[name] in sys.modules:
            files.add(_file(sys.modules[origins[name]]))
        if isinstance(value, types.ModuleType) and _in_package(value):
            files.add(_file(value))
            # the module's attributes the code names (``rules.step``, ``kw.decide``)
            value = tuple(getattr(value, attr) for attr in names if hasattr(value, attr))
        for item in _items(value):
            if isinstance(item, Dispatcher):
                files |= _source_files(item.py_func, seen)
    return files


def sources_digest(func) -> str:
    """A digest of the source files numba compiles into ``func`` (see :func:`_source_files`).

    numba's cache checks only the file of the function it loads, but the
    drivers compile in the rules' steps, the vector loops and constants of
    other files: a changed rule would leave the driver running the old one.
    """
    digest = hashlib.sha256()
    for path in sorted(_source_files(func, set())):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _cache_follows_sources(dispatcher) -> bool:
    """Drop ``dispatcher``'s cached compilations when a file compiled into it changed since.

    ``False`` when the cache may hold a stale compilation that this numba
    gives no way to drop (:mod:`perceptron_core._numba_internals`): the caller
    then compiles without the cache.
    """
    folder = numba_internals.cache_folder(dispatcher)
    if folder is None:
        return False
    module = dispatcher.py_func.__module__.rsplit(".", 1)[-1]
    stamp = folder / f"{module}.{dispatcher.__qualname__}.sources"
    digest = sources_digest(dispatcher.py_func)
    try:
        if stamp.exists() and stamp.read_text() == digest:
            return True
        if not numba_internals.drop_cached(dispatcher):
            return False
        stamp.write_text(digest)
    except OSError:  # a read-only cache: numba then caches nothing here either
        pass
    return True


def is_cached(dispatcher) -> bool:
    """Whether numba's on-disk cache holds a compilation of ``dispatcher`` to load.

    Not whether its index file exists: :func:`_cache_follows_sources` leaves an empty one.
    """
    return numba_internals.holds_cached(dispatcher)


# -- compiling ---------------------------------------------------------------------------------


def jit(func, **options):
    """Compile ``func`` with numba (nogil, cached when possible).

    A cached compilation is dropped when a source file compiled into it has
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
    numba_internals.guard_cache(dispatcher)  # several processes may compile or drop at once
    if not _cache_follows_sources(dispatcher):
        return numba.njit(nogil=True, cache=False, **options)(func)
    return dispatcher


def jit_reassoc(func):
    """:func:`jit` with reassociation allowed, for vectorised reductions."""
    return jit(func, fastmath={"reassoc"})


def jit_inline(func):
    """:func:`jit`, inlined into its callers by numba (a short vector loop, the KW decision).

    A call that LLVM does not inline passes every array argument as a struct
    and returns a tuple through memory, which on short rows costs as much as
    a rule's whole step.
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
    numba's private switch for its reference-counting runtime
    (:func:`perceptron_core._numba_internals.without_reference_counting`)
    compiles it without reference counts, which these functions do not
    need: they allocate nothing, and their caller holds every array they
    touch (``benchmarks/bench_rules.py`` measures the driver with them).
    A step that allocates an array does not compile here (numba says it
    "Only accept[s] returning of array passed into the function as argument").
    """
    return jit(func, forceinline=True, **numba_internals.without_reference_counting())


# -- running uncompiled ----------------------------------------------------------------------

_UNCOMPILED = contextvars.ContextVar("perceptron_core_uncompiled", default=False)
#: ``{compiled function: its plain twin}``; ``{intrinsic: what it does in Python}``.
_TWINS: dict = {}
_TWINS_LOCK = threading.RLock()


@contextlib.contextmanager
def uncompiled():
    """Inside this block (in this thread), :func:`compiled_or_plain` gives plain Python.

    The results are those of the compiled code: the same operations in the
    same order on the same float64 numbers (``tests/test_uncompiled.py``
    compares every learner of the app's menu both ways). It is slow per
    visit, but a small run of 2-D data needs no compilation at all.

    Examples
    --------
    >>> import numpy as np
    >>> from perceptron_core.vectors import squared_norms
    >>> with uncompiled():
    ...     compiled_or_plain(squared_norms)(np.array([[3.0, 4.0]])).tolist()
    [25.0]
    """
    token = _UNCOMPILED.set(True)
    try:
        yield
    finally:
        _UNCOMPILED.reset(token)


def read_only(X: np.ndarray) -> np.ndarray:
    """``X`` as compiled code takes the data it only reads: a read-only view (no copy).

    The caller's array keeps its own flag.

    Examples
    --------
    >>> X = np.zeros((2, 3))
    >>> read_only(X).flags.writeable, X.flags.writeable, np.shares_memory(read_only(X), X)
    (False, True, True)
    """
    if not X.flags.writeable:
        return X
    view = X.view()
    view.flags.writeable = False
    return view


def compiled_or_plain(dispatcher):
    """What Python code calls to run a compiled function: ``dispatcher`` itself, or inside
    :func:`uncompiled`, its plain-Python twin.

    Take it in the thread that entered :func:`uncompiled` (a worker thread does not
    inherit the block), then call it from any thread.
    """
    return _plain(dispatcher) if _UNCOMPILED.get() else dispatcher


def plain_stand_in(compiled_only):
    """Register the decorated Python function as what ``compiled_only`` (a numba intrinsic,
    which has no Python meaning) does when its caller runs uncompiled."""

    def register(func):
        _TWINS[compiled_only] = func
        return func

    return register


class _PlainModule:
    """A module of this package as plain code sees it: its compiled functions are twins."""

    def __init__(self, module: types.ModuleType):
        self._module = module

    def __getattr__(self, name: str):
        return _plain(getattr(self._module, name))


def _plain(value):
    """The plain-Python twin of ``value`` (itself when nothing in it is compiled)."""
    if isinstance(value, Dispatcher):
        return _plain_function(value)
    if isinstance(value, tuple) and any(isinstance(item, Dispatcher) for item in _items(value)):
        return tuple(_plain(item) for item in value)
    if isinstance(value, types.ModuleType) and _in_package(value):
        return _PlainModule(value)
    try:
        return _TWINS.get(value, value)
    except TypeError:  # not hashable, so not registered
        return value


def _plain_function(dispatcher):
    """``dispatcher.py_func`` with a namespace in which what it reads is plain too."""
    with _TWINS_LOCK:
        twin = _TWINS.get(dispatcher)
        if twin is None:
            func = dispatcher.py_func
            namespace = {"__builtins__": func.__globals__["__builtins__"]}
            closure = tuple(
                types.CellType(_plain(cell.cell_contents)) for cell in func.__closure__ or ()
            )
            twin = types.FunctionType(
                func.__code__, namespace, func.__name__, func.__defaults__, closure or None
            )
            _TWINS[dispatcher] = twin  # before filling it in: compiled functions may recurse
            namespace.update({name: _plain(value) for name, value in _reads(func).items()})
        return twin
