"""What one view costs the server: its memory, estimated before it is made, and its CPU,
metered while it is made.

A view (a page's runs, their payload, the message that carries it) is let in by the
:mod:`admission <app_logic.admission>` gate with :func:`view_bytes` reserved in the
server's memory budget, and made under a :class:`CpuMeter`: the work of all its learners
together (compare mode's lanes are one view) stops with a message once it has used
:data:`MAX_VIEW_CPU_SECONDS` of CPU. The limits that keep most views well within it are
checked before anything runs (``check_run_size`` and ``check_voted_cost`` in
:mod:`app_logic.training`); the meter holds the budget whatever the data turn out to need.
``docs/deploy.md`` ("CPU per view", "Admission") gives the measured figures.

This module does not import Streamlit.
"""

from __future__ import annotations

import contextvars
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from perceptron_core.datasets import DataError
from perceptron_lab.app_logic.learners import LEARNERS, LINE

#: The most CPU one view may cost the server, in seconds (its data, all its runs, their
#: final predictions and test errors, its payload: ``docs/deploy.md``, "CPU per view").
MAX_VIEW_CPU_SECONDS = 10.0

#: Bytes a view allocates while it is made, per recorded visit of each lane, over the bytes
#: its replay keeps (the fit's growing buffers, the timeline, the payload's arrays and its
#: serialised message): measured peak over the replay's bytes, with a margin
#: (docs/benchmarks.md#view-memory).
TRANSIENT_PER_VISIT = 260
#: More per visit for data of more than two features: the projection view's snapshots.
PROJECTION_PER_VISIT = 1500
#: Bytes per point and feature, per lane (the data's copies, the predictions, the payload's
#: point arrays).
PER_POINT_FEATURE = 48
#: What any view allocates besides (the page's elements, the message's envelope).
BASE_BYTES = 4 * 2**20


def view_bytes(
    n_points: int, n_test: int, n_features: int, epochs: int, learner_keys: tuple[str, ...]
) -> int:
    """An upper estimate of the bytes making a view allocates: per lane, the replay's most
    (a step per visit, a line's weights per update at most one per visit, at most the
    replay a view may hold), the transients around it, and the points.

    Examples
    --------
    >>> view_bytes(100, 0, 2, 20, ("perceptron",)) < 16 * 2**20    # the default page: light
    True
    >>> one = view_bytes(1000, 1000, 2, 200, ("voted",))
    >>> view_bytes(1000, 1000, 2, 200, ("voted", "margin", "longest", "perceptron")) > 3 * one
    True
    """
    from perceptron_lab.app_logic.training import MAX_RUN_BYTES, STEP_BYTES

    visits = n_points * epochs
    total = BASE_BYTES
    for key in learner_keys:
        replay = STEP_BYTES + (8 * n_features if LEARNERS[key].boundary == LINE else 0)
        # a run whose replay could hold more is refused before it allocates (check_run_size)
        total += min(visits * replay, MAX_RUN_BYTES)
        projected = PROJECTION_PER_VISIT if n_features > 2 else 0
        total += visits * (TRANSIENT_PER_VISIT + projected)
        total += (n_points + n_test) * n_features * PER_POINT_FEATURE
    return int(total)


class CpuMeter:
    """The CPU a view has used: ``before`` seconds in earlier threads, and this thread's since
    the meter started (a view is made in its page's script thread, its downloads are built in
    Streamlit's worker threads), against :data:`MAX_VIEW_CPU_SECONDS`.

    Examples
    --------
    >>> meter = CpuMeter(limit=1e9)
    >>> meter.check()
    >>> meter.spent() >= 0
    True
    >>> CpuMeter(limit=5.0, before=6.0).check()
    Traceback (most recent call last):
    ...
    perceptron_core.datasets.DataError: This view has used its 5 CPU-seconds ...
    """

    def __init__(self, limit: float | None = None, clock=time.thread_time, before: float = 0.0):
        self.limit = MAX_VIEW_CPU_SECONDS if limit is None else limit
        self._clock = clock
        self.before = before
        self.start = clock()

    def spent(self) -> float:
        return self.before + self._clock() - self.start

    def check(self) -> None:
        """Raise :class:`~perceptron_core.datasets.DataError` once the view is over its CPU."""
        if self.spent() > self.limit:
            raise DataError(
                f"This view has used its {self.limit:g} CPU-seconds (all its learners and its "
                "downloads together), and its work was stopped. Use fewer points, epochs or "
                "compared learners (the experiments page and the command line have no such "
                "limit)."
            )


class CpuAccount:
    """The CPU-seconds one view has cost so far, over every thread that worked for it: what
    :func:`metered` adds when each of its blocks ends (the view's making, then each download
    built for it, in Streamlit's worker threads).

    Examples
    --------
    >>> account = CpuAccount()
    >>> with metered(account=account):
    ...     pass
    >>> with metered(account=account) as meter:   # a download of that view, later
    ...     meter.before == account.seconds
    True
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.seconds = 0.0

    def add(self, seconds: float) -> None:
        with self._lock:
            self.seconds += seconds


@dataclass(frozen=True)
class _View:
    meter: CpuMeter
    interrupt: Callable[[], None]
    account: CpuAccount


_VIEW: contextvars.ContextVar[_View | None] = contextvars.ContextVar("view", default=None)


@contextmanager
def metered(
    limit: float | None = None,
    interrupt: Callable[[], None] = lambda: None,
    account: CpuAccount | None = None,
) -> Iterator[CpuMeter]:
    """Make a view, or a part of one, in the block under one :class:`CpuMeter` of ``limit``
    CPU-seconds (:data:`MAX_VIEW_CPU_SECONDS` by default), for a visitor whom ``interrupt()``
    asks whether they still want it (it raises when not): :func:`look` asks both. The block's
    CPU is added to ``account`` (a new one by default), which counts what earlier blocks for the
    same view cost (:func:`current_account`)."""
    account = CpuAccount() if account is None else account
    meter = CpuMeter(limit, before=account.seconds)
    token = _VIEW.set(_View(meter, interrupt, account))
    try:
        yield meter
    finally:
        _VIEW.reset(token)
        account.add(meter.spent() - meter.before)


def current_account() -> CpuAccount | None:
    """The account of the view being made in this thread (None outside :func:`metered`): what
    its downloads, built later in other threads, are counted in."""
    view = _VIEW.get()
    return None if view is None else view.account


def check_cpu() -> None:
    """Raise when the view being made in this thread is over its CPU (nothing outside
    :func:`metered`)."""
    view = _VIEW.get()
    if view is not None:
        view.meter.check()


def look() -> None:
    """What the work of the view being made in this thread asks between its parts (the
    payload's lanes, a download's parts): raise when its visitor no longer wants it or its
    CPU is spent (nothing outside :func:`metered`).

    Examples
    --------
    >>> look()                       # no view is being made: nothing to ask
    >>> def gone():
    ...     raise LookupError("the visitor left")
    >>> with metered(interrupt=gone):
    ...     look()
    Traceback (most recent call last):
    ...
    LookupError: the visitor left
    """
    view = _VIEW.get()
    if view is not None:
        view.interrupt()
        view.meter.check()


def with_cpu_check(interrupt: Callable[[], None]) -> Callable[[], None]:
    """``interrupt`` followed by :func:`check_cpu`: what the view's work asks between parts.

    Examples
    --------
    >>> with metered(limit=-1.0):
    ...     with_cpu_check(lambda: None)()
    Traceback (most recent call last):
    ...
    perceptron_core.datasets.DataError: This view has used its -1 CPU-seconds ...
    """

    def check() -> None:
        interrupt()
        check_cpu()

    return check
