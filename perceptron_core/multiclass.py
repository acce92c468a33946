"""The multiclass perceptron: one weight vector per class, two of them move at a mistake.

Khardon & Wachman (2007, §2.7) learn data of more than two classes one
against the rest: one binary perceptron per class, trained side by side,
and the class with the largest score wins (what every other learner of
this package does). The multiclass perceptron couples the classes instead:
it predicts the class with the largest score ``<w_k, x> + b_k``, and on a
mistake moves only the two vectors the mistake is about, the true class's
towards ``x`` and the winning wrong class's away from it. Duda, Hart & Stork
(*Pattern Classification*, 2nd ed., 2001, §5.12) write this fixed-increment
rule for the c-class linear machine and, with Kesler's construction, turn it
into the two-class perceptron on vectors of ``K (n + 1)`` numbers, so
Novikoff's mistake bound carries over (docs/algorithms.md §11).
"""

from __future__ import annotations

import numpy as np
from sklearn.utils.validation import check_is_fitted

from perceptron_core._estimator import OnlineEstimator
from perceptron_core._jit import compiled_or_plain
from perceptron_core._online import (
    EPOCHS,
    FIT_INTERCEPT,
    RANDOM_STATE,
    RECORD,
    RECORD_MODES,
    SHUFFLE,
)
from perceptron_core._validation import Number, OneOf, hyperparameters, parameter, show
from perceptron_core.engine import multiclass_trainer as trainer
from perceptron_core.modes import MODES
from perceptron_core.steps import kw
from perceptron_core.trace import MulticlassTrace

__all__ = ["MulticlassPerceptron"]

#: Test rows per chunk of the voted scores (their inner products with the updated rows).
VOTED_CHUNK = 1024


@hyperparameters
class MulticlassPerceptron(OnlineEstimator):
    r"""The multiclass perceptron: a weight vector per class; a mistake moves two of them.

    Every class :math:`k` scores an example :math:`s_k = \langle w_k, x\rangle + b_k`
    (:math:`b_k` the weight of a constant input 1; 0 without ``fit_intercept``).
    All start at 0. For each example :math:`x` of class :math:`c` in turn:

    1. the rival :math:`r` is the class other than :math:`c` with the highest
       score (the first in ``classes_`` order among equal scores);
    2. if :math:`s_c \le s_r` (a tie counts as a mistake):
       :math:`w_c \leftarrow w_c + \eta x`, :math:`w_r \leftarrow w_r - \eta x`,
       :math:`b_c \leftarrow b_c + \eta`, :math:`b_r \leftarrow b_r - \eta`,
       and a new hypothesis starts with no votes; otherwise the current
       hypothesis gains a vote.

    Prediction is the class with the highest score, the first in ``classes_``
    order among equal scores (NumPy's ``argmax``, as scikit-learn's
    classifiers). On data a linear machine separates with margin
    :math:`\gamma` (Kesler's construction, docs/algorithms.md §11) it makes at
    most :math:`(R/\gamma)^2` updates, :math:`R = \sqrt2 \max_j \lVert(x_j, 1)\rVert`,
    whatever :math:`\eta > 0` (from zero weights :math:`\eta` only scales them).

    One fit yields four predictors, chosen by ``predict_with`` or all at once
    by :meth:`predict_all` (docs/algorithms.md §11): ``"last"`` the final
    hypothesis; ``"longest"`` the one with most votes (the first of equal
    ones; hypothesis 0, all zeros, may win); ``"voted"``: each hypothesis
    from the first update on casts its votes for the class it predicts, and
    the class with most votes wins; ``"averaged"``: the vote-weighted mean of
    those hypotheses. Without a vote from hypothesis 1 on, voted and averaged
    are the last.

    Parameters
    ----------
    eta : float, default=1.0
        The learning rate (> 0). From zero weights every hypothesis is
        ``eta`` times the one of ``eta=1``: it changes no prediction.
    fit_intercept : bool, default=True
    epochs : int, default=100
        The most passes; training stops after a pass without an update.
    shuffle : bool, default=True
        Permute the training set once before training (``random_state``).
    random_state : None, int or numpy generator, default=None
    predict_with : {"last", "longest", "voted", "averaged"}, default="last"
    record : {"none", "updates", "all"}, default="none"
        What ``trace_`` keeps: a :class:`~perceptron_core.trace.MulticlassTrace`
        of every update or every visit.

    The update sequence (row, true class, rival and the votes of each
    hypothesis) is always kept, since three of the predictors are computed
    from it: four integers per update, and each updated row once.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    coef_ : ndarray of shape (n_classes, n_features)
        Every class's weights in the ``predict_with`` hypothesis ("voted" has
        no single one: its stand-in is the averaged).
    intercept_ : ndarray of shape (n_classes,)
    n_iter_ : int
        Epochs run.
    n_updates_, n_mistakes_ : int
        Updates made (each a mistake).
    converged_ : bool
        Whether the last epoch made no update.
    votes_ : ndarray of shape (n_updates_ + 1,)
        The votes of each hypothesis (0 the initial one).
    trace_ : MulticlassTrace or None

    References
    ----------
    R. O. Duda, P. E. Hart, D. G. Stork, *Pattern Classification*, 2nd ed.
    (Wiley, 2001), §5.12 (Kesler's construction, the fixed-increment rule).
    R. Khardon and G. Wachman, "Noise tolerant variants of the perceptron
    algorithm", JMLR 8 (2007) 227-248 (§2.7: one against the rest).

    Examples
    --------
    >>> import numpy as np
    >>> from perceptron_core import MulticlassPerceptron
    >>> X = np.array([[2.0, 0.0], [3.0, 1.0], [0.0, 2.0], [1.0, 3.0], [-2.0, -2.0], [-3.0, -1.0]])
    >>> y = ["a", "a", "b", "b", "c", "c"]
    >>> clf = MulticlassPerceptron(random_state=0).fit(X, y)
    >>> clf.predict([[4.0, 0.0], [0.0, 4.0], [-4.0, -4.0]]).tolist(), clf.score(X, y)
    (['a', 'b', 'c'], 1.0)
    >>> sorted(clf.predict_all(X)), clf.decision_function(X).shape
    (['averaged', 'last', 'longest', 'voted'], (6, 3))
    """

    eta: float = parameter(1.0, "the learning rate", Number(low=0, open_low=True))
    fit_intercept: bool = parameter(True, FIT_INTERCEPT)
    epochs: int = parameter(100, EPOCHS)
    shuffle: bool = parameter(True, SHUFFLE)
    random_state: int | np.random.RandomState | np.random.Generator | None = parameter(
        None, RANDOM_STATE
    )
    predict_with: str = parameter("last", "which hypothesis predicts", OneOf(MODES))
    record: str = parameter("none", RECORD)

    # -- training (the hooks of OnlineEstimator) ---------------------------------

    def _start(self, X, n_problems):
        K, n = len(self.classes_), X.shape[1]
        self._W = np.zeros((K, n))
        self._b = np.zeros(K)
        self._support = np.zeros((0, n))  # every updated row, once per call that updated it
        self._update_support = np.zeros(0, dtype=np.int64)  # the row of each update in it
        self._true = np.zeros(0, dtype=np.int64)
        self._rival = np.zeros(0, dtype=np.int64)
        self._closed_votes = np.zeros(0, dtype=np.int64)  # votes of hypotheses 0 .. U-1
        self._current_votes = 0
        self.n_seen_ = 0
        self.converged_ = False
        self._traces = None

    def _xb(self) -> float:
        return 1.0 if self.fit_intercept else 0.0

    def _train(self, X, y, n_epochs, *, fresh, in_place):
        order = self._order if fresh else np.arange(X.shape[0])
        unknown = ~np.isin(y, self.classes_)
        if unknown.any():
            raise ValueError(
                f"y contains the label {show(y[unknown][0])}, which is not among the classes "
                f"{list(self.classes_)} this model was first trained on."
            )
        Y = np.searchsorted(self.classes_, y).astype(np.int64)
        record = RECORD_MODES[self.record]
        W0, b0 = self._W.copy(), self._b.copy()
        plan = (int(n_epochs), int(fresh), record, self.n_seen_, self.n_iter_)
        events, n_ev, updates, n_up, stats = compiled_or_plain(trainer.run_epochs)(
            X,
            Y,
            order.astype(np.int64),
            self._W,
            self._b,
            (float(self.eta), self._xb()),
            plan,
            np.int64(self._current_votes),
        )
        epochs_run, _, converged, current_votes = (int(v) for v in stats)
        updates = updates[:n_up]
        rows = updates[:, 0].astype(np.int64) - self.n_seen_
        used, where = np.unique(rows, return_inverse=True)
        U_before = len(self._true)
        self._update_support = np.r_[self._update_support, len(self._support) + where]
        self._support = np.vstack([self._support, np.asarray(X[used], dtype=np.float64)])
        self._true = np.r_[self._true, updates[:, 1].astype(np.int64)]
        self._rival = np.r_[self._rival, updates[:, 2].astype(np.int64)]
        self._closed_votes = np.r_[self._closed_votes, updates[:, 3].astype(np.int64)]
        self._current_votes = current_votes
        if record:
            trace = self._trace_piece(events[:n_ev], updates, U_before, W0, b0, record)
            self._traces = [trace if self._traces is None else self._traces[0].extend(trace)]
        self.n_iter_ += epochs_run
        self.converged_ = bool(converged)
        self.n_seen_ += X.shape[0]

    def _trace_piece(self, events, updates, U_before, W0, b0, record) -> MulticlassTrace:
        """This call's events and updates as a :class:`MulticlassTrace`."""
        n_cols = len(trainer.EVENT_COLUMNS)
        kind = events[:, 2].astype(np.int8)
        rows = updates[:, 0].astype(np.int64)
        support = self._update_support[U_before:]
        return MulticlassTrace(
            epoch=events[:, 0].astype(np.int64),
            index=events[:, 1].astype(np.int64),
            kind=kind,
            rival=events[:, 3].astype(np.int64),
            n_updates=np.cumsum(kind != 0) if record == 2 else np.arange(1, len(kind) + 1),
            scores=events[:, n_cols:].copy(),
            visits=record == 2,
            rows=rows,
            true=updates[:, 1].astype(np.int64),
            rival_of_update=updates[:, 2].astype(np.int64),
            eta=float(self.eta),
            xb=self._xb(),
            W0=W0,
            b0=b0,
            x_rows={int(r): self._support[s].copy() for r, s in zip(rows, support)},
        )

    # -- the four predictors ---------------------------------------------------------

    @property
    def votes_(self) -> np.ndarray:
        """The votes of every hypothesis, the initial one first."""
        check_is_fitted(self)
        return np.r_[self._closed_votes, self._current_votes]

    def _steps(self):
        """Every update as ``(true, rival, x)``: the classes it moved and the row it added."""
        return self._true, self._rival, self._support[self._update_support]

    def _hypothesis(self, mode: str) -> tuple[np.ndarray, np.ndarray]:
        """``(W, b)`` of the last, longest or averaged hypothesis."""
        if mode == "last":
            return self._W, self._b
        votes = self.votes_
        W, b = np.zeros_like(self._W), np.zeros_like(self._b)
        eta, xb = float(self.eta), self._xb()
        if mode == "longest":
            weights = np.zeros(len(votes))  # update i belongs to hypotheses i + 1 and later
            weights[: kw.longest_survivor(votes)] = 1.0
            total = 1.0
        else:  # averaged: hypothesis k weighs casting(votes)[k]; update i is in every k > i
            cast = kw.casting(votes).astype(np.float64)
            total = cast.sum()
            if total == 0:
                return self._W, self._b
            weights = np.cumsum(cast[::-1])[::-1][1:]  # sum of the casts of hypotheses > i
        true, rival, x = self._steps()
        step = (eta * weights[: len(true)])[:, None] * x
        np.add.at(W, true, step)
        np.subtract.at(W, rival, step)
        np.add.at(b, true, eta * xb * weights[: len(true)])
        np.subtract.at(b, rival, eta * xb * weights[: len(true)])
        return W / total, b / total

    def _class_scores(self, X, mode: str) -> np.ndarray:
        """Every class's score, shape (n_samples, n_classes); the vote totals for "voted"."""
        X = np.asarray(X, dtype=np.float64)
        if mode != "voted":
            W, b = self._hypothesis(mode)
            return X @ W.T + self._xb() * b
        cast = kw.casting(self.votes_)
        if cast.sum() == 0:
            return self._class_scores(X, "last")
        out = np.empty((len(X), len(self.classes_)))
        for start in range(0, len(X), VOTED_CHUNK):
            part = X[start : start + VOTED_CHUNK]
            out[start : start + VOTED_CHUNK] = compiled_or_plain(trainer.voted_scores)(
                part @ self._support.T,
                self._update_support,
                self._true,
                self._rival,
                cast,
                float(self.eta),
                self._xb() ** 2,
                np.zeros((len(part), len(self.classes_))),
            )
        return out

    def _check_mode(self, mode):
        mode = self.predict_with if mode is None else mode
        if mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}; got {mode!r}.")
        return mode

    def _scores(self, X, mode=None):
        """The base's raw scores: every class's, or for two classes ``s_1 - s_0`` (> 0 predicts
        ``classes_[1]``, a tie ``classes_[0]``, as the first of equal scores)."""
        scores = self._class_scores(X, self._check_mode(mode))
        return scores[:, 1:] - scores[:, :1] if scores.shape[1] == 2 else scores

    def decision_function(self, X, mode=None):
        """Every class's score (the vote totals for "voted"); ``s_1 - s_0`` for two classes.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        mode : {"last", "longest", "voted", "averaged"} or None
            None uses ``predict_with``.
        """
        check_is_fitted(self)
        return self._one_or_all(self._scores(self._test_rows(X), mode))

    def predict_all(self, X) -> dict:
        """Labels from all four predictors of this one fit: ``{mode: labels}``."""
        check_is_fitted(self)
        rows = self._test_rows(X)
        return {mode: self._labels(self._scores(rows, mode)) for mode in MODES}

    def _shown(self) -> tuple[np.ndarray, np.ndarray]:
        """``(W, b)`` of the ``predict_with`` hypothesis; "voted" has no single one, and the
        averaged stands in for it."""
        check_is_fitted(self)
        return self._hypothesis("averaged" if self.predict_with == "voted" else self.predict_with)

    @property
    def coef_(self):
        return self._shown()[0].copy()

    @property
    def intercept_(self):
        return self._shown()[1].copy()

    @property
    def n_updates_(self) -> int:
        check_is_fitted(self)
        return len(self._true)

    @property
    def n_mistakes_(self) -> int:
        return self.n_updates_


# -- Kesler's construction and the mistake bound ---------------------------------------------


def kesler_vectors(X, y, n_classes: int, xb: float = 1.0) -> np.ndarray:
    """Kesler's construction: each example of class ``c`` as ``K - 1`` vectors of ``K (n + 1)``
    numbers, one per other class ``k``, with ``(x, xb)`` in block ``c``, ``-(x, xb)`` in block
    ``k`` and zeros elsewhere (Duda, Hart & Stork 2001, §5.12.1).

    Stacking the class vectors ``(w_k, b_k)`` into one vector ``U``, ``<U, φ> = s_c - s_k``:
    a linear machine classifies every example right exactly when ``<U, φ> > 0`` for every
    ``φ``, and the multiclass perceptron's update is the two-class perceptron's ``U += eta φ``
    on the vector of the rival.

    Parameters
    ----------
    X : (m, n) array; y : (m,) class numbers ``0 .. n_classes - 1``
    xb : float
        The constant input (1 with a bias, 0 without).

    Returns
    -------
    ndarray of shape (m (K - 1), K (n + 1))

    Examples
    --------
    >>> kesler_vectors(np.array([[2.0]]), np.array([1]), 3).tolist()
    [[-2.0, -1.0, 2.0, 1.0, 0.0, 0.0], [0.0, 0.0, 2.0, 1.0, -2.0, -1.0]]
    """
    Z = np.c_[np.asarray(X, dtype=np.float64), np.full(len(X), float(xb))]
    m, d = Z.shape
    K = int(n_classes)
    out = np.zeros((m, K - 1, K, d))
    for i, c in enumerate(np.asarray(y, dtype=np.int64)):
        others = [k for k in range(K) if k != c]
        out[i, :, c] = Z[i]
        out[i, np.arange(K - 1), others] = -Z[i]
    return out.reshape(m * (K - 1), K * d)


def kesler_bound(X, y, n_classes: int, xb: float = 1.0) -> tuple[float, float, float]:
    """The multiclass perceptron's mistake bound ``(R/γ)²`` through Kesler's construction.

    Novikoff's theorem (CS 446 notes, §0.3.3) applied to Kesler's vectors ``φ``
    (:func:`kesler_vectors`): ``R = max ||φ|| = √2 max ||(x, xb)||``, and ``γ`` the margin
    ``min <U, φ>`` of a unit ``U`` that separates them all. Any such ``U`` gives a valid
    bound. A linear program (SciPy's HiGHS) first decides whether one exists
    (``<U, φ> >= 1`` for every ``φ``); if so, the hard-margin problem on the ``φ`` (a linear
    SVM through the origin, scikit-learn's ``SVC`` on the ``φ`` and their negatives) gives the
    widest, and ``γ`` is measured on the better of the two ``U``, so the bound holds even
    where the solver stops short of the best one.

    Returns
    -------
    bound, R, gamma : float
        ``bound`` is inf and ``gamma`` 0 when no linear machine separates the classes.

    Examples
    --------
    >>> X = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, -1.0]])
    >>> bound, R, gamma = kesler_bound(X, np.array([0, 1, 2]), 3)
    >>> print(f"R = {R:.4f}, bound = {bound:.1f}")
    R = 2.4495, bound = 8.0
    """
    from scipy.optimize import linprog
    from sklearn.svm import SVC

    Phi = kesler_vectors(X, y, n_classes, xb)
    R = float(np.sqrt((Phi**2).sum(axis=1).max()))
    feasible = linprog(
        np.zeros(Phi.shape[1]), A_ub=-Phi, b_ub=-np.ones(len(Phi)), bounds=(None, None)
    )
    if feasible.status != 0:  # no U with <U, φ> > 0 for every φ: not separable
        return float("inf"), R, 0.0
    svm = SVC(kernel="linear", C=1e8, tol=1e-6, max_iter=1_000_000).fit(
        np.vstack([Phi, -Phi]), np.r_[np.ones(len(Phi)), -np.ones(len(Phi))]
    )
    gamma = max(float((Phi @ U).min() / np.linalg.norm(U)) for U in (feasible.x, svm.coef_[0]))
    return (R / gamma) ** 2, R, gamma
