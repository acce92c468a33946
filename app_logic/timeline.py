"""Moving through a recorded training run: the state of the learner at any step.

A learner fitted with ``record="all"`` keeps one event per visit of an
example (:class:`perceptron_core.trace.Trace`). :class:`Timeline` turns the
trace(s) of one fit into what the playground shows at *time* ``t``:

* ``t = 0`` is before the first visit; ``t = i + 1`` is just after event ``i``
  (so event ``t - 1`` is the "current example" and its update, if any, has
  been applied);
* the hypothesis before and after the current event, for every member of a
  committee (one member for ordinary learners);
* per-example update counts, the latest outcome of each example, and the
  votes every hypothesis has collected so far, from which the longest
  survivor, the voted and the averaged predictor *at time t* follow
  (docs/algorithms.md §1.4: only updates reset a tally, hypothesis 0 does not vote).

Nothing here retrains and nothing imports Streamlit. The browser replays
the same run from :mod:`app_logic.payload` with its own code (``ui/playback/``);
this class is the Python reference it is tested against, and what the
payload's per-run numbers (test errors, high-dimensional snapshots) are
computed with.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from perceptron_core.steps import kw
from perceptron_core.trace import BLOCKED, CORRECT, MARGIN, MISTAKE, RESCUED

#: Event codes that move the hypothesis.
UPDATE_KINDS = (MISTAKE, MARGIN)
#: Event codes of a correct prediction (they add a vote to the current hypothesis).
VOTING_KINDS = (CORRECT, RESCUED)
#: Event codes of an error by the learner's own test (updated on, or blocked by the α-bound).
ERROR_KINDS = (MISTAKE, BLOCKED)
__all__ = ["BLOCKED", "CORRECT", "MARGIN", "MISTAKE", "RESCUED", "Timeline"]


@dataclass(frozen=True, eq=False)
class Timeline:
    """The recorded visits of one fit, indexed by time step.

    Attributes
    ----------
    epoch, index : ndarray of shape (n_events,)
        Epoch and training row of each visit.
    kind, score : ndarray of shape (n_members, n_events)
        Event code and learner score per committee member.
    before, after : ndarray of shape (n_events,)
        Row of the hypothesis tables that scored the visit, and the row in
        force once the visit is done.
    W : ndarray of shape (n_members, n_hypotheses, n_features)
    theta : ndarray of shape (n_members, n_hypotheses)
        Every hypothesis ``(w, theta)``; the score is ``<w, x> - theta``.
    n_samples : int
        Training-set size (epochs visit every row once).
    kernel_trace : KernelTrace or None
        For a dual learner with a non-linear kernel: ``W`` is then empty
        (no weight vector exists) and scores come from the trace.
    lam_term : ndarray of shape (n_events,) or None
        The λ-trick's term in each score, as the learner recorded it
        (:attr:`perceptron_core.trace.Trace.lam_term`); None without the trick.
    classes : bool
        A learner of several classes together (the multiclass perceptron): the members
        are the classes, one hypothesis row holds every class's ``(w, θ = -b)``, ``score``
        every class's score of the visit and ``kind`` has one row (the visit's outcome).
        Its scores are per class (:meth:`class_scores`).
    """

    epoch: np.ndarray
    index: np.ndarray
    kind: np.ndarray
    score: np.ndarray
    before: np.ndarray
    after: np.ndarray
    W: np.ndarray
    theta: np.ndarray
    n_samples: int
    kernel_trace: object = None
    lam_term: np.ndarray | None = None
    classes: bool = False

    # -- construction -----------------------------------------------------

    @classmethod
    def from_trace(cls, trace, n_samples: int) -> Timeline:
        """A single learner: the hypothesis it answers with after each event."""
        if not trace.visits:
            raise ValueError("The playground needs a trace of every visit (record='all').")
        W, theta = trace.hypotheses()
        if trace.answer is None:  # the latest hypothesis: each update replaces it
            after = trace.n_updates.copy()
            before = after - np.isin(trace.kind, UPDATE_KINDS)
        else:  # an earlier one (the pocket)
            after = trace.answer.copy()
            before = np.concatenate(([0], after[:-1]))
        return cls(
            epoch=trace.epoch,
            index=trace.index,
            kind=trace.kind[None],
            score=trace.score[None],
            before=before,
            after=after,
            W=np.asarray(W, dtype=np.float64)[None],
            theta=np.asarray(theta, np.float64)[None],
            n_samples=int(n_samples),
            lam_term=trace.lam_term,
        )

    @classmethod
    def from_kernel_trace(cls, trace, n_samples: int) -> Timeline:
        """A dual (kernel) learner: hypotheses are functions, evaluated by the trace."""
        if trace.kernel is None or trace.kernel.name == "linear":
            return cls.from_trace(trace, n_samples)
        updating = np.isin(trace.kind, UPDATE_KINDS)
        theta = trace.theta0 + np.concatenate(([0.0], np.cumsum(trace.theta_delta)))
        return cls(
            epoch=trace.epoch,
            index=trace.index,
            kind=trace.kind[None],
            score=trace.score[None],
            before=trace.n_updates - updating,
            after=trace.n_updates.copy(),
            W=np.zeros((1, len(theta), 0)),
            theta=theta[None],
            n_samples=int(n_samples),
            kernel_trace=trace,
            lam_term=trace.lam_term,
        )

    @classmethod
    def from_multiclass_trace(cls, trace, n_samples: int) -> Timeline:
        """The multiclass perceptron (:class:`~perceptron_core.trace.MulticlassTrace`): every
        class a member, one hypothesis row per update."""
        if not trace.visits:
            raise ValueError("The playground needs a trace of every visit (record='all').")
        W, b = trace.hypotheses()
        updating = np.isin(trace.kind, UPDATE_KINDS)
        return cls(
            epoch=trace.epoch,
            index=trace.index,
            kind=trace.kind[None],
            score=trace.scores.T.copy(),
            before=trace.n_updates - updating,
            after=trace.n_updates.copy(),
            W=np.ascontiguousarray(W.transpose(1, 0, 2), dtype=np.float64),
            theta=np.ascontiguousarray(-b.T, dtype=np.float64),
            n_samples=int(n_samples),
            classes=True,
        )

    @classmethod
    def from_epoch_traces(cls, traces, n_samples: int) -> Timeline:
        """A committee trained in batch: hypotheses change at the end of each epoch.

        ``traces`` holds one trace per member, all over the same visits, with
        ``n_updates`` the epoch whose weights scored the visit (as
        :class:`~perceptron_core.parallel.ParallelPerceptron` records it).
        """
        first = traces[0]
        if not first.visits:
            raise ValueError("The playground needs a trace of every visit (record='all').")
        epoch_of = first.n_updates
        last_of_epoch = np.r_[epoch_of[1:] != epoch_of[:-1], True]
        return cls(
            epoch=first.epoch,
            index=first.index,
            kind=np.stack([t.kind for t in traces]),
            score=np.stack([t.score for t in traces]),
            before=epoch_of.copy(),
            after=epoch_of + last_of_epoch,
            W=np.stack([t.weight_history for t in traces]).astype(np.float64),
            theta=np.stack([t.theta_history for t in traces]).astype(np.float64),
            n_samples=int(n_samples),
        )

    # -- time ---------------------------------------------------------------

    @property
    def n_events(self) -> int:
        return len(self.index)

    @property
    def n_members(self) -> int:
        return self.W.shape[0]

    def clip(self, t) -> int:
        """``t`` moved into ``[0, n_events]``."""
        return int(min(max(int(t), 0), self.n_events))

    def event(self, t: int) -> int | None:
        """Index of the current event at time ``t`` (None before the first visit)."""
        t = self.clip(t)
        return t - 1 if t > 0 else None

    def row(self, t: int) -> int:
        """Row of the hypothesis tables in force at time ``t``."""
        i = self.event(t)
        return 0 if i is None else int(self.after[i])

    def hypothesis(self, t: int, member: int = 0) -> tuple[np.ndarray, float]:
        """``(w, theta)`` in force at time ``t``."""
        k = self.row(t)
        return self.W[member, k], float(self.theta[member, k])

    def previous_hypothesis(self, t: int, member: int = 0) -> tuple[np.ndarray, float]:
        """``(w, theta)`` that scored the current event (the one before its update)."""
        i = self.event(t)
        k = 0 if i is None else int(self.before[i])
        return self.W[member, k], float(self.theta[member, k])

    def is_update(self, t: int, member: int = 0) -> bool:
        """Whether the current event changed the hypothesis."""
        i = self.event(t)
        return i is not None and bool(np.isin(self.kind[member, i], UPDATE_KINDS))

    def epoch_at(self, t: int) -> int:
        i = self.event(t)
        return 0 if i is None else int(self.epoch[i])

    def next_update(self, t: int) -> int:
        """The time just after the next update event (the end if there is none)."""
        t = self.clip(t)
        updating = np.isin(self.kind[:, t:], UPDATE_KINDS).any(axis=0)
        later = np.flatnonzero(updating)
        return self.n_events if len(later) == 0 else t + int(later[0]) + 1

    def end_of_epoch(self, t: int) -> int:
        """The time just after the last visit of the current epoch (of the next, at a boundary)."""
        t = self.clip(t)
        if t == self.n_events:
            return t
        current = self.epoch[t]  # the epoch of the next visit
        return int(np.searchsorted(self.epoch, current, side="right"))

    def epoch_starts(self) -> np.ndarray:
        """Time at which each recorded epoch starts."""
        return np.flatnonzero(np.r_[True, self.epoch[1:] != self.epoch[:-1]])

    # -- per-example state ---------------------------------------------------

    def update_counts(self, t: int, member: int = 0) -> np.ndarray:
        """Updates each example has caused up to time ``t`` (``a_j``, docs/algorithms.md §1.1)."""
        t = self.clip(t)
        updating = np.isin(self.kind[member, :t], UPDATE_KINDS)
        return np.bincount(self.index[:t][updating], minlength=self.n_samples)

    def latest_kind(self, t: int, member: int = 0) -> np.ndarray:
        """The outcome of each example's most recent visit up to ``t`` (-1: not visited yet).

        Every epoch visits every example once, so the last ``n_samples``
        events hold each example's latest visit.
        """
        t = self.clip(t)
        out = np.full(self.n_samples, -1, dtype=np.int64)
        window = slice(max(0, t - self.n_samples), t)
        out[self.index[window]] = self.kind[member, window]
        return out

    def mistakes_per_epoch(self, member: int = 0) -> np.ndarray:
        """Update events in each epoch (the curve that falls to 0 on separable data)."""
        return self._per_epoch(UPDATE_KINDS, member)

    def errors_per_epoch(self, member: int = 0) -> np.ndarray:
        """Errors in each epoch: visits the learner's test calls wrong, updated on or blocked.

        For the classic perceptron they are its updates; a margin learner also
        updates on correct visits inside its band, an α-bound blocks some errors.
        """
        return self._per_epoch(ERROR_KINDS, member)

    def _per_epoch(self, kinds, member: int) -> np.ndarray:
        chosen = np.isin(self.kind[member], kinds)
        n_epochs = int(self.epoch.max()) + 1 if self.n_events else 0
        return np.bincount(self.epoch[chosen], minlength=n_epochs)

    # -- votes and the four predictors at time t --------------------------------

    def votes(self, t: int) -> np.ndarray:
        """Correct predictions collected by each hypothesis up to ``t`` (member 0).

        Row 0 is the initial hypothesis: its count is its survival tally (it
        may be the longest survivor) but it never votes.
        """
        t = self.clip(t)
        counting = np.isin(self.kind[0, :t], VOTING_KINDS)
        return np.bincount(self.before[:t][counting], minlength=self.W.shape[1])

    def longest_row(self, t: int) -> int:
        """Row of the longest survivor at ``t``.

        See :func:`perceptron_core.steps.kw.longest_survivor`.
        """
        return kw.longest_survivor(self.votes(t)[: self.row(t) + 1])

    def averaged_hypothesis(self, t: int, member: int = 0) -> tuple[np.ndarray, float]:
        """The vote-weighted mean of the hypotheses up to the current one
        (:func:`perceptron_core.steps.kw.casting`; the last one without votes)."""
        votes = kw.casting(self.votes(t)[: self.row(t) + 1]).astype(np.float64)
        if votes.sum() == 0:
            return self.hypothesis(t, member)
        rows = slice(0, self.row(t) + 1)
        w = votes @ self.W[member, rows] / votes.sum()
        return w, float(votes @ self.theta[member, rows] / votes.sum())

    def voting_rows(self, t: int) -> tuple[np.ndarray, np.ndarray]:
        """Rows up to the current one that cast votes, and their votes."""
        votes = kw.casting(self.votes(t)[: self.row(t) + 1])
        rows = np.flatnonzero(votes)
        return rows, votes[rows]

    def scores(self, X: np.ndarray, t: int, mode: str = "last", chunk: int = 4096) -> np.ndarray:
        """Raw scores of the rows of ``X`` at time ``t`` (member 0, or the committee vote).

        ``mode`` is "last", "longest", "averaged" or "voted" (the last three
        only for a single learner with votes). Committees return the sum of
        their members' signs.
        """
        X = np.asarray(X, dtype=np.float64)
        if self.classes:
            raise ValueError("A learner of several classes scores each class: class_scores.")
        if self.kernel_trace is not None:
            if mode != "last":
                raise ValueError(
                    "With a non-linear kernel the picture shows the last hypothesis only."
                )
            return self.kernel_trace.scores(X, self.row(t))
        if self.n_members > 1:
            k = self.row(t)
            acts = X @ self.W[:, k].T - self.theta[:, k]
            return np.where(acts > 0, 1.0, -1.0).sum(axis=1)
        if mode == "last":
            w, theta = self.hypothesis(t)
        elif mode == "longest":
            k = self.longest_row(t)
            w, theta = self.W[0, k], self.theta[0, k]
        elif mode == "averaged":
            w, theta = self.averaged_hypothesis(t)
        elif mode == "voted":
            rows, votes = self.voting_rows(t)
            if len(rows) == 0:
                return self.scores(X, t, "last")
            out = np.empty(len(X))
            W, theta = self.W[0, rows], self.theta[0, rows]
            for start in range(0, len(X), chunk):  # memory: chunk x len(rows)
                part = X[start : start + chunk] @ W.T - theta
                out[start : start + chunk] = np.sign(part) @ votes  # a score of 0 adds nothing
            return out
        else:
            raise ValueError(f"mode must be last, longest, averaged or voted; got {mode!r}.")
        return X @ w - theta

    # -- several classes together (the multiclass perceptron) --------------------------

    def class_hypothesis(self, t: int, mode: str = "last") -> tuple[np.ndarray, np.ndarray]:
        """``(W, theta)`` of every class, shapes ``(K, n)`` and ``(K,)``, of the "last",
        "longest" or "averaged" predictor at ``t``."""
        if mode == "averaged":
            pairs = [self.averaged_hypothesis(t, k) for k in range(self.n_members)]
            return np.stack([w for w, _ in pairs]), np.array([th for _, th in pairs])
        k = self.longest_row(t) if mode == "longest" else self.row(t)
        return self.W[:, k], self.theta[:, k]

    def class_scores(self, X: np.ndarray, t: int, mode: str = "last") -> np.ndarray:
        """Every class's score of the rows of ``X`` at ``t``, shape ``(len(X), K)``: the
        predictor's ``<w_k, x> - θ_k``, or for "voted" the votes each class gets
        (docs/algorithms.md §11). The predicted class is the first of the highest."""
        X = np.asarray(X, dtype=np.float64)
        if mode != "voted":
            W, theta = self.class_hypothesis(t, mode)
            return X @ W.T - theta
        rows, votes = self.voting_rows(t)
        if len(rows) == 0:
            return self.class_scores(X, t, "last")
        total = np.zeros((len(X), self.n_members))
        for k, c in zip(rows, votes):
            winner = np.argmax(X @ self.W[:, k].T - self.theta[:, k], axis=1)
            np.add.at(total, (np.arange(len(X)), winner), c)
        return total

    def predicted_classes(self, X: np.ndarray, t: int, mode: str = "last") -> np.ndarray:
        """The class each row of ``X`` is given at ``t`` (the first of the highest scores)."""
        return np.argmax(self.class_scores(X, t, mode), axis=1)
