"""The compiled loops of the multiclass perceptron: training, and the voted scores.

:func:`run_epochs` visits the rows of ``X`` in ``order`` for a number of
epochs. Every class ``k`` has a weight vector ``W[k]`` and a bias ``b[k]``
(the weight of a constant input ``xb``, 1 or 0), and scores an example
``s_k = <W[k], x> + xb b[k]``. A visit of ``x`` of class ``c``:

* the rival ``r`` is the class other than ``c`` with the highest score (the
  first in class order among equal scores);
* the visit is correct only if ``s_c > s_r`` strictly; otherwise (a tie
  included) it is a mistake and ``W[c] += eta x``, ``W[r] -= eta x`` (and
  ``b[c] += eta xb``, ``b[r] -= eta xb``).

This is the update of the binary perceptron on Kesler's vector
``φ(x, c, r)`` (docs/algorithms.md §11): ``W · φ = s_c - s_r <= 0`` is the
binary perceptron's mistake, so Novikoff's bound counts these updates.

The record: every update's row, true class, rival and the votes of the
hypothesis it closed (the correct visits it survived) always, since the
longest-survivor, voted and averaged predictors are computed from it;
with ``record`` also one event per update (``record=1``) or per visit
(``record=2``): epoch, row, kind, rival and the K scores.

:func:`voted_scores` adds up the votes the hypotheses of a run cast for the
rows of a test batch, walking the update sequence once (each hypothesis is
the one before plus one update).
"""

from __future__ import annotations

import numpy as np

from perceptron_core._jit import jit
from perceptron_core.engine.online import append_row
from perceptron_core.trace import CORRECT, MISTAKE
from perceptron_core.vectors import add_row, row_dot

#: Columns of the event table before the K scores.
EVENT_COLUMNS = ("epoch", "index", "kind", "rival")
#: Columns of the update table.
UPDATE_COLUMNS = ("index", "true", "rival", "closed_votes")
#: Columns of the statistics :func:`run_epochs` returns.
STAT_COLUMNS = ("epochs_run", "n_updates", "converged", "current_votes")


@jit
def rival_of(s, c):
    """The class other than ``c`` with the highest score in ``s`` (the first on a tie).

    Examples
    --------
    >>> import numpy as np
    >>> int(rival_of(np.array([2.0, 5.0, 5.0]), 0)), int(rival_of(np.array([2.0, 5.0, 5.0]), 1))
    (1, 2)
    """
    r = 1 if c == 0 else 0
    for k in range(s.shape[0]):
        if k != c and s[k] > s[r]:
            r = k
    return r


@jit
def run_epochs(X, Y, order, W, b, hp, plan, current_votes):
    """Train ``W`` and ``b`` in place; returns the tables and the statistics.

    Parameters
    ----------
    X : (m, n) array; Y : (m,) int64 class numbers ``0 .. K-1``
    order : (m,) int64 visiting order
    W : (K, n) float64; b : (K,) float64
    hp : (eta, xb) floats
    plan : (n_epochs, stop_early, record, row_offset, epoch_offset) ints
    current_votes : int
        The votes the current hypothesis has collected before this call.

    Returns
    -------
    events, n_events : table of :data:`EVENT_COLUMNS` then the K scores
    updates, n_updates : table of :data:`UPDATE_COLUMNS`
    stats : (4,) int64, :data:`STAT_COLUMNS`
    """
    eta, xb = hp
    n_epochs, stop_early, record, row_offset, epoch_offset = plan
    K = W.shape[0]
    m = X.shape[0]
    s = np.empty(K)
    events = np.empty((64 if record else 0, len(EVENT_COLUMNS) + K))
    updates = np.empty((64, len(UPDATE_COLUMNS)))
    ev_row = np.empty(len(EVENT_COLUMNS) + K)
    up_row = np.empty(len(UPDATE_COLUMNS))
    n_ev = n_up = np.int64(0)  # typed, not 0: see perceptron_core._jit
    votes = current_votes
    stats = np.zeros(len(STAT_COLUMNS), np.int64)
    for e in range(n_epochs):
        updated = False
        for t in range(m):
            j = order[t]
            c = Y[j]
            for k in range(K):
                s[k] = row_dot(W, k, X, j) + b[k] * xb
            r = rival_of(s, c)
            kind = CORRECT
            if s[c] <= s[r]:  # not strictly first: a tie is a mistake too
                kind = MISTAKE
                updated = True
                up_row[0] = j + row_offset
                up_row[1] = c
                up_row[2] = r
                up_row[3] = votes
                updates = append_row(updates, n_up, up_row)
                n_up += 1
                votes = 0
                add_row(W, c, eta, X, j)
                add_row(W, r, -eta, X, j)
                b[c] += eta * xb
                b[r] -= eta * xb
            else:
                votes += 1
            if record == 2 or (record == 1 and kind == MISTAKE):
                ev_row[0] = e + epoch_offset
                ev_row[1] = j + row_offset
                ev_row[2] = kind
                ev_row[3] = r
                for k in range(K):
                    ev_row[len(EVENT_COLUMNS) + k] = s[k]
                events = append_row(events, n_ev, ev_row)
                n_ev += 1
        stats[0] = e + 1
        stats[2] = not updated
        if stop_early and not updated:
            break
    stats[1] = n_up
    stats[3] = votes
    return events, n_ev, updates, n_up, stats


@jit
def voted_scores(G, support, true, rival, cast, eta, xb2, S):
    """The votes each class gets from the hypotheses of a run, for a batch of rows.

    ``S`` (rows x K) holds the scores of hypothesis 0 on the batch and is
    advanced in place through the update sequence: update ``i`` adds
    ``eta (G[:, support[i]] + xb2)`` to the true class's column and takes it
    from the rival's (``G`` the batch's inner products with the updated rows,
    ``xb2`` the constant input squared). Hypothesis ``k`` casts ``cast[k]``
    votes for the class it predicts (the first of equal scores).

    Returns
    -------
    (rows, K) float64: each class's vote total
    """
    rows, K = S.shape
    total = np.zeros((rows, K))
    for k in range(cast.shape[0]):
        if k > 0:
            i = k - 1
            for p in range(rows):
                step = eta * (G[p, support[i]] + xb2)
                S[p, true[i]] += step
                S[p, rival[i]] -= step
        if cast[k] == 0:
            continue
        for p in range(rows):
            best = 0
            for q in range(1, K):
                if S[p, q] > S[p, best]:
                    best = q
            total[p, best] += cast[k]
    return total
