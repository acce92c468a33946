r"""The dual form's hypotheses: kernel-space classifiers from the update record.

Hypothesis ``k`` of problem ``c`` is
``f_k(x) = eta * sum_{i<k} y_i k(x_{rows[i]}, x) - theta_k``: a weight per
support vector, never a vector in feature space. :func:`dual_model` gives
the last, longest-survivor and averaged hypotheses from the record of
:class:`~perceptron_core.engine.record.HypothesisRecord`, :func:`dual_scores`
their scores and the voted ones (one kernel matrix ``k(support, X_test)`` per
test chunk and the running sum along the update sequence of
:func:`perceptron_core.engine.kw_trainer.voted_scores`), and
:class:`KernelTrace` replays a dual fit.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np

from perceptron_core._jit import compiled_or_plain
from perceptron_core.engine.kernel_cache import LINEAR, KernelSpec
from perceptron_core.engine.kw_trainer import voted_scores
from perceptron_core.engine.record import DEFAULT_CHUNK_BYTES
from perceptron_core.trace import Trace


def dual_model(rec, mode: str, last_theta):
    """``(coef, theta)``: support-vector weights (K, n_support) and thresholds (K,).

    "last" sums every update, "longest" the updates before the longest
    survivor, "averaged" weights update ``i`` by the votes of the hypotheses
    after it, ``sum_{k>i} c_k / sum_{k>=1} c_k``. ``last_theta`` (the
    trainer's thresholds) is the last hypothesis's, exactly, and stands in
    for a problem without votes in "averaged".

    Examples
    --------
    >>> import numpy as np
    >>> from perceptron_core.engine.record import HypothesisRecord
    >>> rec = HypothesisRecord(1, 2, eta=1.0, C=1.0, theta_init=0.0)
    >>> X, Y = np.array([[1.0, 0.0], [0.0, 1.0]]), np.array([[1, -1]])
    >>> rec.extend(X, Y, [np.array([0, 1])], [np.array([0, 2, 2])], [1])
    >>> coef, theta = dual_model(rec, "averaged", np.array([0.0]))
    >>> coef.tolist(), theta.tolist()   # update 0 in both voting hypotheses, update 1 in one
    ([[1.0, -0.5]], [-0.5])
    """
    n_sv = len(rec.support)
    K = rec.n_problems
    coef = np.zeros((K, n_sv))
    theta = np.empty(K)
    for c in range(K):
        n = len(rec.signs[c])
        weights = np.ones(n)
        exact_theta = mode == "last"
        if mode == "longest":
            weights = (np.arange(n) < rec.longest_k[c]).astype(np.float64)
        elif mode == "averaged":
            total = rec.total_votes(c)
            if total == 0:  # no vote from hypothesis 1 on: the last one stands in
                exact_theta = True
            else:
                later_votes = np.cumsum(rec.votes[c][:0:-1])[::-1].astype(np.float64)
                weights = later_votes / total
        step = rec.eta * weights * rec.signs[c]
        coef[c] = np.bincount(rec.positions[c], weights=step, minlength=n_sv)
        theta[c] = last_theta[c] if exact_theta else rec.theta_init - rec.C * step.sum()
    return coef, theta


def dual_scores(rec, X, modes, models, kernel_matrix, chunk_size=None) -> dict:
    """Raw scores ``{mode: (n_samples, K)}``, one kernel matrix per test chunk.

    ``models`` holds :func:`dual_model`'s ``(coef, theta)`` of every mode
    asked for but "voted", and of "last" with "voted" (it stands in for
    problems without votes); ``kernel_matrix(A, B)`` is ``k(A[s], B[r])``.
    """
    m, n_sv, K = len(X), len(rec.support), rec.n_problems
    out = {mode: np.empty((m, K)) for mode in modes}
    if chunk_size is None:
        chunk_size = max(1, DEFAULT_CHUNK_BYTES // (8 * max(n_sv, 1)))
    walks = []
    if "voted" in modes:
        for c in range(K):
            if rec.total_votes(c) > 0:
                steps = rec.eta * rec.signs[c]
                thetas = rec.theta_init - rec.C * np.cumsum(steps)
                walks.append((c, rec.positions[c], steps, thetas, rec.votes[c]))
    support = rec.support.vectors
    column = np.empty(min(chunk_size, m)) if m else np.empty(0)
    for start in range(0, m, chunk_size):
        stop = min(start + chunk_size, m)
        GT = kernel_matrix(support, X[start:stop]) if n_sv else np.zeros((0, stop - start))
        for mode, (coef, theta) in models.items():
            scores = (coef @ GT).T - theta
            if mode in out:
                out[mode][start:stop] = scores
            if mode == "last" and "voted" in out:
                out["voted"][start:stop] = scores  # stands in for non-voting problems
        for c, positions, steps, thetas, votes in walks:
            compiled_or_plain(voted_scores)(
                GT, positions, steps, thetas, votes, column[: stop - start]
            )
            out["voted"][start:stop, c] = column[: stop - start]
    return out


@dataclass
class KernelTrace(Trace):
    """A :class:`~perceptron_core.trace.Trace` whose hypotheses live in kernel space.

    ``rows``, ``coef`` and ``theta_delta`` describe the updates exactly as for
    the primal learners, but hypothesis ``k`` is a function,
    :math:`f_k(x) = \\sum_{i<k} \\mathrm{coef}_i\\, k(x_{rows_i}, x) - \\theta_k`,
    not a weight vector: use :meth:`scores` to evaluate it (e.g. on a grid,
    to animate the boundary). :meth:`hypotheses` works for the linear kernel
    only, where the two views coincide.
    """

    kernel: KernelSpec | None = None

    def hypotheses(self):
        if self.kernel is not None and self.kernel.code != LINEAR:
            raise ValueError(
                f"A {self.kernel.name} kernel's hypotheses have no weight vector in input "
                "space; evaluate them with trace.scores(X) (all of them) or "
                "trace.scores(X, k) (the one after k updates)."
            )
        return super().hypotheses()

    def scores(self, X, k=None) -> np.ndarray:
        """Scores ``f_k(x)`` on the rows of ``X``.

        Parameters
        ----------
        X : ndarray of shape (n_samples, n_features)
        k : int or None
            The number of updates; None gives every hypothesis.

        Returns
        -------
        ndarray of shape (n_updates + 1, n_samples), or (n_samples,) for one ``k``
        """
        X = np.ascontiguousarray(X)
        n = self.total_updates if k is None else k
        if not 0 <= n <= self.total_updates:
            raise IndexError(f"k must be between 0 and {self.total_updates}; got {k}.")
        rows = self.rows[:n]
        theta = self.theta0 + np.concatenate(([0.0], np.cumsum(self.theta_delta[:n])))
        if n:
            assert self.kernel is not None  # a kernel estimator's trace carries its kernel
            R = np.stack([self.x_rows[int(r)] for r in rows]).astype(np.float64)
            steps = self.coef[:n, None] * self.kernel.matrix(R, X.astype(np.float64))
        else:
            steps = np.zeros((0, len(X)))
        if k is not None:
            return steps.sum(axis=0) - theta[-1]
        F = np.vstack([np.zeros((1, len(X))), np.cumsum(steps, axis=0)])
        return F - theta[:, None]

    def extend(self, other):
        base = super().extend(other)
        return KernelTrace(
            **{f.name: getattr(base, f.name) for f in fields(Trace)}, kernel=self.kernel
        )
