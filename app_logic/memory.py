"""One memory budget for every cache a server process keeps for all its visitors.

The data sets, the trained runs, their browser payloads and the lessons'
studies are computed once and shared by every session. Each of them is
kept in one :class:`Budget`: an entry is sized in bytes when it is stored
(:func:`nbytes`, the arrays and byte strings it holds), the least recently
used entries of any cache are dropped while the total is over the limit,
and an entry nobody asked for during the idle time is dropped too (checked
on every request and once a minute), so a server whose visitors left gives
its memory back (and the sweeper hands what was freed back to the system).
An entry never holds another cache's entry alive: a
payload is keyed by the serial numbers of its runs, not by the runs.

The limit and the idle time come from the environment, read when the app
starts (``docs/deploy.md``):

* ``PERCEPTRON_LAB_MEMORY_MB``: the most the server keeps for its visitors
  beyond its memory at rest, in MB (default :data:`DEFAULT_LIMIT_MB`); the
  caches hold at most :data:`CACHED_SHARE` of it, the rest is room for what
  the process keeps around them;
* ``PERCEPTRON_LAB_IDLE_MINUTES``: the idle time (default
  :data:`DEFAULT_IDLE_MINUTES`).

Each must be a number above 0 and at most :data:`MOST_LIMIT_MB` or
:data:`MOST_IDLE_MINUTES`; anything else (text, nan, an infinity, a negative
or a huge value) is refused in one line (:func:`budget_from_environment`).

This module does not import Streamlit.
"""

from __future__ import annotations

import ctypes
import dataclasses
import hashlib
import logging
import math
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping

import numpy as np

log = logging.getLogger("perceptron_lab")

#: The default memory budget of the server beyond its memory at rest, in MB.
DEFAULT_LIMIT_MB = 1536
#: The share of the budget the caches may hold. The process keeps more than the bytes the
#: caches count: the allocator's partly used pages in every session thread's arena, the
#: sessions' own state, the messages Streamlit keeps for reconnecting browsers
#: (docs/benchmarks.md#memory-attacks measures the difference).
CACHED_SHARE = 0.85
#: The default time after which an entry nobody used is dropped, in minutes.
DEFAULT_IDLE_MINUTES = 30
#: How often the sweeper looks for idle entries, in seconds.
SWEEP_SECONDS = 60


def nbytes(obj, _seen: set | None = None) -> int:
    """The bytes of the arrays and byte strings ``obj`` holds, followed through containers,
    dataclasses and objects' attributes, each counted once.

    Python's own objects (numbers, short strings, the containers themselves)
    are left out: next to the arrays a cached entry holds they are small.

    Examples
    --------
    >>> import numpy as np
    >>> a = np.zeros(1000)
    >>> nbytes({"a": a, "again": a, "b": [b"xy", np.ones(10, dtype=np.int8)]})
    8012
    """
    seen = set() if _seen is None else _seen
    if id(obj) in seen:
        return 0
    seen.add(id(obj))
    if isinstance(obj, np.ndarray):
        # A view of another array counts that array once; an array on memory NumPy does
        # not own (numba's, a buffer's) counts its own bytes.
        return nbytes(obj.base, seen) if isinstance(obj.base, np.ndarray) else obj.nbytes
    if isinstance(obj, bytes | bytearray | memoryview):
        return len(obj)
    if isinstance(obj, str | int | float | complex | bool | type(None) | type):
        return 0
    if isinstance(obj, dict):
        return sum(nbytes(k, seen) + nbytes(v, seen) for k, v in obj.items())
    if isinstance(obj, list | tuple | set | frozenset):
        return sum(nbytes(item, seen) for item in obj)
    if hasattr(obj, "__dict__"):  # every attribute, also those a dataclass does not declare
        return nbytes(vars(obj), seen)
    if dataclasses.is_dataclass(obj):  # one with slots
        return sum(nbytes(getattr(obj, f.name), seen) for f in dataclasses.fields(obj))
    return 0


def digest(*arrays: np.ndarray) -> str:
    """A key for the contents of ``arrays`` (shape, type and bytes of each).

    Examples
    --------
    >>> import numpy as np
    >>> digest(np.zeros(3)) == digest(np.zeros(3)), digest(np.zeros(3)) == digest(np.zeros(4))
    (True, False)
    """
    h = hashlib.blake2b(digest_size=16)
    for a in arrays:
        a = np.ascontiguousarray(a)
        h.update(f"{a.dtype.str}{a.shape}".encode())
        h.update(a.data)
    return h.hexdigest()


@dataclasses.dataclass(frozen=True)
class _KeptError:
    """A refusal kept as a cache's value (:meth:`Budget.cached`'s ``keep_errors``)."""

    error: Exception


def _no_bytes(value) -> int:
    return 0


@dataclasses.dataclass
class _Entry:
    value: object
    size: int
    used: float


class Budget:
    """Caches that share one limit in bytes and drop what nobody used for a while.

    Parameters
    ----------
    limit : int
        The most bytes all entries together may hold.
    idle_seconds : float
        An entry not asked for during this long is dropped.
    clock : callable, optional
        The time in seconds (``time.monotonic``; tests pass their own).
    sweep_every : float, optional
        Also drop idle entries in a background thread this often (seconds),
        started by the first request, then call :attr:`after_sweep`'s functions
        and hand what was freed back to the system; None leaves it to the
        requests.

    Examples
    --------
    >>> import numpy as np
    >>> budget = Budget(limit=20_000, idle_seconds=60)
    >>> a = budget.cached("arrays", 1, lambda: np.zeros(1000))   # 8,000 bytes
    >>> b = budget.cached("arrays", 2, lambda: np.zeros(1000))
    >>> c = budget.cached("arrays", 3, lambda: np.zeros(1000))   # over 20,000: 1 goes
    >>> budget.held(), budget.cached("arrays", 2, lambda: None) is b
    (16000, True)
    """

    def __init__(
        self,
        limit: int,
        idle_seconds: float,
        clock: Callable[[], float] = time.monotonic,
        sweep_every: float | None = None,
    ):
        self.limit = int(limit)
        self.idle_seconds = float(idle_seconds)
        self._clock = clock
        self._entries: OrderedDict[tuple, _Entry] = OrderedDict()  # least recently used first
        self._held = 0
        self._reserved = 0
        self._lock = threading.Lock()
        self._making: dict[tuple, threading.Lock] = {}
        self._sweep_every = sweep_every
        self._sweeper: threading.Thread | None = None
        #: Called after each background sweep: what else lets go of memory the caches let go
        #: of (the app's Streamlit side adds the forgetting of the downloads it served).
        self.after_sweep: list[Callable[[], None]] = []

    def cached(
        self,
        cache: str,
        key: Hashable,
        make: Callable[[], object],
        size: Callable[[object], int] = nbytes,
        keep_errors: tuple[type[Exception], ...] = (),
    ):
        """The value of ``cache``/``key``: kept, or made by ``make()`` and kept.

        Two sessions asking for the same entry at once make it once: the
        second waits for the first. A value larger than the whole limit is
        returned without being kept; an exception from ``make`` is not kept,
        unless it is one of ``keep_errors``: then it is kept (a refusal costs its
        work once) and raised again to whoever asks.

        Examples
        --------
        >>> budget, calls = Budget(limit=1000, idle_seconds=60), []
        >>> def refuse():
        ...     calls.append(1)
        ...     raise ValueError("no")
        >>> for _ in range(2):
        ...     try:
        ...         budget.cached("files", 1, refuse, keep_errors=(ValueError,))
        ...     except ValueError as err:
        ...         print(err)
        no
        no
        >>> len(calls)
        1
        """
        value = self._cached(cache, key, make, size, keep_errors)
        if isinstance(value, _KeptError):
            raise value.error
        return value

    def _cached(self, cache, key, make, size, keep_errors):
        if self._sweep_every is not None and self._sweeper is None:
            self._start_sweeper()
        slot = (cache, key)
        found = self._get(slot)
        if found is not None:
            return found.value
        with self._lock:
            making = self._making.setdefault(slot, threading.Lock())
        with making:
            found = self._get(slot)
            if found is not None:
                return found.value
            try:
                try:
                    value = make()
                except keep_errors as err:
                    value = _KeptError(err.with_traceback(None))
                    size = _no_bytes
                self._put(slot, value, size(value) + nbytes(key))  # a key may hold a file
                return value
            finally:
                with self._lock:
                    self._making.pop(slot, None)

    def peek(self, cache: str, key: Hashable):
        """The kept value of ``cache``/``key``, or None (for a cache that makes its values
        itself, e.g. with a progress bar other sessions follow)."""
        found = self._get((cache, key))
        return None if found is None else found.value

    def keep(self, cache: str, key: Hashable, value, size: Callable[[object], int] = nbytes):
        """Keep ``value`` as ``cache``/``key`` (see :meth:`peek`)."""
        self._put((cache, key), value, size(value) + nbytes(key))

    def reserve(self, size: int) -> bool:
        """Count ``size`` bytes that are about to be allocated (a view being made) against the
        limit, before they are: True when they fit beside the other reservations, after
        dropping the least recently used entries to make room; False (nothing reserved) when
        the reservations would pass the limit. :meth:`release` gives them back.

        Examples
        --------
        >>> import numpy as np
        >>> budget = Budget(limit=20_000, idle_seconds=60)
        >>> _ = budget.cached("arrays", 1, lambda: np.zeros(1000))    # 8,000 bytes kept
        >>> budget.reserve(15_000), budget.held(), budget.reserved()    # the entry made room
        (True, 0, 15000)
        >>> budget.reserve(10_000)                                       # 25,000: over
        False
        >>> budget.release(15_000); budget.reserved()
        0
        """
        with self._lock:
            if self._reserved + size > self.limit:
                return False
            self._reserved += size
            self._fit_limit()
            return True

    def release(self, size: int) -> None:
        """Give back bytes :meth:`reserve` counted."""
        with self._lock:
            self._reserved = max(0, self._reserved - size)

    def reserved(self) -> int:
        """Bytes reserved now (:meth:`reserve`)."""
        with self._lock:
            return self._reserved

    def forget(self, cache: str) -> None:
        """Drop every entry of ``cache``."""
        with self._lock:
            for slot in [slot for slot in self._entries if slot[0] == cache]:
                self._held -= self._entries.pop(slot).size

    def _get(self, slot: tuple) -> _Entry | None:
        with self._lock:
            self._drop_idle()
            entry = self._entries.get(slot)
            if entry is not None:
                entry.used = self._clock()
                self._entries.move_to_end(slot)
            return entry

    def _put(self, slot: tuple, value, size: int) -> None:
        if size > self.limit:
            return
        with self._lock:
            if slot in self._entries:
                self._held -= self._entries.pop(slot).size
            self._entries[slot] = _Entry(value, size, self._clock())
            self._held += size
            self._fit_limit()

    def _fit_limit(self) -> None:
        """Drop the least recently used entries until they and the reservations fit the limit
        (the caller holds the lock)."""
        while self._entries and self._held + self._reserved > self.limit:
            _, dropped = self._entries.popitem(last=False)
            self._held -= dropped.size

    def _drop_idle(self) -> None:
        """Drop the entries idle for longer than the idle time (the caller holds the lock)."""
        oldest_allowed = self._clock() - self.idle_seconds
        while self._entries:
            slot, entry = next(iter(self._entries.items()))
            if entry.used >= oldest_allowed:
                break
            del self._entries[slot]
            self._held -= entry.size

    def sweep(self) -> None:
        """Drop the idle entries now."""
        with self._lock:
            self._drop_idle()

    def _start_sweeper(self) -> None:
        with self._lock:
            if self._sweeper is not None:
                return
            self._sweeper = threading.Thread(
                target=self._sweep_forever, daemon=True, name="cache-sweeper"
            )
        self._sweeper.start()

    def _sweep_forever(self) -> None:
        while True:
            time.sleep(self._sweep_every)
            self.sweep()
            for then in self.after_sweep:
                try:
                    then()
                except Exception:  # a clean-up that failed must not stop the sweeps
                    log.exception("A clean-up after the memory sweep failed")
            release_freed_memory()  # also what closed sessions freed, not only dropped entries

    def held(self, cache: str | None = None) -> int:
        """Bytes kept, in all caches or in ``cache``."""
        with self._lock:
            if cache is None:
                return self._held
            return sum(e.size for (name, _), e in self._entries.items() if name == cache)


def release_freed_memory() -> None:
    """Hand memory freed by dropped entries back to the system, where the C library can.

    glibc keeps freed blocks in its per-thread arenas, and NumPy arrays below its
    adaptive mmap threshold (up to 32 MB) come from those arenas: without a trim, a
    server's resident size stays at its peak although the caches hold much less.
    """
    try:
        ctypes.CDLL(None).malloc_trim(0)
    except (AttributeError, OSError):  # not glibc: nothing to do
        pass


#: The largest values the environment may set (4 TiB, a year): a larger one is a typo, and
#: an infinite one cannot size anything.
MOST_LIMIT_MB = 2**22
MOST_IDLE_MINUTES = 525_600


def number_from_environment(
    environ: Mapping[str, str], name: str, default: float, most: float, whole: bool = False
) -> float:
    """The number ``environ[name]`` gives, ``default`` when unset; ValueError (one line that
    names the variable and what it accepts) for anything but a number above 0, at most
    ``most`` (with ``whole``, a whole number from 1): text, nan, infinities, zero, negative
    and huge values.

    Examples
    --------
    >>> number_from_environment({"N": "4"}, "N", 2, 10, whole=True)
    4.0
    >>> number_from_environment({"N": "0.5"}, "N", 2, 10)
    0.5
    """
    text = environ.get(name, "").strip()
    if not text:
        return default
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if whole and not (value.is_integer() and value >= 1):
        value = math.nan
    if not 0 < value <= most:  # nan fails every comparison
        accepted = (
            f"a whole number from 1 to {most:,}" if whole else f"a number from above 0 to {most:,}"
        )
        raise ValueError(
            f"{name}={text[:60]!r} is not accepted: give {accepted} (default {default:g})."
        )
    return value


def budget_from_environment(environ: Mapping[str, str] = os.environ) -> Budget:
    """The server's :class:`Budget`, from ``PERCEPTRON_LAB_MEMORY_MB`` and
    ``PERCEPTRON_LAB_IDLE_MINUTES`` (``perceptron-lab app`` checks them with this before
    Streamlit starts, so a wrong one is one line, not a traceback in the server's log).

    Examples
    --------
    >>> budget = budget_from_environment({"PERCEPTRON_LAB_MEMORY_MB": "100"})
    >>> budget.limit == int(100 * 2**20 * CACHED_SHARE)
    True
    >>> budget_from_environment({"PERCEPTRON_LAB_MEMORY_MB": "inf"})
    Traceback (most recent call last):
    ...
    ValueError: PERCEPTRON_LAB_MEMORY_MB='inf' is not accepted: give a number from above 0 ...
    """
    limit_mb = number_from_environment(
        environ, "PERCEPTRON_LAB_MEMORY_MB", DEFAULT_LIMIT_MB, MOST_LIMIT_MB
    )
    idle_minutes = number_from_environment(
        environ, "PERCEPTRON_LAB_IDLE_MINUTES", DEFAULT_IDLE_MINUTES, MOST_IDLE_MINUTES
    )
    return Budget(
        limit=int(limit_mb * 2**20 * CACHED_SHARE),
        idle_seconds=idle_minutes * 60,
        sweep_every=SWEEP_SECONDS,
    )


#: The budget every process-wide cache of the app shares.
SERVER = budget_from_environment()
