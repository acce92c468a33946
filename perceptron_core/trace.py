"""The recorded training history that the app animates without retraining.

Every learner fitted with ``record="updates"`` or ``record="all"`` exposes a
``trace_`` (for multi-class one-vs-rest models a dict ``{class label:
Trace}``). A :class:`Trace` has two parts:

* **events**, one row per recorded visit of an example (``record="all"``) or
  per update (``record="updates"``): the epoch, the example's row index, what
  happened (:data:`EVENT_KINDS`), the score the learner computed and the
  number of updates made so far, including this event's own;
* **the update sequence**, enough to rebuild the hypothesis ``(w, theta)``
  after any number ``k`` of updates. Additive learners store, for update
  ``i``, the training row ``rows[i]``, its multiplier ``coef[i]`` and the
  threshold change ``theta_delta[i]``::

      w_k     = w0     + sum_{i < k} coef[i] * x[rows[i]]
      theta_k = theta0 + sum_{i < k} theta_delta[i]

  so all hypotheses are one cumulative sum away. Learners whose updates are
  not additive (Winnow's multiplications, renormalising rules) store the
  hypotheses themselves in ``weight_history``/``theta_history`` instead.

The trace keeps the rows it needs (``x_rows``: only the examples that were
updated on), not the whole training set.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

#: Event codes used in :attr:`Trace.kind`.
EVENT_KINDS = (
    "correct",  # 0: right side, outside the margin band: no update
    "mistake",  # 1: wrong side of the threshold: update
    "margin",  # 2: right side but inside the margin band: update
    "rescued",  # 3: would have been an error, the λ-trick term made it correct
    "blocked",  # 4: an error, but the example used up its α-bound: no update
)
CORRECT, MISTAKE, MARGIN, RESCUED, BLOCKED = range(len(EVENT_KINDS))


@dataclass
class Trace:
    """Events and hypotheses of one binary training run.

    Attributes
    ----------
    epoch, index, kind, score, n_updates : ndarray of shape (n_events,)
        Per recorded event: epoch number (from 0), training row, event code
        (see :data:`EVENT_KINDS`), the learner's score for the example
        (including any λ-trick term), and the number of updates made so far,
        counting this event's own.
    visits : bool
        True when every visit is recorded (``record="all"``), False when only
        updates are.
    rows, coef, theta_delta : ndarray of shape (n_updates,)
        The additive update sequence (see the module docstring); ``rows``
        index ``x_rows``'s source, the training set.
    w0 : ndarray of shape (n_features,)
    theta0 : float
    x_rows : dict
        ``{row index: feature vector}`` for every updated row.
    weight_history, theta_history : ndarray or None
        Explicit hypotheses, shapes ``(n_updates + 1, n_features)`` and
        ``(n_updates + 1,)``, for learners whose updates are not additive.
    answer : ndarray of shape (n_events,) or None
        For learners that answer with an earlier hypothesis than the latest
        (the pocket algorithm): after each event, the number ``k`` of the
        hypothesis they answer with. None: the latest (``n_updates``).
    lam_term : ndarray of shape (n_events,) or None
        For the Khardon–Wachman learners (primal and kernel) with every visit
        recorded: the λ-trick's term ``y λ‖x‖²`` (``y λ k(x, x)`` in dual
        form) that ``score`` includes, 0 where the example had not yet caused
        an update and everywhere when ``λ = 0`` (``score - lam_term`` is the
        plain score). None for the other learners and with ``record="updates"``.

    Examples
    --------
    >>> import numpy as np
    >>> from perceptron_core import KWPerceptron
    >>> X = np.array([[1.0, 2.0], [-1.0, -1.5], [2.0, 0.5], [-2.0, -0.5]])
    >>> y = np.array([1, 0, 1, 0])
    >>> clf = KWPerceptron(epochs=3, shuffle=False, record="all").fit(X, y)
    >>> t = clf.trace_
    >>> len(t.kind) == 3 * len(X)   # one event per visit
    True
    >>> W, theta = t.hypotheses()
    >>> bool(np.allclose(W[-1], clf.coef_[0]) and np.isclose(-theta[-1], clf.intercept_[0]))
    True
    """

    epoch: np.ndarray
    index: np.ndarray
    kind: np.ndarray
    score: np.ndarray
    n_updates: np.ndarray
    visits: bool
    rows: np.ndarray
    coef: np.ndarray
    theta_delta: np.ndarray
    w0: np.ndarray
    theta0: float
    x_rows: dict = field(default_factory=dict, repr=False)
    weight_history: np.ndarray | None = field(default=None, repr=False)
    theta_history: np.ndarray | None = field(default=None, repr=False)
    answer: np.ndarray | None = field(default=None, repr=False)
    lam_term: np.ndarray | None = field(default=None, repr=False)

    @property
    def n_events(self) -> int:
        return len(self.kind)

    @property
    def total_updates(self) -> int:
        return len(self.weight_history) - 1 if self.weight_history is not None else len(self.rows)

    def kind_names(self) -> np.ndarray:
        """The event codes as names (see :data:`EVENT_KINDS`)."""
        return np.asarray(EVENT_KINDS)[self.kind]

    def hypotheses(self) -> tuple[np.ndarray, np.ndarray]:
        """All hypotheses: ``W`` of shape (n_updates + 1, n_features), ``theta``.

        Row ``k`` is the hypothesis after ``k`` updates (row 0 the initial one).
        """
        if self.weight_history is not None:
            assert self.theta_history is not None  # the two are kept together
            return self.weight_history, self.theta_history
        n = len(self.w0)
        steps = np.zeros((len(self.rows) + 1, n))
        if len(self.rows):
            X = np.stack([self.x_rows[int(r)] for r in self.rows]).astype(np.float64)
            steps[1:] = self.coef[:, None] * X
        W = np.cumsum(steps, axis=0) + self.w0
        theta = self.theta0 + np.concatenate(([0.0], np.cumsum(self.theta_delta)))
        return W, theta

    def hypothesis(self, k: int) -> tuple[np.ndarray, float]:
        """The hypothesis ``(w, theta)`` after ``k`` updates."""
        if not 0 <= k <= self.total_updates:
            raise IndexError(f"k must be between 0 and {self.total_updates}; got {k}.")
        if self.weight_history is not None:
            W, theta = self.hypotheses()
            return W[k], float(theta[k])
        w = self.w0.astype(np.float64).copy()
        for r, c in zip(self.rows[:k], self.coef[:k]):
            w += c * self.x_rows[int(r)]
        return w, float(self.theta0 + self.theta_delta[:k].sum())

    def mistakes_per_epoch(self) -> np.ndarray:
        """Number of updates made in each epoch (zeros included)."""
        updating = (self.kind == MISTAKE) | (self.kind == MARGIN)
        n_epochs = int(self.epoch.max()) + 1 if len(self.epoch) else 0
        return np.bincount(self.epoch[updating], minlength=n_epochs)

    def extend(self, other: Trace) -> Trace:
        """Append a later run (e.g. the next ``partial_fit`` epoch) to this trace."""
        wh: np.ndarray | None = None
        th: np.ndarray | None = None
        if self.weight_history is not None or other.weight_history is not None:
            # either part may have kept its hypotheses; hypotheses() rebuilds the other's
            (W, theta), (W_next, theta_next) = self.hypotheses(), other.hypotheses()
            wh = np.concatenate([W, W_next[1:]])
            th = np.concatenate([theta, theta_next[1:]])
        return Trace(
            epoch=np.concatenate([self.epoch, other.epoch]),
            index=np.concatenate([self.index, other.index]),
            kind=np.concatenate([self.kind, other.kind]),
            score=np.concatenate([self.score, other.score]),
            n_updates=np.concatenate([self.n_updates, other.n_updates + self.total_updates]),
            visits=self.visits and other.visits,
            rows=np.concatenate([self.rows, other.rows]),
            coef=np.concatenate([self.coef, other.coef]),
            theta_delta=np.concatenate([self.theta_delta, other.theta_delta]),
            w0=self.w0,
            theta0=self.theta0,
            x_rows={**self.x_rows, **other.x_rows},
            weight_history=wh,
            theta_history=th,
            answer=None if self.answer is None else np.concatenate([self.answer, other.answer]),
            lam_term=None
            if self.lam_term is None or other.lam_term is None
            else np.concatenate([self.lam_term, other.lam_term]),
        )


@dataclass
class MulticlassTrace:
    """Events and hypotheses of one multiclass perceptron run (docs/algorithms.md §11).

    One hypothesis is the matrix of every class's weights and biases; an
    update moves two of its rows, the true class's towards ``x`` and the
    rival's away from it::

        W_k[true[i]]  = ... + eta * x[rows[i]]    b_k[true[i]]  += eta * xb
        W_k[rival[i]] = ... - eta * x[rows[i]]    b_k[rival[i]] -= eta * xb

    summed over the updates ``i < k``, from ``W0``, ``b0``.

    Attributes
    ----------
    epoch, index, kind, rival, n_updates : ndarray of shape (n_events,)
        Per recorded event: epoch (from 0), training row, event code
        (``CORRECT`` or ``MISTAKE``), the rival class (the highest-scoring
        class other than the true one, as a number into ``classes``) and the
        updates made so far, this event's own included.
    scores : ndarray of shape (n_events, n_classes)
        Every class's score of the example, before the event's update.
    visits : bool
        True when every visit is recorded (``record="all"``).
    rows, true, rival_of_update : ndarray of shape (n_updates,)
        The update sequence: training row, true class, rival class.
    eta, xb : float
        The learning rate and the constant input (1, or 0 without a bias).
    W0 : ndarray of shape (n_classes, n_features); b0 : ndarray of shape (n_classes,)
    x_rows : dict
        ``{row index: feature vector}`` for every updated row.

    Examples
    --------
    >>> import numpy as np
    >>> from perceptron_core.multiclass import MulticlassPerceptron
    >>> X = np.array([[2.0, 0.0], [0.0, 2.0], [-2.0, -2.0]])
    >>> clf = MulticlassPerceptron(shuffle=False, record="all").fit(X, [0, 1, 2])
    >>> t = clf.trace_
    >>> W, b = t.hypotheses()
    >>> W.shape[1:], bool(np.array_equal(W[-1], clf.coef_))
    ((3, 2), True)
    """

    epoch: np.ndarray
    index: np.ndarray
    kind: np.ndarray
    rival: np.ndarray
    n_updates: np.ndarray
    scores: np.ndarray
    visits: bool
    rows: np.ndarray
    true: np.ndarray
    rival_of_update: np.ndarray
    eta: float
    xb: float
    W0: np.ndarray
    b0: np.ndarray
    x_rows: dict = field(default_factory=dict, repr=False)

    @property
    def n_events(self) -> int:
        return len(self.kind)

    @property
    def total_updates(self) -> int:
        return len(self.rows)

    def hypotheses(self) -> tuple[np.ndarray, np.ndarray]:
        """Every hypothesis: ``W`` of shape (n_updates + 1, n_classes, n_features), ``b``.

        Row ``k`` is the hypothesis after ``k`` updates (row 0 the initial one).
        """
        U, (K, n) = len(self.rows), self.W0.shape
        dW = np.zeros((U + 1, K, n))
        db = np.zeros((U + 1, K))
        if U:
            X = np.stack([self.x_rows[int(r)] for r in self.rows]).astype(np.float64)
            steps = np.arange(1, U + 1)
            dW[steps, self.true] += self.eta * X
            dW[steps, self.rival_of_update] -= self.eta * X
            db[steps, self.true] += self.eta * self.xb
            db[steps, self.rival_of_update] -= self.eta * self.xb
        return np.cumsum(dW, axis=0) + self.W0, np.cumsum(db, axis=0) + self.b0

    def extend(self, other: MulticlassTrace) -> MulticlassTrace:
        """Append a later run (the next ``partial_fit`` epoch) to this trace."""

        def joined(name):
            return np.concatenate([getattr(self, name), getattr(other, name)])

        return MulticlassTrace(
            epoch=joined("epoch"),
            index=joined("index"),
            kind=joined("kind"),
            rival=joined("rival"),
            n_updates=np.concatenate([self.n_updates, other.n_updates + self.total_updates]),
            scores=np.concatenate([self.scores, other.scores]),
            visits=self.visits and other.visits,
            rows=joined("rows"),
            true=joined("true"),
            rival_of_update=joined("rival_of_update"),
            eta=self.eta,
            xb=self.xb,
            W0=self.W0,
            b0=self.b0,
            x_rows={**self.x_rows, **other.x_rows},
        )
