"""A pure-NumPy reference of docs/algorithms.md §1, written to read like that description.

Slow and simple on purpose: it keeps every hypothesis as a full weight vector,
so the compiled engine (which keeps only the update sequence and the votes)
can be checked against the definitions line by line.
"""

from __future__ import annotations

import numpy as np


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
    ``updated`` (row index of each update) and ``kinds`` (event per visit).
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
    for _ in range(epochs):
        for j in order:
            x_j, y_j = X[j], y[j]
            # 1. score, with the λ-trick for examples that already caused an update
            s = np.dot(w, x_j)
            raw = s
            if lam > 0 and a[j] > 0:
                s += y_j * lam * np.dot(x_j, x_j)
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
                if tally > best_tally:
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
    )


def reference_scores(model, X, mode):
    """Raw scores of one reference model in the given prediction mode."""
    X = np.asarray(X, dtype=np.float64)
    W, theta, votes = model["W"], model["theta"], model["votes"]
    if mode == "last":
        return X @ W[-1] - theta[-1]
    if mode == "longest":
        k = model["longest"]
        return X @ W[k] - theta[k]
    if votes[1:].sum() == 0:  # no hypothesis from 1 on has a vote: the last one stands in
        return X @ W[-1] - theta[-1]
    if mode == "voted":
        return sum(c * np.sign(X @ W[k] - theta[k]) for k, c in enumerate(votes) if k >= 1)
    if mode == "averaged":
        c = votes[1:]
        w_avg = (c[:, None] * W[1:]).sum(axis=0) / c.sum()
        theta_avg = (c * theta[1:]).sum() / c.sum()
        return X @ w_avg - theta_avg
    raise ValueError(mode)
