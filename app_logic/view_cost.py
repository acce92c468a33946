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
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

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
    """The CPU a view has used since it started (this thread's: the view is made in its page's
    script thread), against :data:`MAX_VIEW_CPU_SECONDS`.

    Examples
    --------
    >>> meter = CpuMeter(limit=1e9)
    >>> meter.check()
    >>> meter.spent() >= 0
    True
    """

    def __init__(self, limit: float | None = None, clock=time.thread_time):
        self.limit = MAX_VIEW_CPU_SECONDS if limit is None else limit
        self._clock = clock
        self.start = clock()

    def spent(self) -> float:
        return self._clock() - self.start

    def check(self) -> None:
        """Raise :class:`~perceptron_core.datasets.DataError` once the view is over its CPU."""
        if self.spent() > self.limit:
            raise DataError(
                f"This view has used its {self.limit:g} CPU-seconds (all its learners together) "
                "before it was ready, and was stopped. Use fewer points, epochs or compared "
                "learners (the experiments page and the command line have no such limit)."
            )


_METER: contextvars.ContextVar[CpuMeter | None] = contextvars.ContextVar(
    "view_meter", default=None
)


@contextmanager
def metered(limit: float | None = None) -> Iterator[CpuMeter]:
    """Make a view in the block under one :class:`CpuMeter` (:func:`check_cpu` asks it) of
    ``limit`` CPU-seconds (:data:`MAX_VIEW_CPU_SECONDS` by default)."""
    meter = CpuMeter(limit)
    token = _METER.set(meter)
    try:
        yield meter
    finally:
        _METER.reset(token)


def check_cpu() -> None:
    """Raise when the view being made in this thread is over its CPU (nothing outside
    :func:`metered`)."""
    meter = _METER.get()
    if meter is not None:
        meter.check()


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
