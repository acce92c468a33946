"""A pure-NumPy reference of docs/algorithms.md §1, written to read like that description.

Slow and simple on purpose: it keeps every hypothesis as a full weight vector,
so the compiled engine (which keeps only the update sequence and the votes)
can be checked against the definitions line by line.
"""

from __future__ import annotations

import numpy as np

from perceptron_core.modes import MODES
from tests.numerics import NEAR, band_clearance, relative_gap


def beats_the_record(tally, best_tally) -> bool:
    """The expected tie rule of the longest survivor: a hypothesis takes the record only by
    beating it, so of hypotheses that tie the first keeps it. The references read it here
    (:func:`reference_kw`, :func:`longest_of`, and ``reference_dual`` in
    ``tests/test_kernel.py``): the core states the rule once
    (``perceptron_core.steps.kw.takes_the_lead``) and this is what it is checked against,
    so changing it there fails these tests until this changes too."""
    return tally > best_tally


def longest_of(votes) -> int:
    """The longest survivor of hypotheses 0, 1, ... that earned ``votes`` (each its whole
    survival), by :func:`beats_the_record` (the multiclass reference's)."""
    longest = 0
    for k in range(1, len(votes)):
        if beats_the_record(votes[k], votes[longest]):
            longest = k
    return longest


def reference_kw(
    X,
    y,
    *,
    eta=0.1,
    theta_init=None,
    C=None,
    tau=0.0,
    lam=0.0,
    alpha_bound=None,
    epochs=10,
    order=None,
):
    """Train one binary problem (``y`` in {-1, +1}); return every hypothesis.

    Returns a dict with ``W`` (hypotheses, one per row, row 0 the initial one),
    ``theta``, ``votes``, ``longest`` (index of the longest survivor),
    ``updated`` (row index of each update), ``kinds`` (event per visit) and ``closest``:
    how near any score came to the edge of its band, relative to the magnitudes it was
    made of (:func:`tests.numerics.band_clearance`; the engine, which adds in another
    order, must decide alike when that is above :data:`tests.numerics.NEAR`).
    """
    X = np.asarray(X, dtype=np.float64)
    m, n = X.shape
    if theta_init is None:
        theta_init = np.mean([x @ x for x in X])
    if C is None:
        C = theta_init
    if order is None:
        order = np.arange(m)
    if alpha_bound is None:
        alpha_bound = np.inf
    t = tau * theta_init

    w, theta = np.zeros(n), theta_init
    a = np.zeros(m, dtype=int)
    hypotheses_w, hypotheses_theta, votes = [w.copy()], [theta], [0]
    tally, best_tally, longest = 0, 0, 0
    updated, kinds = [], []
    closest = np.inf
    for _ in range(epochs):
        for j in order:
            x_j, y_j = X[j], y[j]
            # 1. score, with the λ-trick for examples that already caused an update
            s = np.dot(w, x_j)
            raw = s
            magnitude = (
                np.abs(w) @ np.abs(x_j)
                + abs(theta)
                + abs(t)
                + abs(theta_init) * (1 + eta * a.sum())
            )
            closest = min(closest, band_clearance(raw, theta, t, magnitude))
            if lam > 0 and a[j] > 0:
                s += y_j * lam * np.dot(x_j, x_j)
                magnitude += lam * np.dot(x_j, x_j)
                closest = min(closest, band_clearance(s, theta, t, magnitude))
            # 2. prediction with a margin band of half-width t around theta
            yhat = -1 if s < theta - t else (1 if s > theta + t else 0)
            if yhat != y_j and a[j] < alpha_bound:
                # 3. update; a new hypothesis starts with no votes
                w = w + eta * y_j * x_j
                theta = theta - eta * y_j * C
                a[j] += 1
                hypotheses_w.append(w.copy())
                hypotheses_theta.append(theta)
                votes.append(0)
                tally = 0
                updated.append(j)
                kinds.append("mistake" if yhat == -y_j else "margin")
            elif yhat == y_j:
                # 4. a vote for the current hypothesis, and the survival tally
                votes[-1] += 1
                tally += 1
                if beats_the_record(tally, best_tally):
                    best_tally, longest = tally, len(votes) - 1
                raw_yhat = -1 if raw < theta - t else (1 if raw > theta + t else 0)
                kinds.append("rescued" if raw_yhat != y_j and lam > 0 and a[j] > 0 else "correct")
            else:
                # 5. an error the α-bound blocks: nothing changes
                kinds.append("blocked")
    return dict(
        W=np.array(hypotheses_w),
        theta=np.array(hypotheses_theta),
        votes=np.array(votes),
        longest=longest,
        updated=np.array(updated, dtype=int),
        kinds=kinds,
        closest=closest,
    )


def reference_scores(model, X, mode):
    """Raw scores of one reference model in the given prediction mode."""
    return _evaluate(model, X, mode)[0]


def decides_clearly(model, X_test=None, modes=MODES) -> bool:
    """Whether no score of the reference's training run, and none its predictions on
    ``X_test`` rest on, came within :data:`tests.numerics.NEAR` of a threshold: then the
    engine, which adds in another order, must update and predict exactly alike."""
    if model["closest"] <= NEAR:
        return False
    return X_test is None or all(prediction_clearance(model, X_test, m) > NEAR for m in modes)


def prediction_clearance(model, X, mode) -> float:
    """How near what the reference's predictions in ``mode`` rest on comes to 0, relative to
    the magnitudes it is made of: the scores, or for ``voted`` every hypothesis's score (the
    vote is then an exact count). The engine must predict alike when that is above
    :data:`tests.numerics.NEAR`."""
    return float(np.min(_evaluate(model, X, mode)[2]))


def multiclass_clearance(models, X, mode) -> float:
    """:func:`prediction_clearance` for one-vs-rest, which predicts the class of the highest
    score: how near the two highest scores come to each other (for ``voted``, how near any
    hypothesis's score comes to 0)."""
    parts = [_evaluate(model, X, mode) for model in models]
    if mode == "voted":
        return min(float(np.min(clearance)) for *_, clearance in parts)
    scores = np.column_stack([score for score, _, _ in parts])
    magnitudes = np.column_stack([magnitude for _, magnitude, _ in parts])
    rows = np.arange(len(scores))
    second, top = np.argsort(scores, axis=1)[:, -2:].T
    gap = scores[rows, top] - scores[rows, second]
    return float(np.min(relative_gap(gap, magnitudes[rows, top] + magnitudes[rows, second])))


def _evaluate(model, X, mode):
    """``(scores, magnitudes, clearance)`` per point of ``X`` (``magnitudes`` is ``None`` for
    ``voted``, whose clearance is the smallest over the voting hypotheses)."""
    X = np.asarray(X, dtype=np.float64)
    W, theta, votes = model["W"], model["theta"], model["votes"]

    def hypothesis(k):
        score = X @ W[k] - theta[k]
        magnitude = np.abs(X) @ np.abs(W[k]) + abs(theta[k])
        return score, magnitude, relative_gap(score, magnitude)

    if mode == "longest":
        return hypothesis(model["longest"])
    if mode == "last" or votes[1:].sum() == 0:  # no vote from 1 on: the last one stands in
        return hypothesis(-1)
    if mode == "voted":
        voting = [(votes[k], hypothesis(k)) for k in range(1, len(votes)) if votes[k] > 0]
        total = sum(c * np.sign(score) for c, (score, _, _) in voting)
        return total, None, np.min([clearance for _, (_, _, clearance) in voting], axis=0)
    if mode == "averaged":
        c = votes[1:]
        w_avg = (c[:, None] * W[1:]).sum(axis=0) / c.sum()
        theta_avg = (c * theta[1:]).sum() / c.sum()
        score = X @ w_avg - theta_avg
        magnitude = sum(ck * hypothesis(k)[1] for k, ck in enumerate(c, start=1)) / c.sum()
        return score, magnitude, relative_gap(score, magnitude)
    raise ValueError(mode)
