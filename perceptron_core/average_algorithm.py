"""Servedio's average algorithm: the mean of the labelled examples, in one pass.

No mistakes drive it and no threshold is learned: the hypothesis is simply
``w = (1/m) sum_j y_j x_j``, the direction from the negative examples' mean
to the positive examples' mean (when the classes are balanced). In
Khardon & Wachman's words it "is known to tolerate classification noise for
data distributed uniformly on the sphere and where the threshold is zero"
(Servedio); they ran it on all their data sets and found it "not
competitive". It stays here as the baseline that any on-line rule should
beat.
"""

from __future__ import annotations

import numpy as np

from perceptron_core._online import RECORD, OnlineLinearClassifier
from perceptron_core._validation import hyperparameters, parameter
from perceptron_core.trace import CORRECT, MISTAKE

__all__ = ["AverageAlgorithm"]

_BLOCK = 1 << 20  # numbers per block when computing the running scores


@hyperparameters
class AverageAlgorithm(OnlineLinearClassifier):
    """Servedio's average algorithm: ``w = (1/m) sum_j y_j x_j``, no threshold.

    Prediction is ``sign(<w, x>)`` with ``sign(0) = -1``; there is no bias
    (the rule is for halfspaces through the origin: centre the data first if
    the boundary should be elsewhere). Training is one pass and every
    example counts, so there is nothing to shuffle and no epochs; the order
    matters only for the on-line view below.

    On-line view: visiting the examples in order, the running average of
    those seen so far predicts the next one before it is added.
    ``n_mistakes_`` counts the wrong predictions of that on-line view, and
    ``trace_`` records every example (``"mistake"`` or ``"correct"`` by that
    prediction) with the additive step ``coef = y_j``: the trace's
    hypotheses are the running *sums* ``sum_{i<k} y_i x_i``, which predict
    exactly as the running averages (dividing by a positive count changes no
    sign). ``coef_`` itself is the average.

    ``partial_fit`` adds a batch to the running sum (the result equals one
    ``fit`` on all batches together). Multi-class targets are learned
    one-vs-rest.

    Parameters
    ----------
    record : {"none", "updates", "all"}, default="none"
        ``"updates"`` and ``"all"`` are the same here: every example is used.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    coef_ : ndarray of shape (n_problems, n_features)
        The average ``(1/m) sum_j y_j x_j`` of every example seen.
    intercept_ : ndarray of shape (n_problems,)
        Always 0.
    n_iter_ : int
        Passes made (1 per ``fit`` or ``partial_fit`` call).
    n_updates_ : int
        Examples used, per problem summed (every example is used).
    n_mistakes_ : int
        Mistakes of the on-line view.
    update_counts_ : ndarray of shape (n_problems, n_samples)
        All ones.
    trace_ : Trace, dict of Trace, or None

    References
    ----------
    R. A. Servedio, "On PAC learning using Winnow, Perceptron, and a
    Perceptron-like algorithm", COLT 1999.
    R. Khardon and G. M. Wachman, "Noise tolerant variants of the perceptron
    algorithm", JMLR 8 (2007) 227-248.

    Examples
    --------
    >>> import numpy as np
    >>> from perceptron_core.average_algorithm import AverageAlgorithm
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(500, 5))
    >>> y = (X @ np.array([1.0, -2.0, 0.5, 0.0, 1.0]) > 0).astype(int)
    >>> clf = AverageAlgorithm().fit(X, y)
    >>> clf.score(X, y) > 0.9
    True
    """

    record: str = parameter("none", RECORD)
    # fit() of the base reads these; the average has no epochs and no permutation.
    epochs = 1
    shuffle = False
    random_state = None

    def _init_state(self, n_problems, n_features):
        self._sum = np.zeros((n_problems, n_features))
        self._count = 0

    def _coef_intercept(self):
        return self._sum / max(self._count, 1), np.zeros(len(self._sum))

    def _initial_hypotheses(self):
        return self._sum.copy(), np.zeros(len(self._sum))

    def _run(self, X, Y, order, counts, plan):
        _, _, record, row_offset, epoch_offset, _ = plan
        Xf = np.asarray(X, dtype=np.float64)
        P, m = Y.shape
        n = Xf.shape[1]
        # Running scores <sum of earlier y_i x_i, x_j>, block by block.
        scores = np.empty((P, m))
        rows = max(1, _BLOCK // max(P * n, 1))
        for start in range(0, m, rows):
            block = slice(start, start + rows)
            steps = Y[:, block, None] * Xf[None, block]  # (P, rows, n)
            before = np.zeros_like(steps)
            np.cumsum(steps[:, :-1], axis=1, out=before[:, 1:])
            before += self._sum[:, None, :]
            scores[:, block] = np.einsum("prn,rn->pr", before, Xf[block])
            self._sum += steps.sum(axis=1)
        wrong = (scores > 0) != (Y > 0)
        self._count += m
        problems = np.repeat(np.arange(P), m)
        index = np.tile(np.arange(m) + row_offset, P).astype(np.float64)
        if record:
            events = np.column_stack(
                [
                    problems,
                    np.full(P * m, epoch_offset),
                    index,
                    np.where(wrong, MISTAKE, CORRECT).ravel(),
                    scores.ravel(),
                    np.tile(np.arange(1, m + 1), P),
                ]
            ).astype(np.float64)
            updates = np.column_stack([problems, index, Y.ravel(), np.zeros(P * m)])
        else:
            events, updates = np.empty((0, 6)), np.empty((0, 4))
        counts[:] = 1
        # epochs run, updates (every example), mistakes, converged (never: no epochs)
        stats = np.column_stack([np.ones(P), np.full(P, m), wrong.sum(axis=1), np.zeros(P)])
        stats = stats.astype(np.int64)
        return events, len(events), updates, len(updates), np.empty((0, n + 2)), 0, stats
