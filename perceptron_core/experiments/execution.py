"""Running many independent cells: in parallel, on a cluster, with progress and a cache.

:func:`run_cells` takes a list of :class:`Cell` (a key and a call) and
returns their results in order. Cells found in the cache are not run; the
others run with joblib, in local processes by default
(``jobs`` of them), or on a Dask cluster when ``scheduler`` names its address
(joblib's ``"dask"`` backend on a :class:`dask.distributed.Client`). A
progress bar (tqdm) counts finished cells and estimates the time left. Every
finished cell is written to the cache at once, so an interrupted run loses
only the cells that were running.

Results do not depend on where or in which order cells run: every random
choice inside a cell comes from seeds fixed in its specification.

A local worker ends when the process that started it ends, however it ended
(:func:`exit_with_parent`): a run killed with SIGKILL runs no clean-up, and its
workers would otherwise finish their cells for nobody.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from perceptron_core.experiments.cache import DiskCache


@dataclass(frozen=True)
class Cell:
    """One unit of work: ``func(*args)`` returns a dict of NumPy arrays.

    ``key`` is its cache key (:func:`~perceptron_core.experiments.cache.cell_key`
    of its full specification); ``func`` must be a module-level function so
    that worker processes can import it.
    """

    key: str
    func: Callable
    args: tuple = field(default=())


def _call(index, func, args):
    return index, func(*args)


#: How often a worker checks that the process that started it is still there (seconds).
PARENT_CHECK_SECONDS = 1.0


def exit_with_parent(parent: int) -> None:
    """In a worker process: end it as soon as ``parent``, the process that started it, has
    ended (a thread checks every :data:`PARENT_CHECK_SECONDS`; the compiled loops release
    the GIL, so it runs while a cell computes).

    An orphan is adopted by another process, so its parent's id changes; this works
    whatever killed the parent, SIGKILL included, and whichever of its threads started
    the worker (Linux's ``PR_SET_PDEATHSIG`` follows the starting thread, and the app
    starts workers from a page's thread, which ends with the page's run).
    """

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, daemon=True, name="exit-with-parent").start()


def default_jobs() -> int:
    """All the cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def run_cells(
    cells: list[Cell],
    *,
    jobs: int | None = None,
    scheduler: str | None = None,
    cache_dir=None,
    cache_max_bytes: int | None = None,
    progress=False,
    desc: str = "cells",
) -> list[dict]:
    """Results of ``cells``, in order; cached ones are read, the others computed.

    Parameters
    ----------
    cells : list of Cell
    jobs : int, optional
        Local worker processes (default: every core); 1 runs in this process.
        Ignored with a ``scheduler``.
    scheduler : str, optional
        Address of a Dask scheduler (``tcp://host:8786``): the cells run on
        that cluster's workers, which need ``perceptron_core`` installed.
    cache_dir : path, optional
        Folder of the disk cache (created when needed); None: no cache.
    cache_max_bytes : int, optional
        Size cap of that folder: past it the oldest cells are removed
        (:class:`~perceptron_core.experiments.cache.DiskCache`). None: no cap.
    progress : bool or callable, default=False
        True shows a progress bar with the time left (on standard error); a
        callable is called as ``progress(done, total)`` after each cell (and
        once at the start), e.g. to drive the app's progress bar.
    desc : str
        The progress bar's label.

    Returns
    -------
    list of dict

    Examples
    --------
    >>> import numpy as np
    >>> cells = [Cell(f"cell-{i}", _as_dict, (np.arange, i)) for i in range(3)]
    >>> [r["value"].tolist() for r in run_cells(cells, jobs=1)]
    [[], [0], [0, 1]]
    """
    cache = DiskCache(cache_dir, cache_max_bytes) if cache_dir is not None else None
    results: list = [None] * len(cells)
    todo = []
    for i, cell in enumerate(cells):
        stored = cache.get(cell.key) if cache is not None else None
        if stored is None:
            todo.append(i)
        else:
            results[i] = stored
    bar = _progress_bar(len(cells), len(cells) - len(todo), desc, progress)
    try:
        for i, result in _execute(
            [(i, cells[i].func, cells[i].args) for i in todo], jobs, scheduler
        ):
            results[i] = result
            if cache is not None:
                cache.put(cells[i].key, result)
            bar.update(1)
    finally:
        bar.close()
    return results


def _as_dict(func, *args) -> dict:
    """``{"value": func(*args)}`` (for examples and tests)."""
    return {"value": func(*args)}


class _NoBar:
    def update(self, n):
        pass

    def close(self):
        pass


class _CallbackBar:
    """Reports ``(done, total)`` to a function instead of drawing a bar."""

    def __init__(self, callback, total, done):
        self.callback, self.total, self.done = callback, total, done
        callback(done, total)

    def update(self, n):
        self.done += n
        self.callback(self.done, self.total)

    def close(self):
        pass


def _progress_bar(total, done, desc, show):
    if callable(show):
        return _CallbackBar(show, total, done)
    if not show:
        return _NoBar()
    from tqdm.auto import tqdm

    return tqdm(
        total=total,
        initial=done,
        desc=desc,
        unit="cell",
        file=sys.stderr,
        smoothing=0.05,
        dynamic_ncols=True,
    )


def _in_own_processes(calls, jobs: int):
    """Yield ``(index, result)`` as calls finish in worker processes of this run's own.

    Not joblib's process-wide reusable executor: a run that stops early (its page's visitor
    left, or it failed) shuts its workers down, and with a shared executor that stop ended
    every other run of the process with it (two visitors of the experiments page). The
    workers exit with this process (:func:`exit_with_parent`).
    """
    from concurrent.futures import FIRST_COMPLETED, wait

    from joblib.externals.loky import ProcessPoolExecutor

    pool = ProcessPoolExecutor(
        max_workers=min(jobs, len(calls)), initializer=exit_with_parent, initargs=(os.getpid(),)
    )
    pending = {pool.submit(_call, i, f, a) for i, f, a in calls}
    try:
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                yield future.result()
    finally:  # a stop before the end: the workers are killed, the calls left are dropped
        pool.shutdown(wait=not pending, kill_workers=bool(pending))


def _execute(calls, jobs, scheduler):
    """Yield ``(index, result)`` as calls finish (in any order)."""
    if not calls:
        return
    if scheduler is None and (jobs == 1 or (jobs is None and default_jobs() == 1)):
        for index, func, args in calls:  # in this process: no pickling, easy to debug
            yield _call(index, func, args)
        return
    if scheduler is None:
        yield from _in_own_processes(calls, default_jobs() if jobs is None else jobs)
        return
    from joblib import Parallel, delayed, parallel_config

    tasks = (delayed(_call)(i, f, a) for i, f, a in calls)
    try:
        from dask.distributed import Client
    except ImportError as err:
        raise ValueError(
            "Running on a Dask cluster needs dask.distributed: pip install 'dask[distributed]'."
        ) from err
    with Client(scheduler) as client, parallel_config(backend="dask"):
        n = max(1, sum(client.nthreads().values()))
        yield from Parallel(n_jobs=n, return_as="generator_unordered")(tasks)
