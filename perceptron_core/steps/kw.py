"""Khardon and Wachman's decision and vote count (docs/algorithms.md §1.2, steps 2-4), once.

The primal loop (:func:`perceptron_core.engine.kw_trainer._epoch`), the dual loop of
the kernel perceptron and the experiments' grid all ask the same question
of example ``j`` with label ``y``, raw score ``raw`` and ``a`` updates so far:

1. the λ-trick adds ``y * lam * ||x_j||^2`` to the score once ``j`` has
   caused an update (``norms2`` holds ``||x_j||^2``, or ``k(x_j, x_j)`` in
   dual form);
2. the prediction is -1 below ``theta - t``, +1 above ``theta + t``, and 0
   (a margin error) inside the band;
3. a wrong prediction updates, unless ``j`` has used up its α-bound.

The primal loops then move the hypothesis with :func:`update`; the dual
loop adds a kernel column to its running scores instead.

What every loop then counts is here too, on one row per binary problem of a
survival table (columns :data:`TALLY` to :data:`SNAPSHOT_K`): a correct
prediction is a vote for the current hypothesis and lengthens its survival
(:func:`survive`), an update starts a new hypothesis with neither
(:func:`start_hypothesis`). The longest survivor, the voted and the averaged
predictors (Khardon & Wachman 2007, §2.2) follow from these counts; for a
recorded run, :func:`longest_survivor` and :func:`casting` read them from the
votes of every hypothesis.
"""

import numpy as np

from perceptron_core._jit import compiled_or_plain, jit_inline, jit_visit
from perceptron_core.trace import BLOCKED, CORRECT, MARGIN, MISTAKE, RESCUED
from perceptron_core.vectors import add_row


def absolute_margin(tau, theta_init):
    """``t``, the half-width of the band of margin errors in score units: ``tau`` in
    units of the starting threshold (docs/algorithms.md §1.1). Works on arrays too.

    >>> absolute_margin(0.5, 8.0)
    4.0
    """
    return tau * theta_init


@jit_inline
def predict_margin(s, theta, t):
    """-1 below the band ``theta ± t``, +1 above it, 0 inside it."""
    if s < theta - t:
        return -1.0
    if s > theta + t:
        return 1.0
    return 0.0


@jit_inline
def decide(raw, y, a, theta, t, lam, norms2, j, alpha_bound):
    """The event of this visit (``MISTAKE`` or ``MARGIN``: update), the score it used
    and the λ-trick's term in that score (0 when the trick does not apply).

    ``RESCUED``: right only thanks to the λ-trick; ``BLOCKED``: wrong, but
    the α-bound forbids the update.
    """
    pushed = lam > 0.0 and a > 0
    push = y * lam * norms2[j] if pushed else 0.0
    s = raw + push if pushed else raw
    yhat = predict_margin(s, theta, t)
    if yhat != y:
        if a < alpha_bound:
            return (MISTAKE if yhat == -y else MARGIN), s, push
        return BLOCKED, s, push
    if pushed and predict_margin(raw, theta, t) != y:
        return RESCUED, s, push
    return CORRECT, s, push


@jit_inline
def update(W, c, X, j, theta, eta, C, y):
    """Step 3 on problem ``c``: ``w <- w + eta y x_j``, ``theta <- theta - eta y C``.

    Minus: the classifier is ``sign(<w, x> - theta)`` (docs/algorithms.md §1.3).
    """
    step = eta * y
    add_row(W, c, step, X, j)
    theta[c] -= step * C


#: Columns of the survival table, one row per binary problem: the current
#: hypothesis's survival tally, the best tally so far, the number ``k`` of the
#: longest survivor (the first hypothesis to reach the best tally), the votes
#: of hypotheses 1 on (hypothesis 0 never votes), the current hypothesis's votes,
#: and the number of the hypothesis in the trainer's longest-survivor snapshot
#: (-1: none yet).
SURVIVAL_COLUMNS = 6
TALLY, BEST_TALLY, LONGEST_K, TOTAL_VOTES, CURRENT_VOTES, SNAPSHOT_K = range(SURVIVAL_COLUMNS)


@jit_visit
def takes_the_lead(tally, best):
    """Whether a hypothesis that has predicted ``tally`` visits right in a row becomes the
    longest survivor over the one that survived ``best``: only by beating it, so of
    hypotheses that tie, the first to reach the record keeps it.

    The one place of this tie rule: the compiled loops (:func:`survive`), a recorded run
    (:func:`survivor_table`), hence the app's snapshots and the browser's replay, which reads
    the table's numbers.

    >>> bool(takes_the_lead(5, 4)), bool(takes_the_lead(5, 5))
    (True, False)
    """
    return tally > best


@jit_visit
def survive(state, c, k, n):
    """Hypothesis ``k`` of problem ``c`` (the current one) predicts ``n`` more visits right.

    Step 4: each is a vote (also when it is right only thanks to the λ-trick)
    and lengthens its survival. ``n = 1`` is one visit; a larger ``n`` is the
    closed form of epochs without an update, which leave the hypothesis and
    every update count as they were and so repeat the same correct
    predictions. The tally only grows while ``k`` is current, so comparing it
    with the best once after ``n`` votes gives the longest survivor that
    comparing after each vote gives.
    """
    state[c, CURRENT_VOTES] += n
    if k > 0:  # hypothesis 0 does not vote in the voted and averaged predictions
        state[c, TOTAL_VOTES] += n
    state[c, TALLY] += n
    if takes_the_lead(state[c, TALLY], state[c, BEST_TALLY]):
        state[c, BEST_TALLY] = state[c, TALLY]
        state[c, LONGEST_K] = k


@jit_visit
def start_hypothesis(state, c):
    """Step 3's count: an update of problem ``c`` starts a hypothesis with no vote and no tally."""
    state[c, TALLY] = 0
    state[c, CURRENT_VOTES] = 0


def survivor_table(votes) -> tuple[np.ndarray, np.ndarray]:
    """The longest survivor as hypotheses 0, 1, ... earn ``votes``, the rule of
    :func:`survive` applied to a recorded run.

    A hypothesis's votes are its survival: it earns them while it is current,
    and only the update that ends it resets the tally.

    Returns
    -------
    longest : ndarray of int64
        ``longest[k]``: the longest survivor among hypotheses 0..k once k has its votes.
    lead : ndarray of int64
        ``lead[k]``: the votes at which hypothesis k, while current, takes the lead from
        ``longest[k - 1]`` (:func:`takes_the_lead`; at least one, since only a vote moves
        the record; 0 for hypothesis 0, the longest survivor until another beats it).
        A replay that counts the current hypothesis's votes needs no rule of its own.

    >>> longest, lead = survivor_table([3, 5, 0, 5, 1])
    >>> longest.tolist(), lead.tolist()
    ([0, 1, 1, 1, 1], [0, 4, 6, 6, 6])
    """
    rule = compiled_or_plain(takes_the_lead)  # a run trained uncompiled compiles nothing
    votes = np.asarray(votes, dtype=np.int64)
    longest = np.zeros(len(votes), dtype=np.int64)
    lead = np.zeros(len(votes), dtype=np.int64)
    for k in range(1, len(votes)):
        best = votes[longest[k - 1]]
        lead[k] = best if best > 0 and rule(best, best) else best + 1
        longest[k] = k if votes[k] >= lead[k] else longest[k - 1]
    return longest, lead


def longest_survivor(votes) -> int:
    """The longest survivor among hypotheses 0, 1, ... that earned ``votes``
    (:func:`survivor_table`).

    >>> longest_survivor([3, 5, 0, 5, 1])
    1
    """
    return int(survivor_table(votes)[0][-1])


def casting(votes) -> np.ndarray:
    """The votes each hypothesis casts in the voted and averaged predictions: its
    correct predictions, except hypothesis 0's (``w = 0``), which casts none.

    >>> casting([3, 5, 0]).tolist()
    [0, 5, 0]
    """
    out = np.array(votes, dtype=np.int64)
    out[..., 0] = 0
    return out
