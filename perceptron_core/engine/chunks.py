"""The on-line driver in chunks, with a caller's check between them: a fit that can be stopped.

One call of the compiled driver (:func:`perceptron_core.engine.online.run_online`) runs a whole
fit and cannot be interrupted: compiled code calls no Python. A server that fits for a visitor
must stop soon after the visitor leaves, and within its CPU budget. So inside
:func:`between_chunks` the driver is called on pieces of the fit instead, for one problem at a
time, whole epochs at a time or pieces of one epoch's visiting order, and the check is asked
between them; what it raises ends the fit. The pieces visit the examples in the same order with
the same state, so the fit's numbers are those of one call, bit for bit; only the record's
tables are put together from the pieces (:func:`run_in_chunks`).

A piece is sized by the work its visits may do (:data:`WORK_PER_CHUNK`, in multiply-adds): a
visit reads its row, and records (:data:`VISIT_WORK`); a rule may read more rows in a visit
(the pocket's ratchet counts the training errors of a new hypothesis, a pass over every row),
which its estimator says (``_visit_rows``). Outside :func:`between_chunks` (the command line,
the experiments, a notebook) a fit is one call, as before.

Examples
--------
>>> import numpy as np
>>> from perceptron_core import PassiveAggressive
>>> X = np.random.default_rng(0).normal(size=(50, 2))
>>> y = (X[:, 0] > 0).astype(int)
>>> asked = []
>>> ten_visits = 10 * (VISIT_WORK + 2)     # a visit: its step and record, a row of 2
>>> with between_chunks(lambda: asked.append(1), work=ten_visits):
...     chunked = PassiveAggressive(epochs=3, random_state=0).fit(X, y)
>>> len(asked)      # 3 epochs of 50 visits, 10 a piece: asked before each of 15 pieces
15
>>> whole = PassiveAggressive(epochs=3, random_state=0).fit(X, y)
>>> bool((chunked.coef_ == whole.coef_).all())
True
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np

from perceptron_core.engine import dispatch, online

#: The most work of one piece of a fit, in multiply-adds: sized for the most a visit may read,
#: so a piece usually does less (in the compare view of docs/benchmarks.md#whole-views the
#: looks between pieces were at most 0.44 CPU-seconds apart, most of them far less).
WORK_PER_CHUNK = 2**27
#: What one visit costs besides reading its row, in multiply-adds: the step, the counts and
#: the record of the visit (a visit of two features costs about what 1,000 multiply-adds of a
#: long dot product do).
VISIT_WORK = 1024


@dataclass(frozen=True)
class _Asking:
    check: Callable[[], None]
    work: int


_ASKING: contextvars.ContextVar[_Asking | None] = contextvars.ContextVar(
    "between_chunks", default=None
)


@contextmanager
def between_chunks(check: Callable[[], None], work: int = WORK_PER_CHUNK) -> Iterator[None]:
    """In the block, the on-line rules fit in pieces of about ``work`` multiply-adds, asking
    ``check()`` before each; whatever it raises ends the fit and goes on to the caller."""
    token = _ASKING.set(_Asking(check, max(1, int(work))))
    try:
        yield
    finally:
        _ASKING.reset(token)


def asking() -> _Asking | None:
    """The check and the work per piece of the :func:`between_chunks` around this call, if any."""
    return _ASKING.get()


def visits_per_chunk(work: int, n_features: int, visit_rows: int) -> int:
    """The visits of one piece of ``work`` multiply-adds, when a visit reads ``visit_rows`` rows
    of ``n_features`` at most.

    Examples
    --------
    >>> visits_per_chunk(WORK_PER_CHUNK, 2, 1)            # a rule that reads its row
    130816
    >>> visits_per_chunk(WORK_PER_CHUNK, 2, 1 + 2 * 200_000)  # the pocket on 200,000 rows
    167
    """
    return max(1, work // (visit_rows * n_features + VISIT_WORK))


def run_in_chunks(rule, X, Y, order, counts, state, settings, plan, asked: _Asking, visit_rows=1):
    """:func:`~perceptron_core.engine.online.run` in pieces of at most
    :func:`visits_per_chunk` visits, ``asked.check()`` before each; the same results.

    Each problem is run alone (its rows of ``Y``, ``counts`` and the state's arrays: a rule's
    visit of problem ``p`` reads and writes only those), whole epochs at a time when a piece
    holds one, or in pieces of the visiting order (:class:`_Problem`).
    """
    n_epochs, stop_early = plan[:2]
    m = len(order)
    if n_epochs < 1 or m == 0:
        return online.run(rule, X, Y, order, counts, state, settings, plan)
    piece = visits_per_chunk(asked.work, X.shape[1], visit_rows)
    problems = [
        _Problem(rule, X, Y, counts, state, settings, plan, p, asked.check) for p in range(len(Y))
    ]
    for problem in problems:
        while problem.epochs < n_epochs:
            if piece >= m:  # whole epochs
                problem.run(order, min(piece // m, n_epochs - problem.epochs), stop_early)
                if stop_early and problem.converged:
                    break
                continue
            updates = problem.updates
            for start in range(0, m, piece):
                problem.run(order[start : start + piece], 1, 0, whole_epoch=False)
            problem.end_epoch(problem.updates == updates)
            if stop_early and problem.converged:
                break
    pieces = [tables for problem in problems for tables in problem.tables]
    events, updates, history = (np.concatenate(column) for column in zip(*pieces))
    stats = np.array([problem.stats() for problem in problems], dtype=np.int64)
    return events, len(events), updates, len(updates), history, len(history), stats


class _Problem:
    """One problem's fit in pieces: the calls of the driver, and their tables put together as
    one call writes them (the problem in the first column, the updates counted from the
    problem's start, the starting hypothesis once; a rule's own ``answer`` is already a number
    of the whole run)."""

    def __init__(self, rule, X, Y, counts, state, settings, plan, p, check):
        rows = slice(p, p + 1)
        self.rule, self.X, self.settings, self.plan = rule, X, settings, plan
        self.p, self.check = p, check
        # views of the problem's rows: the driver writes through them into the whole state
        self.arrays = (Y[rows], counts[rows], type(state)(*(array[rows] for array in state)))
        self.own_answer = hasattr(dispatch.RULES[dispatch.number(rule)], "answer")
        self.tables: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        self.epochs = self.updates = self.mistakes = 0
        self.converged = False

    def run(self, visits, epochs: int, stop_early: int, whole_epoch: bool = True) -> None:
        """``epochs`` passes over ``visits`` (the visiting order or a piece of it)."""
        self.check()
        _, _, record, row_offset, epoch_offset, explicit = self.plan
        plan = (epochs, stop_early, record, row_offset, epoch_offset + self.epochs, explicit)
        Y, counts, state = self.arrays
        got = online.run(self.rule, self.X, Y, visits, counts, state, self.settings, plan)
        events, n_ev, updates, n_up, history, n_hist, stats = got
        events, updates = events[:n_ev], updates[:n_up]
        # every call starts its history with the hypothesis it starts from
        history = history[1 if self.tables else 0 : n_hist]
        events[:, 5] += self.updates
        if not self.own_answer:  # the latest hypothesis, numbered in this call
            events[:, 6] += self.updates
        for table in (events, updates, history):
            table[:, 0] = self.p
        self.tables.append((events, updates, history))
        self.updates += int(stats[0, 1])
        self.mistakes += int(stats[0, 2])
        if whole_epoch:
            self.epochs += int(stats[0, 0])
            self.converged = bool(stats[0, 3])

    def end_epoch(self, without_update: bool) -> None:
        """An epoch run in pieces has ended."""
        self.epochs += 1
        self.converged = without_update

    def stats(self) -> tuple[int, int, int, int]:
        """The problem's row of the driver's statistics (:data:`~online.STAT_COLUMNS`)."""
        return self.epochs, self.updates, self.mistakes, int(self.converged)
