"""The one compiled on-line driver: epochs, visiting order, early stop, counts and the record.

:func:`run_online` runs an on-line rule (:mod:`perceptron_core.engine.dispatch`) for every
one-vs-rest problem ``p`` (row ``p`` of the ±1 target matrix ``Y``),
visiting the rows of ``X`` in ``order``. The rule decides what a visit does;
the driver counts the updates and mistakes, stops after an epoch without an
update, and with ``record > 0`` fills three growable ``float64`` tables:

* events, columns :data:`EVENT_COLUMNS`, one row per update
  (``record=1``) or per visit (``record=2``); ``answer`` is the hypothesis
  the learner answers with after the event (see
  :func:`perceptron_core.engine.dispatch.answer`);
* updates, columns :data:`UPDATE_COLUMNS`: the additive
  update sequence of :class:`~perceptron_core.trace.Trace` (NaN for rules
  whose updates are not additive);
* history, columns ``problem, theta, w_1 ... w_n``: with ``explicit``, every
  hypothesis (the initial one first), so the app never has to replay a
  multiplication or a projection.

Stopping early changes nothing but the time: with a fixed visiting order,
an epoch after one without an update would visit the same examples with the
same hypothesis.
"""

from __future__ import annotations

import numpy as np

from perceptron_core._jit import compiled_or_plain, jit, read_only
from perceptron_core.engine import dispatch
from perceptron_core.trace import CORRECT, MARGIN, MISTAKE
from perceptron_core.vectors import copy_into

#: Columns of the event table.
EVENT_COLUMNS = ("problem", "epoch", "index", "kind", "score", "n_updates", "answer")
#: Columns of the update table.
UPDATE_COLUMNS = ("problem", "index", "coef", "theta_delta")
#: Columns of the per-problem statistics :func:`run_online` returns.
STAT_COLUMNS = ("epochs_run", "n_updates", "n_mistakes", "converged")


@jit
def append_row(table, n_rows, row):
    """Write ``row`` as row ``n_rows`` of ``table``, growing it when full.

    Returns the (possibly new) table; the caller keeps the row count.
    """
    if n_rows == table.shape[0]:
        grown = np.empty((2 * table.shape[0] + 16, table.shape[1]))
        copy_into(grown, table[:n_rows])
        table = grown
    copy_into(table[n_rows], row)
    return table


def run(rule: str, X, Y, order, counts, state, settings, plan):
    """Run the rule whose module is named ``rule`` with its ``settings`` (see :func:`run_online`).

    ``settings`` (the rule's ``Settings``) cross as the one padded tuple type
    every rule passes (:func:`perceptron_core.engine.dispatch.pad`), and ``X``
    read-only (:func:`perceptron_core._jit.read_only`), so one compilation of
    the driver serves them all for a storage type of ``X``.
    """
    hp = dispatch.pad(settings)
    number = dispatch.number(rule)
    return compiled_or_plain(run_online)(number, read_only(X), Y, order, counts, state, hp, plan)


@jit
def run_online(rule, X, Y, order, counts, state, hp, plan):
    """Run rule number ``rule`` over ``X`` for every problem.

    Parameters
    ----------
    rule : int
        The rule's number in :data:`perceptron_core.engine.dispatch.RULES`.
    X : (m, n) array; Y : (P, m) float64 array of ±1 targets
    order : (v,) int64
        The rows visited in each epoch, in order: a permutation of the rows, or a piece of
        one (an interruptible fit runs an epoch in pieces, :mod:`perceptron_core.engine.chunks`).
    counts : (P, m) int64
        Updates per problem and example so far, updated in place.
    state : :class:`perceptron_core.steps.State`
        The rule's state, updated in place.
    hp : tuple of :data:`~perceptron_core.engine.dispatch.N_HYPER` floats
        The rule's settings, padded (:func:`~perceptron_core.engine.dispatch.pad`).
    plan : (n_epochs, stop_early, record, row_offset, epoch_offset, explicit) ints
        ``record``: 0 nothing, 1 updates, 2 every visit; the offsets number
        rows and epochs across ``partial_fit`` calls; ``explicit``: record
        every hypothesis.

    Returns
    -------
    events, n_events, updates, n_update_rows, history, n_history_rows : tables
    stats : (P, 4) int64, columns :data:`STAT_COLUMNS`
    """
    n_epochs, stop_early, record, row_offset, epoch_offset, explicit = plan
    P = Y.shape[0]
    cap = 64 if record else 0
    events = np.empty((cap, len(EVENT_COLUMNS)))
    updates = np.empty((cap, len(UPDATE_COLUMNS)))
    history = np.empty((cap if explicit else 0, X.shape[1] + 2))
    n_ev = n_up = n_hist = np.int64(0)  # typed, not 0: see perceptron_core._jit
    ev_row = np.empty(len(EVENT_COLUMNS))
    up_row = np.empty(4)
    hist_row = np.empty(X.shape[1] + 2)
    stats = np.zeros((P, len(STAT_COLUMNS)), np.int64)
    for p in range(P):
        if record and explicit:
            hist_row[0] = p
            hist_row[1] = dispatch.hypothesis(rule, state, p, hp, hist_row[2:])
            history = append_row(history, n_hist, hist_row)
            n_hist += 1
        n_updates = n_mistakes = 0  # locals, not stats[p]: LLVM keeps them in registers
        for e in range(n_epochs):
            updated = False
            for t in range(order.shape[0]):
                j = order[t]
                kind, score, coef, theta_delta = dispatch.step(
                    rule, X, Y, p, j, counts[p, j], state, hp
                )
                if kind == MISTAKE or kind == MARGIN:
                    updated = True
                    n_updates += 1
                    n_mistakes += kind == MISTAKE
                    counts[p, j] += 1
                    if record:
                        up_row[0] = p
                        up_row[1] = j + row_offset
                        up_row[2] = coef
                        up_row[3] = theta_delta
                        updates = append_row(updates, n_up, up_row)
                        n_up += 1
                        if explicit:
                            hist_row[1] = dispatch.hypothesis(rule, state, p, hp, hist_row[2:])
                            history = append_row(history, n_hist, hist_row)
                            n_hist += 1
                if record == 2 or (record == 1 and kind != CORRECT):
                    ev_row[0] = p
                    ev_row[1] = e + epoch_offset
                    ev_row[2] = j + row_offset
                    ev_row[3] = kind
                    ev_row[4] = score
                    ev_row[5] = n_updates
                    ev_row[6] = dispatch.answer(rule, state, p, n_updates)
                    events = append_row(events, n_ev, ev_row)
                    n_ev += 1
            stats[p, 0] = e + 1
            stats[p, 3] = not updated
            if stop_early and not updated:
                break
        stats[p, 1] = n_updates
        stats[p, 2] = n_mistakes
    return events, n_ev, updates, n_up, history, n_hist, stats
