"""Admission control: how many views a server process makes at once, and in what order.

A *view* is what one page run computes and sends for a visitor: its runs, their payload and
the message that carries it to the browser. Making one costs CPU and, for a few seconds,
memory beyond what the caches keep; a class that opens a link at once would otherwise make
every view at once and take the process past its memory (``docs/deploy.md``, "Admission").
A :class:`Gate` lets at most ``slots`` views be made at once, and one more *light* view (an
estimate under :data:`LIGHT_BYTES`, such as a page whose runs are cached) so that a small
page never waits behind a class's heavy ones. The others wait in a queue, in arrival order,
light before heavy:

* a view's memory is counted against the server's :class:`~app_logic.memory.Budget` before
  it is allocated (:meth:`Budget.reserve`, which drops cached entries to make room), from an
  estimate of the request (:mod:`app_logic.view_cost`); a view that does not fit waits for
  the views being made to finish, and one that could never fit is refused;
* the same view asked for by many (one key) is made once: while one visitor's is being
  made, the others with that key wait for it (a single flight), and then find its result in
  the caches;
* a waiting visitor is told their place (:class:`Place`) when it changed, looked at every
  ``poll_seconds`` (their thread is woken early only when the view is let in), and leaves
  the queue as soon as their ``interrupt``, asked at each look, raises (the tab was closed,
  or a rerun replaced the page: Streamlit's own check, or a Cancel button's).

The gate knows nothing of Streamlit: a page passes the functions that show the place and
ask whether the visitor is still there (``ui/waiting.py`` does it for the app's pages).

Examples
--------
>>> from perceptron_lab.app_logic.memory import Budget
>>> gate = Gate(slots=1, budget=Budget(limit=10_000_000, idle_seconds=60))
>>> with gate.admitted("view-1", lambda: 1_000_000):
...     gate.status()
Status(making=1, waiting=0, reserved=1000000)
>>> gate.status()
Status(making=0, waiting=0, reserved=0)
"""

from __future__ import annotations

import itertools
import math
import os
import threading
import time
from collections.abc import Callable, Hashable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field

from perceptron_lab.app_logic.memory import SERVER, Budget, number_from_environment

#: A view whose memory estimate is under this is *light*: it goes ahead of heavy ones in the
#: queue and may use the one slot beyond ``slots`` (a page whose runs are cached costs the
#: message that carries its payload; the default playground's view is under 1 MB).
LIGHT_BYTES = 16 * 2**20
#: How often a waiting visitor's place is looked at again (and their interrupt asked), seconds.
POLL_SECONDS = 0.25
#: The least time between two places shown to one waiting visitor, seconds. Shown at each
#: change, a class of 100 at once drew about 5,000 places (each an update of the page, and
#: each said by a screen reader).
PLACE_SECONDS = 1.0
#: The most views a process may be told to make at once.
MOST_SLOTS = 256


class Refused(ValueError):
    """A view the server could never make: its memory estimate is over the whole budget."""


@dataclass(frozen=True)
class Place:
    """Where a waiting view is.

    Attributes
    ----------
    ahead : int
        Views that will be made before this one (waiting ahead of it in the queue).
    making : int
        Views being made now.
    same_view : bool
        The very same view is being made for another visitor: this one waits for its result.
    """

    ahead: int
    making: int
    same_view: bool = False

    def sentence(self) -> str:
        """The place in words, for a page.

        Examples
        --------
        >>> Place(ahead=2, making=2).sentence()
        '2 views ahead of yours in the queue (2 being made now).'
        >>> Place(ahead=0, making=1, same_view=True).sentence()
        'The same view is being made for another visitor; yours will show its result.'
        """
        if self.same_view:
            return "The same view is being made for another visitor; yours will show its result."
        if self.ahead == 0:
            return f"Yours is next in the queue ({self.making} being made now)."
        views = "view" if self.ahead == 1 else "views"
        return f"{self.ahead} {views} ahead of yours in the queue ({self.making} being made now)."


@dataclass(frozen=True)
class Status:
    """The gate at a glance.

    Attributes
    ----------
    making, waiting : int
        Views being made, and waiting in the queue.
    reserved : int
        The bytes the views being made reserved in the budget.
    """

    making: int
    waiting: int
    reserved: int


@dataclass(eq=False)
class _Ticket:
    key: Hashable
    estimate: Callable[[], int]
    serial: int
    light: bool = False
    admitted: bool = False
    size: int = 0
    place: Place | None = field(default=None, repr=False)
    #: Set once the view is let in: its waiting thread is woken alone, not with every other.
    let_in: threading.Event = field(default_factory=threading.Event, repr=False)


class Gate:
    """At most ``slots`` views made at once (and one more light view), in order, each with its
    memory reserved in ``budget`` first, one per key at a time.

    Parameters
    ----------
    slots : int
        Views made at once (heavy or light), at least 1.
    budget : Budget
        Where a view's memory is reserved while it is made.
    poll_seconds : float
        How often a waiting view looks at its place and asks its ``interrupt``.
    place_seconds : float
        The least time between two places shown to one waiting view (:data:`PLACE_SECONDS`).
    light_bytes : int
        Views under this estimate are light (:data:`LIGHT_BYTES`; 0: none is, no express lane).
    """

    def __init__(
        self,
        slots: int,
        budget: Budget,
        poll_seconds: float = POLL_SECONDS,
        light_bytes: int = LIGHT_BYTES,
        place_seconds: float = PLACE_SECONDS,
    ):
        if slots < 1:
            raise ValueError(f"A gate needs at least one slot; got {slots}.")
        self.slots = int(slots)
        self.budget = budget
        self.poll_seconds = poll_seconds
        self.place_seconds = place_seconds
        self.light_bytes = light_bytes
        self._lock = threading.Lock()
        self._queue: list[_Ticket] = []  # waiting, in the order they will be let in
        self._making: list[_Ticket] = []
        self._serials = itertools.count()

    @contextmanager
    def admitted(
        self,
        key: Hashable,
        estimate: Callable[[], int],
        waiting: Callable[[Place], object] = lambda place: None,
        interrupt: Callable[[], None] = lambda: None,
    ) -> Iterator[None]:
        """Wait for a turn to make the view ``key``, make it in the block, then let the next in.

        Parameters
        ----------
        key : hashable
            The view (same key, same view: made once at a time; the others wait for it and
            then find it in the caches).
        estimate : callable
            The bytes the view will allocate while it is made; asked again whenever the view
            is considered (so a view whose runs another visitor has just made costs less).
        waiting : callable
            Called with the view's :class:`Place` when it changed while the view waits, at
            most once every ``place_seconds`` (not called for a view let in at once).
        interrupt : callable
            Asked every ``poll_seconds`` while the view waits; whatever it raises takes the
            view out of the queue and goes on to the caller.

        Raises
        ------
        Refused
            When the estimate is over the whole budget: the view could never be made.
        """
        size = int(estimate())
        if size > self.budget.limit:
            raise Refused(
                f"This view would need about {size / 2**20:,.0f} MB while it is made, more "
                f"than the {self.budget.limit / 2**20:,.0f} MB this server keeps for its "
                "visitors' views. Use fewer points, epochs or compared learners."
            )
        with self._lock:
            ticket = _Ticket(key, estimate, next(self._serials))
            self._queue.append(ticket)
            self._let_in()  # an earlier view whose estimate fell may fit now, too
        try:
            self._wait_for_turn(ticket, waiting, interrupt)
            yield
        finally:
            with self._lock:
                if ticket.admitted:
                    self._making.remove(ticket)
                    self.budget.release(ticket.size)
                else:
                    self._queue.remove(ticket)
                self._let_in()

    def _wait_for_turn(self, ticket: _Ticket, waiting, interrupt) -> None:
        # Whoever changes the queue (a view that comes or goes) lets the next views in, once,
        # and wakes only those. A waiting view looks at its place (the views behind one that
        # ended moved up) and asks its interrupt every poll_seconds; only the first in the
        # queue also walks it then. Were every view to walk the queue, or every change to
        # wake every view, a class of a hundred would walk it, and ask every view's
        # estimate, a hundred times over, or wake a hundred threads at each view's end.
        shown, shown_at = None, -math.inf
        while True:
            with self._lock:
                if ticket.admitted:
                    return
                place = self._place(ticket)
            if place != shown and time.monotonic() - shown_at >= self.place_seconds:
                waiting(place)
                shown, shown_at = place, time.monotonic()
            interrupt()
            if not ticket.let_in.wait(self.poll_seconds):
                with self._lock:
                    # a look when nothing let it in for a while: memory that the caches gave
                    # back, or an estimate that fell, lets a view in too
                    if not ticket.admitted and self._queue and self._queue[0] is ticket:
                        self._let_in()

    def _let_in(self) -> None:
        """Admit the waiting views whose turn it is, and wake them (the caller holds the
        lock)."""
        for ticket in self._queue:
            ticket.light = int(ticket.estimate()) < self.light_bytes
        self._queue.sort(key=lambda t: (not t.light, t.serial))
        for ticket in list(self._queue):
            if any(t.key == ticket.key for t in self._making):
                continue  # its single flight is in the air: it waits for that result
            if len(self._making) >= self.slots + ticket.light:
                break  # light ones come first: a heavy one behind would not fit either
            size = int(ticket.estimate())
            if not self.budget.reserve(size):
                if self._making:
                    break  # memory frees up when a view being made ends: keep the order
                size = 0  # nothing is being made: the caches were emptied for it; let it in
            ticket.size, ticket.admitted = size, True
            self._queue.remove(ticket)
            self._making.append(ticket)
            ticket.let_in.set()

    def _place(self, ticket: _Ticket) -> Place:
        same = any(t.key == ticket.key for t in self._making)
        ahead = 0 if same else self._queue.index(ticket)
        return Place(ahead=ahead, making=len(self._making), same_view=same)

    def status(self) -> Status:
        """Views being made, waiting, and the bytes reserved for them."""
        with self._lock:
            return Status(
                making=len(self._making),
                waiting=len(self._queue),
                reserved=sum(t.size for t in self._making),
            )


#: The variable that sets how many views a process makes at once (``docs/deploy.md``).
SLOTS_VARIABLE = "PERCEPTRON_LAB_VIEWS_AT_ONCE"


def default_slots() -> int:
    """Views made at once when the environment does not say: one per core the process may
    use (a view's fit and predictions keep one core busy; more at once only share them).

    Examples
    --------
    >>> default_slots() >= 1
    True
    """
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    return max(1, cores)


def gate_from_environment(
    environ: Mapping[str, str] = os.environ, budget: Budget = SERVER
) -> Gate:
    """The server's :class:`Gate`: ``PERCEPTRON_LAB_VIEWS_AT_ONCE`` slots (default
    :func:`default_slots`), reserving in ``budget``; any value but a whole number from 1 to
    :data:`MOST_SLOTS` is refused in one line (``perceptron-lab app`` checks it first).

    Examples
    --------
    >>> gate_from_environment({"PERCEPTRON_LAB_VIEWS_AT_ONCE": "3"}).slots
    3
    >>> gate_from_environment({"PERCEPTRON_LAB_VIEWS_AT_ONCE": "2.5"})
    Traceback (most recent call last):
    ...
    ValueError: PERCEPTRON_LAB_VIEWS_AT_ONCE='2.5' is not accepted: give a whole number from 1 ...
    """
    slots = number_from_environment(
        environ, SLOTS_VARIABLE, default_slots(), MOST_SLOTS, whole=True
    )
    return Gate(int(slots), budget)


#: The gate every page's views go through.
VIEWS = gate_from_environment()
#: The experiments page's runs, one at a time: each uses every core in worker processes of
#: its own (``perceptron_core.experiments``), so more at once would only share them.
EXPERIMENTS = Gate(slots=1, budget=SERVER, light_bytes=0)
