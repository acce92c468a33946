"""Compiling the learners before a visitor needs them: in the background, on first use, or all now.

numba compiles a learner's loops the first time it trains in a process (or
loads them from numba's on-disk cache, which is much faster). A
:class:`Warmup` compiles a list of learners once per process, each exactly
once, whoever asks first:

* the app's first page run starts :meth:`Warmup.start_background`, a thread
  that goes through the list in order;
* a page that needs a learner calls :meth:`Warmup.ensure` first: it returns
  at once when the learner is ready, waits while another thread is compiling
  it, and otherwise compiles it in the caller's thread (so the default page
  compiles only its own learner, never the whole list);
* ``perceptron-lab warm`` calls :meth:`Warmup.ensure` for each learner in
  turn, ahead of time, so that even the first learner loads from the cache.

The background thread can first hand the learners nobody has asked for yet
to ``compile_ahead``, which compiles them into numba's on-disk cache in
another process (:func:`in_child_process`): numba's compiler is
Python that holds the GIL, so compiled in a thread of the server it slowed
every page served meanwhile. The thread then only loads them from the cache.

Sessions are threads of one server process; every method may be called from
any of them at once. A learner whose compilation fails is reported (log and
:meth:`Warmup.status`) and counts as done, so nobody waits for it forever:
its next fit tries again and shows the error where the page trains.

When the process ends (the server stops, a script returns), :meth:`Warmup.stop`
runs first (``atexit``): no other learner starts, the children compiling ahead
end, and the learner being loaded finishes. A process that exits while
another thread is inside numba's compiler can abort in LLVM ("terminate
called without an active exception").
This module does not import Streamlit or the learners: what "compile"
means is the ``compile_one`` function it is given (see :mod:`app_logic.training`).
"""

from __future__ import annotations

import atexit
import logging
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

log = logging.getLogger("perceptron_lab")

#: The child of :func:`in_child_process`: argv is a module of the app, one of its functions,
#: then the function's arguments.
_CHILD = """
import importlib, os, sys, threading
if hasattr(os, "nice"):
    os.nice(19)  # only the CPU that pages and browsers leave
def orphaned():  # stdin ends when the server process does: stop working for nobody
    sys.stdin.read()
    os._exit(0)
threading.Thread(target=orphaned, daemon=True).start()
module, function, *args = sys.argv[1:]
getattr(importlib.import_module(module), function)(*args)
"""


#: The children of :func:`in_child_process` still running, for :func:`end_children`.
_children: set[subprocess.Popen] = set()
_children_lock = threading.Lock()


def in_child_process(module: str, function: str, *args: str) -> None:
    """Run ``module.function(*args)`` of the app in a child process at the lowest priority,
    and wait for it.

    For the warm-up's work: numba's compiler is Python that holds the GIL, so
    compiling in a thread of the server slowed every page served meanwhile; a
    child takes only the CPU that pages and browsers leave, and fills numba's
    on-disk cache (and the lessons' results) for this process to load. The child
    stops when this process ends, or at :func:`end_children`. Raises
    ``subprocess.CalledProcessError`` (with the child's output) when it fails.
    """
    command = [sys.executable, "-c", _CHILD, module, function, *args]
    pipes = {"stdin": subprocess.PIPE, "stdout": subprocess.PIPE, "stderr": subprocess.STDOUT}
    with subprocess.Popen(command, text=True, **pipes) as child:
        with _children_lock:
            _children.add(child)
        try:
            output = child.stdout.read()  # until the child ends; its stdin stays open till then
        finally:
            with _children_lock:
                _children.discard(child)
    if child.returncode:
        raise subprocess.CalledProcessError(child.returncode, command, output)


def end_children() -> None:
    """Terminate the children of :func:`in_child_process` that are still running.

    Their callers then raise ``subprocess.CalledProcessError``.
    """
    with _children_lock:
        running = list(_children)
    for child in running:
        child.terminate()


@dataclass(frozen=True)
class Compiled:
    """How one learner's compilation went.

    Attributes
    ----------
    seconds : float
        Wall time of the compilation (or of loading it from numba's cache).
    error : str or None
        ``"ExceptionName: message"`` when it failed.
    """

    seconds: float
    error: str | None = None


@dataclass(frozen=True)
class WarmupStatus:
    """A snapshot of a :class:`Warmup`, for the about page.

    Attributes
    ----------
    keys : tuple of str
        Every learner of the warm-up, in its order.
    done : dict
        ``{key: Compiled}`` of the learners finished so far, in finishing order.
    seconds : float or None
        Wall time from the first compilation to the last one; None until all are done.
    running_for : float
        Seconds since the first compilation started (0 before it).
    """

    keys: tuple[str, ...]
    done: dict
    seconds: float | None
    running_for: float

    @property
    def finished(self) -> bool:
        return self.seconds is not None

    @property
    def failed(self) -> dict:
        """``{key: error}`` of the learners that did not compile."""
        return {key: c.error for key, c in self.done.items() if c.error is not None}


class Warmup:
    """One process's compilation of a list of learners, each exactly once.

    Parameters
    ----------
    keys : iterable of str
        The learners, in the order the background thread compiles them.
    compile_one : callable
        ``compile_one(key)`` compiles one learner; an exception means it failed.
    compile_ahead : callable or None
        ``compile_ahead(keys)`` fills numba's cache for these learners elsewhere; the
        background thread calls it before it compiles them itself. Its failure is
        logged, and the thread compiles them as if it had not been called.
    then : callable or None
        ``then()`` is the background thread's last step, once every learner is done
        (the app prepares the lessons' studies there, :mod:`app_logic.lesson_studies`).
        Its failure is logged.

    Examples
    --------
    >>> compiled = []
    >>> warmup = Warmup(["a", "b"], compiled.append)
    >>> warmup.ensure("b").error is None, warmup.ready("b"), warmup.ready("a")
    (True, True, False)
    >>> warmup.start_background(), warmup.wait(timeout=10), compiled
    (True, True, ['b', 'a'])
    >>> warmup.start_background()  # once per process: later calls do nothing
    False
    >>> warmup.stop()  # nothing left to wait for
    True
    """

    def __init__(
        self,
        keys: Iterable[str],
        compile_one: Callable[[str], object],
        compile_ahead: Callable[[list[str]], object] | None = None,
        then: Callable[[], object] | None = None,
    ):
        self.keys = tuple(keys)
        self._compile_one = compile_one
        self._compile_ahead = compile_ahead
        self._then = then
        # One condition guards every field below; waiters wake when any learner finishes.
        self._changed = threading.Condition()
        self._claimed: set[str] = set()
        self._done: dict[str, Compiled] = {}
        self._thread: threading.Thread | None = None
        self._stopping = False
        self._first_start: float | None = None
        self._last_end: float | None = None

    def ready(self, key: str) -> bool:
        """Whether ``key`` has been compiled (or has failed) in this process."""
        with self._changed:
            return key in self._done

    def ensure(self, key: str) -> Compiled:
        """Make sure ``key`` is compiled: at once if it is, else wait for or do its compilation.

        Returns how its compilation went (its cost, whoever paid it).
        """
        with self._changed:
            while key not in self._done:
                if key not in self._claimed:
                    self._claim(key)
                    break
                self._changed.wait()  # another thread compiles it: wait for it to finish
            else:
                return self._done[key]
        return self._compile(key)

    def start_background(self) -> bool:
        """Compile the learners nobody has asked for yet in a daemon thread; once per object.

        Returns whether this call started the thread.
        """
        with self._changed:
            if self._thread is not None:
                return False
            self._thread = threading.Thread(
                target=self._background, name="perceptron-lab-warmup", daemon=True
            )
        self._thread.start()
        return True

    def wait(self, timeout: float | None = None) -> bool:
        """Block until every learner is done (or ``timeout`` seconds); returns whether all are."""
        with self._changed:
            return self._changed.wait_for(self._all_done, timeout)

    def stop(self, timeout: float = 30.0) -> bool:
        """Start no other learner, end the children compiling ahead, and wait (at most
        ``timeout`` seconds) for the learners being compiled and the background thread.

        Registered with ``atexit`` when the first compilation starts. Returns whether
        nothing is left running. Learners asked for later with :meth:`ensure` still compile.
        """
        deadline = time.monotonic() + timeout
        with self._changed:
            self._stopping = True
            self._changed.notify_all()
            thread = self._thread
        end_children()
        with self._changed:
            idle = self._changed.wait_for(lambda: self._claimed <= self._done.keys(), timeout)
        if thread is not None:
            thread.join(max(0.0, deadline - time.monotonic()))
            idle = idle and not thread.is_alive()
        return idle

    def status(self) -> WarmupStatus:
        """What is done so far and how long it took."""
        with self._changed:
            now = time.perf_counter()
            finished = self._all_done() and self._last_end is not None
            return WarmupStatus(
                keys=self.keys,
                done=dict(self._done),
                seconds=self._last_end - self._first_start if finished else None,
                running_for=0.0 if self._first_start is None else now - self._first_start,
            )

    # -- inside the lock -------------------------------------------------------------

    def _all_done(self) -> bool:
        return all(key in self._done for key in self.keys)

    def _claim(self, key: str) -> None:
        self._claimed.add(key)
        if self._first_start is None:
            self._first_start = time.perf_counter()
            atexit.register(self.stop)

    # -- outside the lock ------------------------------------------------------------

    def _background(self) -> None:
        with self._changed:
            pending = [key for key in self.keys if key not in self._claimed]
        if pending and self._compile_ahead is not None:
            try:
                self._compile_ahead(pending)
            except Exception:
                if not self._stopping:  # else stop() ended the child
                    log.exception("Compiling %s in a child failed; compiling here", pending)
        for key in self.keys:
            with self._changed:
                if self._stopping:
                    return
                if key in self._claimed:
                    continue
                self._claim(key)
            self._compile(key)
        if self._then is not None:
            with self._changed:  # a learner a page claimed may still be compiling in its thread
                self._changed.wait_for(lambda: self._all_done() or self._stopping)
                if self._stopping:
                    return
            try:
                self._then()
            except Exception:
                log.exception("The warm-up's last step after the learners failed")

    def _compile(self, key: str) -> Compiled:
        """Compile a learner this thread has claimed, and record the outcome for everybody."""
        start = time.perf_counter()
        error = "interrupted"  # kept only if something stronger than an Exception stops us
        try:
            self._compile_one(key)
            error = None
        except Exception as err:
            error = f"{type(err).__name__}: {err}"
            log.exception("Compiling the learner %r failed", key)
        finally:
            end = time.perf_counter()
            compiled = Compiled(end - start, error)
            with self._changed:
                self._done[key] = compiled
                self._last_end = end
                self._changed.notify_all()
        return compiled
