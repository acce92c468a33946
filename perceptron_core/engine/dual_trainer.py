r"""The Khardon–Wachman loop in dual form, for kernels (docs/algorithms.md §3).

How the training loop stays fast: it keeps a *running score*
:math:`S_j = \sum_i \eta\, a_i\, y_i\, k(x_i, x_j)` for every training
example. A visit reads :math:`S_j` (O(1)); an update on example :math:`j`
adds :math:`\eta y_j k(\cdot, x_j)`, one kernel column, to all of them (O(m)).
The columns come from :mod:`perceptron_core.engine.kernel_cache`. The
decisions are those of the primal loop (:mod:`perceptron_core.engine.kw_trainer`),
and so is the bookkeeping: votes, survival tallies and the update record.
"""

from __future__ import annotations

import numpy as np

from perceptron_core._jit import jit
from perceptron_core.engine.kernel_cache import fetch_column
from perceptron_core.engine.kw_trainer import (
    grown_records,
    note_correct,
    note_update,
    note_visit,
    with_epoch_room,
)
from perceptron_core.steps import kw
from perceptron_core.trace import BLOCKED, MARGIN, MISTAKE


@jit
def dual_epoch(Y, order, diag, settings, model, log, e, span, columns):
    """One epoch of docs/algorithms.md §1 in dual form: scores are read, columns are added.

    The decisions are :func:`perceptron_core.steps.kw.decide`, as in
    :func:`perceptron_core.engine.kw_trainer._epoch`, and the bookkeeping
    (votes, survival tally, records) is its very code
    (:func:`~perceptron_core.engine.kw_trainer.note_update`,
    :func:`~perceptron_core.engine.kw_trainer.note_correct`); only the score
    (``S[c, j]`` instead of ``<w, x_j>``) and the update (one kernel column
    added to every running score instead of ``x_j`` added to ``w``) differ.
    ``model`` holds the running scores ``S`` where the primal loop has ``W``;
    ``span = (step, visit0)``; ``columns`` is :func:`fetch_column`'s.
    """
    eta, C, t_margin, lam = settings.eta, settings.C, settings.margin, settings.lam
    alpha_bound = settings.alpha_bound
    S, theta, counts, state, n_upd = model
    votes, visit_kind, visit_score = log.votes, log.visit_kind, log.visit_score
    step, visit0 = span
    cache = columns[6]
    K, m = Y.shape
    for p in range(m):
        j = order[p]
        slot = -1  # the column of j is fetched once per visit, for all problems
        for c in range(K):
            y = Y[c, j]
            a = counts[c, j]
            # the λ-trick's k(x_j, x_j) plays ||x_j||^2
            kind, s, push = kw.decide(S[c, j], y, a, theta[c], t_margin, lam, diag, j, alpha_bound)
            if kind == MISTAKE or kind == MARGIN:
                if slot < 0:
                    slot = fetch_column(j, columns)
                step_w = eta * y
                for r in range(m):
                    S[c, r] += step_w * cache[slot, r]
                theta[c] -= step_w * C  # minus: f = ... - theta (docs/algorithms.md §1.3)
                note_update(c, j, a, kind, s, step, e, model, log)
            elif kind != BLOCKED:
                note_correct(c, n_upd[c], np.int64(1), votes, state)
            note_visit(visit_kind, visit_score, c, step - visit0, kind, s, push)
        step += 1


@jit
def run_dual_epochs(Y, order, diag, settings, model, log, n_epochs, first_step, columns):
    """``n_epochs`` epochs of :func:`dual_epoch`; the record grows between epochs.

    The arguments are those of :func:`perceptron_core.engine.kw_trainer.run_epochs`
    with the dual form's ``diag`` (``k(x_j, x_j)``) for the squared norms and
    ``columns`` (the training rows, the kernel and the column cache, see
    :func:`fetch_column`). Every epoch is run (an epoch without updates
    costs O(m) here).
    """
    m = Y.shape[1]
    n_upd = model.n_upd
    step = first_step
    for e in range(n_epochs):
        log = with_epoch_room(grown_records(n_upd.max() + m, log), e)
        dual_epoch(Y, order, diag, settings, model, log, e, (step, first_step), columns)
        step += m
    return log
