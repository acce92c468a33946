"""The parts of numba this package uses that numba does not promise to keep.

numba has no public way to drop a function's cached compilations, to ask
whether its cache holds one, or to compile without its reference-counting
runtime, and :mod:`perceptron_core._jit` needs all three. Each is reached
here and only here, and each has a fallback for a numba release that renamed
or removed it, so an estimator keeps fitting and predicting, only slower:

* :func:`drop_cached` says ``False`` when it cannot drop a stale cache; the
  caller then compiles that function without the cache (in every process);
* :func:`holds_cached` says ``False`` when it cannot tell, which makes the app
  treat the cache as cold (it compiles the learners in a child process, as
  after an install);
* :func:`without_reference_counting` gives no option when numba no longer
  knows its private ``_nrt``: the functions are then compiled with reference
  counts (a few atomic operations more per visit);
* :func:`cache_folder` says ``None`` when numba does not say where the cache
  is; the caller then compiles without the cache;
* :func:`guard_cache` says ``False`` when it cannot reach the cache's index: the
  cache then works without its lock, as numba's own does.

``tests/test_numba_internals.py`` removes each of them and trains an
estimator without them.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


def _knows_option(name: str) -> bool:
    """Whether numba's CPU target still reads the compile option ``name``."""
    try:
        from numba.core.cpu import CPUTargetOptions
        from numba.core.options import TargetOptions
    except ImportError:
        return False
    return isinstance(getattr(CPUTargetOptions, name, None), TargetOptions.Mapping)


def without_reference_counting() -> dict:
    """The compile options that turn numba's reference counting off, ``{}`` if none exists.

    Examples
    --------
    >>> without_reference_counting() in ({"_nrt": False}, {})
    True
    """
    return {"_nrt": False} if _knows_option("_nrt") else {}


def cache_folder(dispatcher) -> Path | None:
    """The folder of ``dispatcher``'s on-disk cache, ``None`` when numba does not say."""
    try:
        return Path(dispatcher.stats.cache_path)
    except (AttributeError, TypeError):
        return None


def drop_cached(dispatcher) -> bool:
    """Empty numba's on-disk index of ``dispatcher``; ``False`` when this numba has no way
    known to this module (its cache is then not to be trusted)."""
    try:
        flush = dispatcher._cache.flush  # numba's own way to drop an index (no public one)
    except AttributeError:
        return False
    flush()
    return True


def holds_cached(dispatcher) -> bool:
    """Whether numba's on-disk cache holds a compilation of ``dispatcher`` to load
    (``False`` when compiled without a cache, or when this numba cannot tell)."""
    try:  # numba's own reader of the index, which it checks against the source (no public one)
        load_index = dispatcher._cache._cache_file._load_index
    except AttributeError:
        return False
    try:
        return bool(load_index())
    except OSError:
        return False


def guard_cache(dispatcher) -> bool:
    """Make ``dispatcher``'s on-disk cache safe for processes that compile at the same time;
    ``False`` when this numba has no way known to this module (the cache then works as
    numba's own, without the guard).

    numba keeps one index per function that maps each signature to a data file. A process
    that saves a new compilation reads the index, takes the first free file name, writes
    the index, then the file; it takes no lock. Two processes saving two signatures at once
    (a worker compiling ahead beside the server, two app processes, two test workers) can
    take the same name, and the index then sends one signature to the other's compilation:
    its entry point refuses the arguments ("can't unbox array from PyObject into native
    value"). Here a save runs under an exclusive lock of a file beside the index, so the
    index and the files change one process at a time; and a compilation loaded for a
    signature that is not its own (a cache written before the lock) counts as not cached,
    so it is compiled again and saved under its own name. Dropping the index (:func:`drop_cached`,
    after a source file changed) takes the same lock, so a save running at that moment
    cannot write back the entries from before the change.
    """
    try:
        cache = dispatcher._cache
        cache_file = cache._cache_file
        save, flush, load_overload = cache_file.save, cache_file.flush, cache.load_overload
        lock_path = Path(cache_file._index_path + ".lock")
    except (AttributeError, TypeError):
        return False

    def locked(write):
        def under_the_lock(*args):
            with _exclusive(lock_path):
                return write(*args)

        return under_the_lock

    def own_signature_only(sig, target_context):
        compiled = load_overload(sig, target_context)
        asked = tuple(getattr(sig, "args", sig))
        if compiled is not None and tuple(compiled.signature.args) != asked:
            return None
        return compiled

    cache_file.save, cache_file.flush = locked(save), locked(flush)
    cache.load_overload = own_signature_only
    return True


@contextlib.contextmanager
def _exclusive(path: Path):
    """Hold an exclusive lock of ``path`` (created if missing) while the block runs.

    Opened for reading, which ``flock`` needs no more than: a lock file another user made
    (a cache warmed by one account and used by another) is still taken. No lock where the
    system has no ``fcntl``, the file cannot be opened or locked; the loaded signature's check in
    :func:`guard_cache` still holds there.
    """
    try:
        import fcntl

        handle = os.open(path, os.O_RDONLY | os.O_CREAT, 0o666)
    except (ImportError, OSError):
        yield
        return
    try:
        with contextlib.suppress(OSError):  # a file system without locks (some network ones)
            fcntl.flock(handle, fcntl.LOCK_EX)
        yield
    finally:
        os.close(handle)  # closing releases the lock
