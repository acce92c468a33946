"""The Khardon–Wachman perceptron family: one estimator, thin named variants.

:class:`KWPerceptron` is docs/algorithms.md §1: one compiled on-line loop with every switch
of Khardon & Wachman (2007) — threshold, margin (``tau``), λ-trick (``lam``),
α-bound (``alpha_bound``) — and one record per fit from which the last,
longest-survivor, voted and averaged predictions all come. The classes at the
end of the module (:class:`Perceptron`, :class:`MarginPerceptron`,
:class:`LongestSurvivorPerceptron`, :class:`VotedPerceptron`,
:class:`AveragedPerceptron`) fix a configuration and carry the docstring that
teaches it; they share every line of code.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from sklearn.utils.validation import check_is_fitted

from perceptron_core import vectors
from perceptron_core._estimator import OnlineEstimator
from perceptron_core._jit import compiled_or_plain, jit, read_only
from perceptron_core._validation import (
    BOOLEAN,
    SEED,
    Number,
    OneOf,
    Param,
    encode_labels,
    fixed,
    hyperparameters,
    parameter,
)
from perceptron_core.engine import kw_trainer
from perceptron_core.engine.kw_trainer import Model, Record
from perceptron_core.engine.record import HypothesisRecord, RunningAverage
from perceptron_core.modes import MODES
from perceptron_core.steps import kw
from perceptron_core.trace import MARGIN, MISTAKE, Trace

TAU = Param("the margin, in units of theta_init", (Number(0),))

#: ``record="all"`` stores one event per visit and problem; refuse beyond this.
MAX_RECORDED_EVENTS = 20_000_000
#: Epochs the per-epoch update counts have room for at the start of a run; they
#: grow as the epochs run (a fit asking for 10**8 epochs may converge in five).
FIRST_EPOCHS = 64

#: With ``shuffle=True`` and two or more epochs, :meth:`KWPerceptron.fit` trains
#: on a permuted copy of ``X`` when the copy takes at most this many bytes.
#: The trade-off is speed against memory. Rows read in the shuffled order
#: cost more than a sequential scan, even with prefetching, so an epoch over
#: the copy is faster (docs/benchmarks.md, "A permuted copy against reading in
#: place"). The copy, though,
#: adds the data's whole size to the fit's memory. Data up to this budget take
#: the copy; a single epoch, a ``numpy.memmap`` (data meant to stay on disk)
#: and larger data are read in place, so such a fit adds no copy of ``X``. Set
#: it to 0 to never copy (the fit then adds a fraction of the data's size
#: instead of more than all of it), or raise it to buy speed with memory;
#: results are identical either way.
PERMUTED_COPY_MAX_BYTES = 2**30


@jit
def _linear_scores(X, W, theta, out):
    """``out[r, c] = <W[c], X[r]> - theta[c]`` with the training loop's dot product."""
    for r in range(X.shape[0]):
        for c in range(W.shape[0]):
            out[r, c] = vectors.row_dot(W, c, X, r) - theta[c]


@hyperparameters
class KWPerceptron(OnlineEstimator):
    r"""The unified perceptron of Khardon & Wachman (2007), docs/algorithms.md §1.

    The classifier is :math:`\mathrm{sign}(\langle w, x\rangle - \theta)`. Each
    epoch visits the training examples in one fixed (optionally shuffled)
    order. For example :math:`x_j` with label :math:`y_j \in \{-1, +1\}`:

    1. score :math:`s = \langle w, x_j\rangle`, plus
       :math:`y_j \lambda \lVert x_j\rVert^2` if ``lam > 0`` and :math:`x_j`
       has already caused an update (the λ-trick);
    2. predict :math:`-1` if :math:`s < \theta - t`, :math:`+1` if
       :math:`s > \theta + t`, else :math:`0` (inside the margin band,
       :math:`t = \tau\,\theta_{init}`), where 0 counts as an error;
    3. on an error, unless :math:`x_j` has used up its ``alpha_bound``:
       :math:`w \leftarrow w + \eta y_j x_j`,
       :math:`\theta \leftarrow \theta - \eta y_j C`, and a new hypothesis
       starts with no votes; on a correct prediction the current hypothesis
       gains a vote.

    Sign of the threshold step: Khardon & Wachman's Figures 1 and 2 print
    :math:`\theta + \eta y C`, which contradicts their own prediction rule (a
    missed positive must *lower* the threshold) and the bias form of the PAUM
    paper (:math:`b \mathrel{+}= \eta y R^2` with :math:`\theta = -b`). This
    class uses the minus sign.

    One fit yields four predictors, chosen by ``predict_with`` or all at once
    by :meth:`predict_all`, never by retraining:

    * ``"last"``: the final hypothesis;
    * ``"longest"``: the hypothesis that made the longest run of correct
      predictions (votes carry over between epochs; hypothesis 0, the
      initial one, may win);
    * ``"voted"``: :math:`\mathrm{sign}\sum_{k\ge1} c_k\,\mathrm{sign}(\langle
      w_k,x\rangle - \theta_k)` over all hypotheses from the first update on,
      each weighted by its vote :math:`c_k`;
    * ``"averaged"``: the vote-weighted mean of those hypotheses.

    At prediction time the margin and the λ-trick play no part, and a score of
    exactly 0 counts as the negative class. If no hypothesis from 1 on has a
    vote (no update was ever followed by a correct prediction), "voted" and
    "averaged" fall back to the last hypothesis. Multi-class problems are
    learned one-vs-rest, all classes in the same pass over the data; the class
    with the largest raw score wins.

    Parameters
    ----------
    eta : float, default=0.1
        Learning rate.
    theta_init : float or "auto", default="auto"
        Starting threshold; "auto" is the mean squared norm of the training
        examples, :math:`\frac1m\sum_j\langle x_j, x_j\rangle`.
    C : float or "auto", default="auto"
        Threshold step per update; "auto" means ``theta_init``.
    tau : float, default=0.0
        Margin, in units of ``theta_init`` (0 turns it off).
    lam : float, default=0.0
        λ-trick strength (indicator form; 0 turns it off).
    alpha_bound : int or None, default=None
        Largest number of updates any one example may cause (None: no bound).
    epochs : int, default=100
        Passes over the training set in :meth:`fit`.
    shuffle : bool, default=True
        Permute the training set once before training.
    random_state : int, RandomState or None, default=None
        Seed of that permutation.
    predict_with : {"last", "longest", "voted", "averaged"}, default="last"
        Which hypothesis :meth:`predict`, :meth:`decision_function` and
        ``coef_`` use.
    record : {"none", "updates", "all"}, default="none"
        Store a :class:`~perceptron_core.trace.Trace` of every update, or of
        every visit, in ``trace_`` (for animations; "all" is for teaching-size
        data: it keeps one event per visit).

    What a fit keeps: the update record (every update's example and every
    hypothesis's vote, memory growing with the updates) only with
    ``predict_with="voted"`` or ``record`` other than "none"; the voted
    prediction, :meth:`predict_all` and ``votes_`` need it. Otherwise the
    memory kept does not grow with the epochs: the last and longest-survivor
    hypotheses are always kept, and the averaged one with
    ``predict_with="averaged"`` (one counter per example while fitting).

    Data: float64, float32, int8 and uint8 arrays are read as they are
    (scores accumulate in float64, so the storage type changes results only
    by rounding; integer data such as KW's attributes are exact in int8). A
    ``numpy.memmap`` is read from disk in place, epoch by epoch, never loaded
    whole; see :data:`PERMUTED_COPY_MAX_BYTES` for when a fit copies ``X``.

    ``partial_fit`` runs one epoch per call. The first call sets the classes
    (from ``classes`` or, if None, from ``y``), ``theta_init`` and ``C``
    (from this batch) and the visiting order. The λ-trick and the α-bound
    count updates per example by row position, so with ``lam > 0`` or an
    ``alpha_bound`` every call must pass the same rows in the same order (an
    epoch-by-epoch fit), and so must a traced fit (``record`` other than
    "none"); otherwise any batches may follow each other (a stream).

    The scikit-learn protocol is :class:`~perceptron_core._estimator.OnlineEstimator`'s;
    this class implements its hooks with the compiled loop of
    :mod:`perceptron_core.engine.kw_trainer` and the record of
    :mod:`perceptron_core.engine.record`. Its own hooks, which the dual form
    (:class:`~perceptron_core.kernel.KernelPerceptron`) overrides and nothing
    else does:

    * ``_count_dtype``: the integer type of the per-example update counts;
    * ``_keeps_list()`` and ``_keeps_clock()``: whether a fit keeps the update
      record (:class:`~perceptron_core.engine.record.HypothesisRecord`) and
      the averaged hypothesis's clock
      (:class:`~perceptron_core.engine.record.RunningAverage`);
    * ``_start(X, n_problems)``: the engine's own state, after
      ``_start_state`` has set the one the loops share;
    * ``_run(X, y, n_epochs, permuted_copy)``: one compiled run over the
      batch, its records (``_records``) folded in by ``_keep``;
    * ``_trace_piece(...)``: one call's events of one problem as a
      :class:`~perceptron_core.trace.Trace`;
    * ``_scores(X, mode, chunk_size, last)`` and ``_all_scores(X, modes,
      chunk_size)``: the raw scores of one predictor, or of several.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    coef_ : ndarray of shape (1, n_features) or (n_classes, n_features)
        Weights of the ``predict_with`` hypothesis ("voted" has no single
        one: its stand-in is the averaged hypothesis, as in Freund & Schapire).
    intercept_ : ndarray of shape (1,) or (n_classes,)
        :math:`-\theta` of that hypothesis.
    theta_init_, C_ : float
        The values used.
    margin_ : float
        :math:`t = \tau\,\theta_{init}`, the half-width of the band of margin
        errors in score units.
    n_features_in_ : int
    n_iter_ : int
        Epochs run (partial_fit calls add one each).
    n_updates_ : int
        Updates made, over all one-vs-rest problems.
    updates_per_epoch_ : ndarray of shape (n_iter_,)
        Updates made in each epoch (all problems).
    votes_ : ndarray of shape (n_updates + 1,), or a list of them per class
        The vote of each hypothesis (index 0 is the initial hypothesis); only
        when the update record is kept (see above).
    trace_ : Trace, dict of Trace, or None
        With ``record`` other than "none" (None otherwise).

    References
    ----------
    R. Khardon and G. Wachman, "Noise Tolerant Variants of the Perceptron
    Algorithm", JMLR 8 (2007). Y. Freund and R. E. Schapire, "Large Margin
    Classification Using the Perceptron Algorithm", Machine Learning 37 (1999).

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from perceptron_core import KWPerceptron
    >>> X, y = make_classification(n_samples=200, random_state=0)
    >>> clf = KWPerceptron(tau=0.5, epochs=20, random_state=0, record="updates").fit(X, y)
    >>> acc = {mode: float((pred == y).mean()) for mode, pred in clf.predict_all(X).items()}
    >>> sorted(acc)
    ['averaged', 'last', 'longest', 'voted']
    >>> acc["voted"] > 0.9
    True

    A memmap stays on disk and trains as the array in memory does:

    >>> import numpy as np, tempfile, os
    >>> rng = np.random.default_rng(0)
    >>> X = rng.integers(-10, 11, size=(1000, 20)).astype(np.int8)
    >>> y = np.where(X[:, 0] + X[:, 1] > 0, 1, -1)
    >>> path = os.path.join(tempfile.mkdtemp(), "X.npy")
    >>> np.save(path, X)
    >>> on_disk = np.load(path, mmap_mode="r")
    >>> a = KWPerceptron(epochs=3, random_state=0).fit(on_disk, y)
    >>> b = KWPerceptron(epochs=3, random_state=0).fit(X, y)
    >>> bool((a.coef_ == b.coef_).all())
    True

    Epoch by epoch with ``partial_fit``:

    >>> X = np.array([[2.0, 1.0], [-1.0, -2.0], [1.5, 2.0], [-2.0, -0.5]])
    >>> y = np.array([1, -1, 1, -1])
    >>> clf = KWPerceptron(random_state=0)
    >>> for _ in range(3):
    ...     clf = clf.partial_fit(X, y)
    >>> clf.n_iter_, clf.score(X, y)
    (3, 1.0)
    """

    #: The configurations the scikit-learn conformance checks build (the first in the fast
    #: suite; tests/test_sklearn_conformance.py): every switch on takes other paths.
    _check_params: ClassVar[tuple[dict, ...]] = (
        {},
        {"tau": 0.5, "lam": 0.5, "alpha_bound": 10, "predict_with": "voted"},
    )

    eta: float = parameter(
        0.1, "the learning rate: how far one update moves w", Number(0, open_low=True)
    )
    theta_init: float | str = parameter(
        "auto", "the starting threshold", OneOf(("auto",)), Number()
    )
    C: float | str = parameter(
        "auto", "how far one update moves the threshold", OneOf(("auto",)), Number(0)
    )
    tau: float = parameter(0.0, TAU)
    lam: float = parameter(0.0, "the strength of the λ-trick", Number(0))
    alpha_bound: int | None = parameter(
        None,
        "the most updates one example may cause",
        OneOf((None,)),
        Number(1, integer=True),
    )
    epochs: int = parameter(100, "the number of passes over the data", Number(1, integer=True))
    shuffle: bool = parameter(True, "whether to permute the data once before training", BOOLEAN)
    random_state: int | np.random.RandomState | np.random.Generator | None = parameter(
        None, "the seed of the permutation", SEED
    )
    predict_with: str = parameter("last", "which hypothesis predicts", OneOf(MODES))
    record: str = parameter(
        "none", "what training history to keep", OneOf(("none", "updates", "all"))
    )

    # -- training (the hooks of OnlineEstimator) -------------------------------

    #: The type of the per-example update counts, as the compiled loop reads them.
    _count_dtype: ClassVar[type[np.signedinteger]] = np.int32

    def _start(self, X, n_problems):
        """Fresh state for a new fit: the primal weights and the shared record."""
        K = n_problems
        self._start_state(X, K, lambda: compiled_or_plain(vectors.squared_norms)(X).mean())
        self._W = np.zeros((K, X.shape[1]))
        self._W_best = np.zeros((K, X.shape[1]))
        self._traced_X = None

    def _train(self, X, y, n_epochs, *, fresh, in_place):
        """Run :meth:`_run`; a fit of several epochs reads a permuted copy of ``X`` when it
        fits :data:`PERMUTED_COPY_MAX_BYTES` and did not come as a memmap."""
        copy = fresh and n_epochs >= 2 and X.nbytes <= PERMUTED_COPY_MAX_BYTES and not in_place
        self._run(X, y, n_epochs, permuted_copy=copy)

    def _start_state(self, X, K: int, mean_square_norm) -> None:
        """The state a fit of ``K`` one-vs-rest problems starts from, primal or dual.

        ``mean_square_norm()`` is what ``theta_init="auto"`` means: the mean
        ``<x, x>`` (``k(x, x)`` in dual form), asked for only then.
        """
        m, n = X.shape
        self.theta_init_ = (
            float(mean_square_norm()) if self.theta_init == "auto" else float(self.theta_init)
        )
        self.C_ = self.theta_init_ if self.C == "auto" else float(self.C)
        self.margin_ = float(kw.absolute_margin(float(self.tau), self.theta_init_))
        self._epoch_updates: list[tuple[np.ndarray, int]] = []
        self._theta = np.full(K, self.theta_init_)
        self._counts = np.zeros((K, m), dtype=self._count_dtype)  # updates per example
        self._state = np.zeros((K, kw.SURVIVAL_COLUMNS), dtype=np.int64)  # the survival table
        self._state[:, kw.SNAPSHOT_K] = -1
        self._n_upd = np.zeros(K, dtype=np.int64)
        self._votes = np.zeros((K, 1 if self._keeps_list() else 0), dtype=np.int64)
        self._upd_rows = np.zeros((K, 0), dtype=np.int64)
        self._upd_step = np.zeros((K, 0), dtype=np.int64)
        self._upd_kind = np.zeros((K, 0), dtype=np.int8)
        self._upd_score = np.zeros((K, 0))
        self._steps = 0
        self._hyp = (
            HypothesisRecord(K, n, self.eta, self.C_, self.theta_init_, X.dtype)
            if self._keeps_list()
            else None
        )
        self._average = RunningAverage(K, n) if self._keeps_clock() else None
        # the longest survivor's snapshot: the primal loop's (see _start)
        self._W_best, self._theta_best = np.zeros((K, 0)), self._theta.copy()
        self._traces = [None] * K if self.record != "none" else None

    def _keeps_list(self) -> bool:
        """Whether a fit keeps the update record (the voted prediction and the replay need it)."""
        return self.predict_with == "voted" or self.record != "none"

    def _keeps_clock(self) -> bool:
        """Whether a fit keeps the averaged hypothesis (:class:`RunningAverage`)."""
        return self._keeps_list() or self.predict_with == "averaged"

    def _records(self, m: int, n_epochs: int):
        """Check a batch of ``m`` rows against the state; the records a compiled run fills."""
        K = len(self._theta)
        if m != self._counts.shape[1]:
            if self.lam > 0 or self.alpha_bound is not None:
                raise ValueError(
                    f"This batch has {m} rows but the first had {self._counts.shape[1]}. With "
                    "lam > 0 or an alpha_bound, updates are counted per example, so every "
                    "partial_fit call must pass the same rows in the same order."
                )
            self._counts = np.zeros((K, m), dtype=self._count_dtype)
            self._order = self._rng.permutation(m) if self.shuffle else np.arange(m)
        if self.record == "all" and K * n_epochs * m > MAX_RECORDED_EVENTS:
            raise ValueError(
                f"record='all' would store {K * n_epochs * m:,} events (one per visit), more "
                f"than the {MAX_RECORDED_EVENTS:,} allowed; use record='updates', fewer "
                "epochs or less data."
            )
        n_visits = n_epochs * m if self.record == "all" else 0
        visit_kind = np.zeros((K, n_visits), dtype=np.int8)
        visit_score = np.zeros((K, n_visits, 2))  # the score and the λ-trick's term in it
        epoch_updates = np.zeros((K, min(n_epochs, FIRST_EPOCHS)), dtype=np.int64)
        clock = np.zeros((K, m if self._average is not None else 0), dtype=np.int64)
        return Record(
            votes=self._votes,
            upd_rows=self._upd_rows,
            upd_step=self._upd_step,
            upd_kind=self._upd_kind,
            upd_score=self._upd_score,
            visit_kind=visit_kind,
            visit_score=visit_score,
            per_epoch=epoch_updates,
            full=self._traces is not None,
            clock=clock,
            W_best=self._W_best,
            theta_best=self._theta_best,
        )

    def _settings(self) -> kw_trainer.Settings:
        """The switches (docs/algorithms.md §1.1) as the compiled decision reads them."""
        return kw_trainer.Settings(
            eta=float(self.eta),
            C=float(self.C_),
            margin=self.margin_,
            lam=float(self.lam),
            alpha_bound=kw_trainer.NO_BOUND if self.alpha_bound is None else int(self.alpha_bound),
        )

    def _keep(self, X, Y, log, n_before, n_epochs):
        """Fold a compiled run's records (``log``, grown by it) into the estimator."""
        K, m = len(self._theta), len(X)
        self._votes, self._upd_rows, self._upd_step = log.votes, log.upd_rows, log.upd_step
        self._upd_kind, self._upd_score = log.upd_kind, log.upd_score
        if self._hyp is not None:
            new_rows = [self._upd_rows[c, n_before[c] : self._n_upd[c]] for c in range(K)]
            self._hyp.extend(
                X,
                Y,
                new_rows,
                [self._votes[c, : self._n_upd[c] + 1] for c in range(K)],
                self._state[:, kw.LONGEST_K],
            )
        if self._traces is not None:
            for c in range(K):
                piece = self._trace_piece(
                    X, Y[c], c, n_before[c], log.visit_kind[c], log.visit_score[c]
                )
                self._traces[c] = (
                    piece if self._traces[c] is None else self._traces[c].extend(piece)
                )
        self._steps += n_epochs * m
        self.n_iter_ += n_epochs
        self._note_epochs(log.per_epoch, n_epochs)

    def _run(self, X, y, n_epochs, permuted_copy=False):
        """Run ``n_epochs`` epochs of the kernel and fold the results into the record.

        With ``permuted_copy`` the kernel reads ``X`` gathered in visiting
        order (same arithmetic, sequential memory access); the recorded rows
        are mapped back to rows of ``X``.
        """
        m = len(X)
        log = self._records(m, n_epochs)
        if self._traces is not None:
            if self._traced_X is None:
                self._traced_X = X.copy()
            elif not np.array_equal(X, self._traced_X):
                raise ValueError(
                    f"record={self.record!r} traces one training set, but this partial_fit "
                    "call passed other rows than the first. Pass the same rows to every call "
                    "(an epoch-by-epoch fit), or use record='none' to stream batches."
                )
        Y = encode_labels(y, self.classes_, np.int8)  # small: one row per class
        Xk, Yk, visit = X, Y, self._order
        permuted_copy = permuted_copy and self.shuffle
        if permuted_copy:
            # C order, as the unpermuted arrays: numba would compile the loop again for the
            # Fortran order that picking columns of several rows gives. The counts are
            # permuted in place of the originals (restored below), before X is copied:
            # the fit's peak holds one copy of each.
            self._counts = np.ascontiguousarray(self._counts[:, visit])
            Yk, Xk = np.ascontiguousarray(Y[:, visit]), read_only(X[visit])
        if permuted_copy or not self.shuffle:
            visit = np.zeros(0, dtype=np.int64)  # rows in order, no index array
        counts = self._counts
        n_before = self._n_upd.copy()
        counts_before = counts.copy() if self._average is not None else None
        norms2 = compiled_or_plain(vectors.squared_norms)(Xk) if self.lam > 0 else np.zeros(0)
        model = Model(self._W, self._theta, counts, self._state, self._n_upd)
        log = compiled_or_plain(kw_trainer.run_epochs)(
            Xk,
            Yk,
            visit,
            norms2,
            self._settings(),
            model,
            log,
            n_epochs,
            self._steps,
            kw_trainer.prefetch_distance(Xk, visit),
        )
        del Xk, Yk
        if permuted_copy:  # back from positions in the copy to rows of X
            self._counts = np.empty_like(counts)
            self._counts[:, self._order] = counts
            if counts_before is not None:
                counts_before[:, self._order] = counts_before.copy()
                log.clock[:, self._order] = log.clock.copy()
            rows = log.upd_rows
            for c in range(len(self._theta)):
                new = slice(n_before[c], self._n_upd[c])
                rows[c, new] = self._order[rows[c, new]]
        del counts
        if self._average is not None:  # the rows of X in order, with or without a copy
            made = self._counts - counts_before
            self._average.fold(X, Y, made, log.clock, self._state[:, kw.TOTAL_VOTES])
        self._keep(X, Y, log, n_before, n_epochs)

    def _note_epochs(self, per_epoch, n_epochs):
        """Keep the updates of the epochs this call counted (those after are 0)."""
        self._epoch_updates.append((per_epoch.sum(axis=0)[:n_epochs], n_epochs))

    @property
    def updates_per_epoch_(self):
        """Updates made in each epoch (all problems together), shape ``(n_iter_,)``."""
        return np.concatenate(
            [np.zeros(0, dtype=np.int64)]
            + [np.pad(counted, (0, n - len(counted))) for counted, n in self._epoch_updates]
        )

    def _trace_piece(self, X, y, c, n_before, visit_kind, visit_score) -> Trace:
        """This call's events and updates of problem ``c`` as a :class:`Trace`."""
        m = len(X)
        new = slice(n_before, self._n_upd[c])
        rows = self._upd_rows[c, new].copy()
        if self.record == "all":
            local = np.arange(len(visit_kind))
            kind = visit_kind.copy()
            score, lam_term = visit_score[:, 0].copy(), visit_score[:, 1].copy()
            n_updates = np.cumsum((kind == MISTAKE) | (kind == MARGIN))
        else:
            local = self._upd_step[c, new] - self._steps
            kind, score = self._upd_kind[c, new].copy(), self._upd_score[c, new].copy()
            lam_term = None  # recorded with every visit only
            n_updates = np.arange(1, len(rows) + 1)
        signs = y[rows].astype(np.float64)
        return Trace(
            epoch=self.n_iter_ + local // m,
            index=self._order[local % m],
            kind=kind,
            score=score,
            lam_term=lam_term,
            n_updates=n_updates,
            visits=self.record == "all",
            rows=rows,
            coef=self.eta * signs,
            theta_delta=-self.eta * self.C_ * signs,
            w0=np.zeros(X.shape[1]),
            theta0=self.theta_init_,
            x_rows={int(r): X[r].astype(np.float64) for r in np.unique(rows)},
        )

    # -- prediction ----------------------------------------------------------

    def _hypothesis(self, mode: str):
        """``(W, theta)`` of the last, longest or averaged hypothesis, all problems."""
        if mode == "last":
            return self._W, self._theta
        if mode == "longest":  # the current hypothesis, or the snapshot taken when it ended
            current = self._state[:, kw.LONGEST_K] == self._n_upd
            return (
                np.where(current[:, None], self._W, self._W_best),
                np.where(current, self._theta, self._theta_best),
            )
        self._require_kept(mode)
        pairs = []
        assert self._average is not None  # _require_kept has checked it was kept
        for c in range(self._W.shape[0]):
            pair = self._average.hypothesis(c, self.eta, self.C_, self.theta_init_)
            pairs.append(pair if pair is not None else (self._W[c], self._theta[c]))
        return np.stack([w for w, _ in pairs]), np.array([t for _, t in pairs])

    def _require_kept(self, what: str) -> None:
        """Raise a clear error when ``what`` needs a record this fit did not keep."""
        if what == "averaged" and self._average is not None:
            return
        if what != "averaged" and self._hyp is not None:
            return
        keeps = "predict_with='averaged', " if what == "averaged" else ""
        raise ValueError(
            f"{what} needs the update record, which this fit did not keep (with "
            f"predict_with={self.predict_with!r} and record={self.record!r} the memory kept "
            f"does not grow with the updates). Fit with {keeps}predict_with='voted' or "
            "record='updates' to keep it."
        )

    def _scores(self, X, mode: str | None = None, chunk_size=None, last=None) -> np.ndarray:
        """Raw scores of shape (n_samples, n_problems) of ``mode`` (None: ``predict_with``).

        ``last``: the scores of the last hypothesis, when already computed.
        """
        mode = self._check_mode(mode)
        if mode == "voted":
            self._require_kept("the voted prediction")
            if last is None:
                last = self._scores(X, "last")
            assert self._hyp is not None  # _require_kept has checked it was kept
            return self._hyp.voted_scores(X, last, chunk_size)
        W, theta = self._hypothesis(mode)
        out = np.empty((len(X), W.shape[0]))
        compiled_or_plain(_linear_scores)(
            X, np.ascontiguousarray(W), np.ascontiguousarray(theta), out
        )
        return out

    def _all_scores(self, X, modes, chunk_size=None) -> dict:
        """Raw scores ``{mode: (n_samples, n_problems)}``, the last hypothesis's computed once."""
        last = self._scores(X, "last")
        return {
            mode: last if mode == "last" else self._scores(X, mode, chunk_size, last)
            for mode in modes
        }

    def _check_mode(self, mode):
        mode = self.predict_with if mode is None else mode
        if mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}; got {mode!r}.")
        return mode

    def decision_function(self, X, mode=None, chunk_size=None):
        """Raw scores: ``<w,x> - theta``, or the vote sum for "voted".

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        mode : {"last", "longest", "voted", "averaged"} or None
            None uses ``predict_with``.
        chunk_size : int or None
            Test rows per chunk of the voted product: the memory a voted
            prediction adds is about ``chunk_size * n_support * 8`` bytes
            (plus blocks of 1,024 support rows in floating point), whatever the
            number of test rows; None picks it for 64 MiB. Any value gives
            the same scores. (Fashion-MNIST after one epoch has about 24,000
            support rows: ``chunk_size=100`` bounds the product to 19 MB.)

        Returns
        -------
        ndarray of shape (n_samples,) for two classes, else (n_samples, n_classes)
        """
        check_is_fitted(self)
        mode = self._check_mode(mode)
        return self._one_or_all(self._scores(self._test_rows(X), mode, chunk_size))

    def predict_all(self, X, chunk_size=None) -> dict:
        """Labels from all four predictors of this one fit.

        Returns
        -------
        dict
            ``{"last": ..., "longest": ..., "voted": ..., "averaged": ...}``,
            each an array of labels of shape (n_samples,).
        """
        check_is_fitted(self)
        self._require_kept("predict_all")
        scores = self._all_scores(self._test_rows(X), MODES, chunk_size)
        return {mode: self._labels(scores[mode]) for mode in MODES}

    # -- fitted attributes -----------------------------------------------------

    @property
    def coef_(self):
        check_is_fitted(self)
        mode = "averaged" if self.predict_with == "voted" else self.predict_with
        return self._hypothesis(mode)[0].copy()

    @property
    def intercept_(self):
        check_is_fitted(self)
        mode = "averaged" if self.predict_with == "voted" else self.predict_with
        return -self._hypothesis(mode)[1]

    @property
    def n_updates_(self) -> int:
        check_is_fitted(self)
        return int(self._n_upd.sum())

    @property
    def votes_(self):
        check_is_fitted(self)
        if self._hyp is None:
            try:
                self._require_kept("votes_")
            except ValueError as error:  # an attribute this fit does not have
                raise AttributeError(str(error)) from None
        votes = [v.copy() for v in self._hyp.votes]
        return votes[0] if len(votes) == 1 else votes


# ---------------------------------------------------------------------------
# Named configurations: each fixes some switches and teaches one idea.
# A fixed switch leaves the constructor, so get_params shows only what is free.
# ---------------------------------------------------------------------------


@hyperparameters
class Perceptron(KWPerceptron):
    r"""The classic perceptron with a threshold (Rosenblatt): the unified trainer, no switch on.

    Update on every mistake, :math:`w \leftarrow w + \eta y x`,
    :math:`\theta \leftarrow \theta - \eta y C`; predict with the last
    hypothesis. On separable data it stops updating after finitely many
    updates: at most :math:`(R/\gamma)^2` (Novikoff) when started at
    :math:`\theta = 0`, with :math:`R` and :math:`\gamma` measured after
    folding the threshold in as a coordinate (:math:`z = (x, -\sqrt{C})`,
    :math:`v = (w, \theta/\sqrt{C})`). The default start
    :math:`\theta_{init}` = mean :math:`\lVert x\rVert^2` shifts that bound.
    On noisy data it never settles.

    Parameters
    ----------
    eta, theta_init, C, epochs, shuffle, random_state, record
        As in :class:`KWPerceptron`.

    Examples
    --------
    >>> from perceptron_core import Perceptron
    >>> X = [[0.0, 1.0], [1.0, 2.0], [3.0, 0.0], [4.0, 1.0]]
    >>> Perceptron(epochs=10, random_state=0).fit(X, [0, 0, 1, 1]).predict([[5.0, 0.0]])
    array([1])
    """

    tau: float = fixed(0.0)
    lam: float = fixed(0.0)
    alpha_bound: int | None = fixed(None)
    predict_with: str = fixed("last")


@hyperparameters
class MarginPerceptron(KWPerceptron):
    r"""The perceptron with margin (PAM, Krauth & Mézard; Khardon & Wachman 2007, section 2.4).

    Updates not only on mistakes but whenever
    :math:`|\langle w,x\rangle - \theta| \le \tau\,\theta_{init}`: examples
    inside the margin band count as errors, which pushes the boundary away
    from both classes. The default ``tau=0.5`` lies in the middle of Khardon
    & Wachman's grid.

    Parameters
    ----------
    tau : float, default=0.5
        Margin in units of ``theta_init``.
    eta, theta_init, C, epochs, shuffle, random_state, predict_with, record
        As in :class:`KWPerceptron`.

    Examples
    --------
    >>> from perceptron_core import MarginPerceptron
    >>> X = [[0.0, 1.0], [1.0, 2.0], [3.0, 0.0], [4.0, 1.0]]
    >>> clf = MarginPerceptron(tau=1.0, epochs=50, random_state=0).fit(X, [0, 0, 1, 1])
    >>> clf.score(X, [0, 0, 1, 1])
    1.0
    """

    tau: float = parameter(0.5, TAU)
    lam: float = fixed(0.0)
    alpha_bound: int | None = fixed(None)


@hyperparameters
class LongestSurvivorPerceptron(KWPerceptron):
    r"""Predict with the hypothesis that survived longest (Kearns et al., 1987).

    While training, every hypothesis counts its run of consecutive correct
    predictions; the one with the longest run is kept. On noisy data this
    avoids ending on a hypothesis that was just spoiled by a noisy example.
    Khardon & Wachman (2007) credit the variant to Kearns et al. (1987) and
    Gallant (1990) in their introduction (section 1), and the guarantee for
    it to Kearns et al. in section 2.5. Gallant's pocket algorithm (1990) is
    related, not the same: with its ratchet a longer run replaces the kept
    hypothesis only if it is also more accurate on the whole training set.

    Parameters
    ----------
    eta, theta_init, C, tau, lam, alpha_bound, epochs, shuffle, random_state, record
        As in :class:`KWPerceptron`.

    Examples
    --------
    >>> from perceptron_core import LongestSurvivorPerceptron
    >>> X = [[0.0, 1.0], [1.0, 2.0], [3.0, 0.0], [4.0, 1.0]]
    >>> LongestSurvivorPerceptron(random_state=0).fit(X, [0, 0, 1, 1]).predict(X)
    array([0, 0, 1, 1])
    """

    predict_with: str = fixed("longest")


@hyperparameters
class VotedPerceptron(KWPerceptron):
    r"""The voted perceptron of Freund & Schapire (1999).

    Every hypothesis :math:`(w_k, \theta_k)` from the first update on gets a
    vote :math:`c_k`, the number of examples it classified correctly before
    the next update; the prediction is
    :math:`\mathrm{sign}\sum_k c_k\,\mathrm{sign}(\langle w_k,x\rangle-\theta_k)`.
    Scores of all hypotheses come from one matrix product and a running sum
    along the update sequence, never from a loop over weight vectors.

    Parameters
    ----------
    eta, theta_init, C, tau, lam, alpha_bound, epochs, shuffle, random_state, record
        As in :class:`KWPerceptron`.

    Examples
    --------
    >>> from perceptron_core import VotedPerceptron
    >>> X = [[0.0, 1.0], [1.0, 2.0], [3.0, 0.0], [4.0, 1.0]]
    >>> VotedPerceptron(random_state=0).fit(X, [0, 0, 1, 1]).predict(X)
    array([0, 0, 1, 1])
    """

    predict_with: str = fixed("voted")


@hyperparameters
class AveragedPerceptron(KWPerceptron):
    r"""The averaged perceptron: the vote-weighted mean hypothesis.

    :math:`w_{avg} = \sum_k c_k w_k / \sum_k c_k` (and the same for
    :math:`\theta`), a single linear classifier that approximates the voted
    one. Update :math:`i` is part of every later hypothesis, so it counts
    with the votes those got; training keeps one integer per example for
    that (:class:`~perceptron_core.engine.record.RunningAverage`), not the
    update sequence.

    Parameters
    ----------
    eta, theta_init, C, tau, lam, alpha_bound, epochs, shuffle, random_state, record
        As in :class:`KWPerceptron`.

    Examples
    --------
    >>> from perceptron_core import AveragedPerceptron
    >>> X = [[0.0, 1.0], [1.0, 2.0], [3.0, 0.0], [4.0, 1.0]]
    >>> AveragedPerceptron(random_state=0).fit(X, [0, 0, 1, 1]).predict(X)
    array([0, 0, 1, 1])
    """

    predict_with: str = fixed("averaged")
