r"""The kernel perceptron: dual form, every Khardon–Wachman switch (docs/algorithms.md §3).

The primal perceptron keeps a weight vector :math:`w = \eta\sum_i y_{j(i)}
x_{j(i)}` built from the examples it updated on. Only inner products
:math:`\langle x_j, x\rangle` ever reach the prediction, so replacing them by a
kernel :math:`k(x_j, x)` learns a linear classifier in the kernel's feature
space without ever forming a vector there:

.. math::

    f(x) = \sum_j \eta\, a_j\, y_j\, k(x_j, x) - \theta,

where :math:`a_j` counts the updates example :math:`j` caused. Everything else
of the unified trainer (docs/algorithms.md §1: threshold step, margin band, λ-trick,
α-bound, votes, longest survivor) carries over unchanged; with the linear kernel the dual makes the
same updates as :class:`~perceptron_core.linear.KWPerceptron` and its scores
agree to rounding.

The training loop keeps a running score per training example and adds one
kernel column per update (:mod:`perceptron_core.engine.dual_trainer`); the
columns come from a cache (:mod:`perceptron_core.engine.kernel_cache`).

At prediction time the record of updates and votes of
:mod:`perceptron_core.engine.record` yields the last, longest-survivor, voted and
averaged classifiers from one run; the voted scores of all hypotheses come
from one kernel matrix ``k(support, X_test)`` and the running sum along the
update sequence of :func:`perceptron_core.engine.kw_trainer.voted_scores`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import Any, ClassVar, cast

import numpy as np
from sklearn.utils.validation import check_is_fitted

from perceptron_core._jit import compiled_or_plain
from perceptron_core._validation import (
    Anything,
    Number,
    OneOf,
    encode_labels,
    fixed,
    hyperparameters,
    parameter,
)
from perceptron_core.engine.dual_record import KernelTrace, dual_model, dual_scores
from perceptron_core.engine.dual_trainer import run_dual_epochs
from perceptron_core.engine.kernel_cache import (
    KERNELS,
    LINEAR,
    MIB,
    PRECOMPUTED,
    RBF,
    KernelBatch,
    KernelSpec,
)
from perceptron_core.engine.kw_trainer import Model
from perceptron_core.engine.record import DEFAULT_CHUNK_BYTES
from perceptron_core.linear import KWPerceptron
from perceptron_core.metrics import sparsity
from perceptron_core.trace import Trace

__all__ = ["AveragedKernelPerceptron", "KernelPerceptron", "KernelTrace"]


def _is_kernel_function(value) -> bool:
    return callable(value) and not isinstance(value, str | type)


@hyperparameters
class KernelPerceptron(KWPerceptron):
    r"""The Khardon–Wachman perceptron in dual form, with a kernel (docs/algorithms.md §3.1).

    The classifier is

    .. math::

        f(x) = \sum_j \eta\, a_j\, y_j\, k(x_j, x) - \theta,
        \qquad \hat y = \mathrm{sign}(f(x)),

    where :math:`a_j` is the number of updates example :math:`j` caused. It
    is :class:`~perceptron_core.linear.KWPerceptron` with every inner product
    :math:`\langle x, x'\rangle` replaced by :math:`k(x, x')`; each epoch
    visits the (once permuted) training set and, for example :math:`x_j`:

    1. reads its running score :math:`s = \sum_i \eta a_i y_i k(x_i, x_j)`,
       plus :math:`y_j \lambda\, k(x_j, x_j)` if ``lam > 0`` and
       :math:`a_j > 0` (the λ-trick: :math:`k(x_j,x_j)` is the kernel-space
       :math:`\lVert x_j\rVert^2`);
    2. predicts :math:`-1` below :math:`\theta - t`, :math:`+1` above
       :math:`\theta + t`, 0 inside the band (:math:`t = \tau\,\theta_{init}`);
    3. on an error, unless :math:`a_j` reached ``alpha_bound``:
       :math:`a_j \leftarrow a_j + 1` and
       :math:`\theta \leftarrow \theta - \eta y_j C`; every running score
       gains :math:`\eta y_j k(x_r, x_j)`, one kernel column (O(m) work);
    4. on a correct prediction the current hypothesis gains a vote.

    (The minus sign of the threshold step departs from Khardon & Wachman's
    Figures 1–2, whose plus sign contradicts their own prediction rule; see
    :class:`KWPerceptron` and docs/algorithms.md §1.3.) With
    ``kernel="linear"`` this makes exactly the updates of
    :class:`KWPerceptron` with the same switches and seed, and the scores
    agree to rounding: the dual is the primal written in terms of the
    examples.

    Kernels: ``"linear"`` :math:`\langle x,x'\rangle`; ``"poly"``
    :math:`(\gamma\langle x,x'\rangle + c_0)^d` (Khardon & Wachman use
    :math:`d = 4`); ``"rbf"`` :math:`\exp(-\gamma\lVert x-x'\rVert^2)`, i.e.
    the Gaussian :math:`\exp(-\lVert x-x'\rVert^2 / 2\sigma^2)` with
    :math:`\gamma = 1/2\sigma^2`; or a function ``k(A, B)`` returning the
    matrix of values for the rows of ``A`` and ``B`` (like scikit-learn's
    pairwise kernels). A kernel function is evaluated once on the whole
    training set, so its Gram matrix must fit ``cache_size_mb``; the built-in
    kernels compute columns on demand.

    One fit yields the ``"last"``, ``"longest"``, ``"voted"`` and
    ``"averaged"`` predictors (see :class:`KWPerceptron`); here the voted
    scores of all hypotheses come from one kernel matrix
    :math:`k(\text{support}, X)` and a running sum along the update sequence.
    Sign of exactly 0 counts as the negative class. Multi-class problems are
    learned one-vs-rest in one pass (a column fetched for one class serves
    all of them).

    The class is :class:`KWPerceptron` with another engine: it overrides the
    hooks :class:`KWPerceptron` documents for that (``_count_dtype``,
    ``_keeps_list``, ``_keeps_clock``, ``_start``, ``_run``,
    ``_trace_piece``, ``_scores``, ``_all_scores``) and the base's
    ``_train`` (to free the column cache after a fit), and nothing else of it.

    Parameters
    ----------
    kernel : {"linear", "poly", "rbf"} or callable, default="rbf"
    degree : int, default=4
        Degree of the polynomial kernel.
    coef0 : float, default=1.0
        :math:`c_0` of the polynomial kernel.
    gamma : float or None, default=None
        Scale of the rbf and poly kernels. None: ``1 / (n_features * X.var())``
        for "rbf" (scikit-learn's "scale"; 1 if ``X`` is constant) and 1 for
        "poly", which gives :math:`(\langle x,x'\rangle + c_0)^d`.
    eta : float, default=0.1
    theta_init : float or "auto", default="auto"
        "auto" is the mean of :math:`k(x_j, x_j)`, the kernel-space analogue
        of the mean squared norm (it *is* the mean squared norm, KW's
        default, for the linear kernel; 1 for "rbf").
    C, tau, lam, alpha_bound, epochs, shuffle, random_state, predict_with, record
        As in :class:`KWPerceptron`; ``lam`` is the λ-trick in KW's indicator
        form (compare :class:`~perceptron_core.rules.paum.PAUMPerceptron`).
    cache_size_mb : float, default=200
        Memory for kernel columns, in MiB. When the Gram matrix
        (:math:`8m^2` bytes) fits, each column is computed at most once;
        otherwise ``cache_size_mb * 2**20 / (8 m)`` column slots are used (at
        least one, the scratch space of a column in use): the columns
        requested most often stay, the others are recomputed when needed
        (0 turns caching off). Results do not depend on it.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    support_ : ndarray of shape (n_support,)
        Indices of the training examples with :math:`a_j > 0` for some
        problem, in the data of the last ``fit``/``partial_fit`` call.
    support_vectors_ : ndarray of shape (n_support_total, n_features)
        Every distinct example any update used (after ``fit``: ``X[support_]``).
    dual_coef_ : ndarray of shape (n_problems, n_support_total)
        The weight of each support vector in the ``predict_with`` hypothesis
        (for "last": :math:`\eta a_j y_j`; "voted" shows the averaged
        hypothesis, as ``coef_`` does in :class:`KWPerceptron`).
    intercept_ : ndarray of shape (n_problems,)
        :math:`-\theta` of that hypothesis.
    coef_ : ndarray of shape (n_problems, n_features)
        Only for the linear kernel (the primal weights ``dual_coef_ @ support_vectors_``).
    update_counts_ : ndarray of shape (n_problems, n_samples)
        :math:`a_j` per problem and training example (last call's data).
    sparsity_ : int or ndarray of shape (n_problems,)
        Training examples never used in an update (:func:`perceptron_core.metrics.sparsity`).
    gamma_, theta_init_, C_ : float
        The values used.
    gram_cached_ : bool
        Whether the whole Gram matrix fit ``cache_size_mb``.
    n_kernel_columns_ : int
        Kernel columns computed while training (each costs ``m`` kernel values).
    n_iter_, n_updates_, updates_per_epoch_, votes_, trace_
        As in :class:`KWPerceptron`; ``trace_`` is a :class:`KernelTrace`.

    References
    ----------
    Y. Freund and R. E. Schapire, "Large Margin Classification Using the
    Perceptron Algorithm", Machine Learning 37 (1999) (the voted perceptron in
    dual form). R. Khardon and G. Wachman, "Noise Tolerant Variants of the
    Perceptron Algorithm", JMLR 8 (2007) (the switches and their dual forms).
    M. A. Aizerman, E. M. Braverman and L. I. Rozonoer, "Theoretical
    foundations of the potential function method in pattern recognition
    learning", Automation and Remote Control 25 (1964) (the kernel perceptron).

    Examples
    --------
    XOR is not linearly separable; a Gaussian kernel learns it:

    >>> import numpy as np
    >>> from perceptron_core.kernel import KernelPerceptron
    >>> rng = np.random.default_rng(0)
    >>> X = rng.uniform(-1, 1, size=(200, 2))
    >>> y = np.where(X[:, 0] * X[:, 1] > 0, 1, -1)
    >>> clf = KernelPerceptron(kernel="rbf", gamma=2.0, epochs=30, random_state=0).fit(X, y)
    >>> bool(clf.score(X, y) > 0.95), clf.support_vectors_.shape[1]
    (True, 2)
    >>> sorted(clf.predict_all(X))
    ['averaged', 'last', 'longest', 'voted']
    """

    #: The configurations the scikit-learn conformance checks build (the first in the fast
    #: suite; tests/test_sklearn_conformance.py): a kernel with every switch on and a column
    #: cache too small for the Gram matrix, and the linear kernel's own path.
    _check_params: ClassVar[tuple[dict, ...]] = (
        {},
        {
            "kernel": "poly",
            "degree": 2,
            "tau": 0.5,
            "lam": 0.5,
            "alpha_bound": 10,
            "predict_with": "voted",
            "cache_size_mb": 0.01,
        },
        {"kernel": "linear", "predict_with": "longest"},
    )

    kernel: str | object = parameter(
        "rbf",
        "the similarity k(x, x') that replaces the inner product",
        OneOf(tuple(KERNELS)),
        Anything(_is_kernel_function, "a function k(A, B) returning a matrix"),
    )
    degree: int = parameter(4, "the degree of the polynomial kernel", Number(1, integer=True))
    coef0: float = parameter(1.0, "the constant of the polynomial kernel", Number())
    gamma: float | None = parameter(
        None, "the scale of the rbf and poly kernels", OneOf((None,)), Number(0, open_low=True)
    )
    cache_size_mb: float = parameter(200, "the memory for kernel columns, in MiB", Number(0))

    # -- training: the hooks of KWPerceptron it overrides --------------------

    def _train(self, X, y, n_epochs, *, fresh, in_place):
        """As KWPerceptron's; a fit frees the column cache at its end (the running scores
        are kept, so a ``partial_fit`` on the same ``X`` continues exactly where ``fit``
        stopped)."""
        super()._train(X, y, n_epochs, fresh=fresh, in_place=in_place)
        if fresh:
            self._batch.release_cache()

    def _kernel_spec(self, X) -> KernelSpec:
        if _is_kernel_function(self.kernel):
            name = getattr(self.kernel, "__name__", "callable")
            return KernelSpec(name, PRECOMPUTED, func=cast(Callable[..., Any], self.kernel))
        kernel = str(self.kernel)  # validated: one of KERNELS
        code = KERNELS[kernel]
        if self.gamma is not None:
            gamma = float(self.gamma)
        elif code == RBF:
            var = float(np.var(X, dtype=np.float64)) if X.size else 0.0
            gamma = 1.0 / (X.shape[1] * var) if var > 0 else 1.0
        else:
            gamma = 1.0
        return KernelSpec(kernel, code, gamma, float(self.coef0), int(self.degree))

    #: The dual loop counts updates per example in 64 bits.
    _count_dtype = np.int64

    def _keeps_list(self) -> bool:
        """Always: the dual hypotheses are read from the update record (the support and
        each update's coefficient), whatever ``predict_with``."""
        return True

    def _keeps_clock(self) -> bool:
        """Never: the averaged dual coefficients come from the record (:meth:`_dual_model`)."""
        return False

    def _start(self, X, n_problems):
        """Fresh state for a new fit (the dual counterpart of KWPerceptron._start)."""
        K = n_problems
        self._spec = self._kernel_spec(X)
        self.gamma_ = self._spec.gamma
        self._hyp = None  # a refit starts from f = -theta_init, not from the old model
        self._batch = self._new_batch(X, K)
        self._start_state(X, K, self._batch.diag.mean)
        self._n_columns_before = 0
        self._models = {}

    def _new_batch(self, X, K) -> KernelBatch:
        batch = KernelBatch(X, self._spec, float(self.cache_size_mb) * MIB)
        if self._spec.func is not None:
            # the Gram matrix gives the diagonal for free
            batch.diag = np.diag(batch.ensure_cache()).copy()
        else:
            batch.diag = self._spec.diagonal(batch.X)
        if self._hyp is not None and len(self._hyp.support):
            # a new batch in partial_fit: its running scores from the current hypothesis
            coef, _ = self._dual_model("last")
            K_support = self._kernel_matrix(self._hyp.support.vectors, X)
            batch.S = np.ascontiguousarray(coef @ K_support)
        else:
            batch.S = np.zeros((K, len(X)))
        return batch

    def _kernel_matrix(self, A, B) -> np.ndarray:
        return self._spec.matrix(A, B)

    def _run(self, X, y, n_epochs, permuted_copy=False):  # no permuted copy in the dual
        """Run ``n_epochs`` dual epochs over ``X`` and fold the results into the record."""
        log = self._records(len(X), n_epochs)
        if not self._batch.matches(X):
            self._n_columns_before = self._batch.columns_computed + self._n_columns_before
            self._batch.release_cache()
            self._batch = self._new_batch(X, len(self._theta))
        batch = self._batch
        batch.ensure_cache()
        Y = encode_labels(y, self.classes_)
        n_before = self._n_upd.copy()
        spec = self._spec
        model = Model(batch.S, self._theta, self._counts, self._state, self._n_upd)
        columns = (
            batch.X,
            batch.Xt,
            spec.code,
            spec.gamma,
            spec.coef0,
            spec.degree,
            batch.cache,
            batch.slot_of,
            batch.owner,
            batch.uses,
            batch.stats,
        )
        log = compiled_or_plain(run_dual_epochs)(
            Y,
            self._order,
            batch.diag,
            self._settings(),
            model,
            log,
            n_epochs,
            self._steps,
            columns,
        )
        self._models = {}
        self._keep(X, Y, log, n_before, n_epochs)

    def _trace_piece(self, X, y, c, n_before, visit_kind, visit_score) -> KernelTrace:
        """As :meth:`KWPerceptron._trace_piece`, with the kernel that made it."""
        base = super()._trace_piece(X, y, c, n_before, visit_kind, visit_score)
        copied = {f.name: getattr(base, f.name) for f in fields(Trace)}
        return KernelTrace(**copied, kernel=self._spec)

    # -- the dual hypotheses -----------------------------------------------------

    def _dual_model(self, mode: str):
        """``(coef, theta)`` of ``mode`` (:func:`~perceptron_core.engine.dual_record.dual_model`),
        computed once per fit."""
        if mode not in self._models:
            self._models[mode] = dual_model(self._hyp, mode, self._theta)
        return self._models[mode]

    def _all_scores(self, X, modes, chunk_size=None) -> dict:
        """Raw scores ``{mode: (n_samples, K)}``, one kernel matrix per test chunk."""
        needed = set(modes) - {"voted"} | ({"last"} if "voted" in modes else set())
        models = {mode: self._dual_model(mode) for mode in needed}
        return dual_scores(self._hyp, X, modes, models, self._kernel_matrix, chunk_size)

    def _scores(self, X, mode=None, chunk_size=None, last=None):  # KW's signature
        mode = self._check_mode(mode)
        return self._all_scores(X, [mode], chunk_size)[mode]

    # -- fitted attributes -----------------------------------------------------

    def _attribute_mode(self) -> str:
        return "averaged" if self.predict_with == "voted" else self.predict_with

    @property
    def dual_coef_(self):
        check_is_fitted(self)
        return self._dual_model(self._attribute_mode())[0].copy()

    @property
    def intercept_(self):
        check_is_fitted(self)
        return -self._dual_model(self._attribute_mode())[1]

    @property
    def coef_(self):
        check_is_fitted(self)
        if self._spec.code != LINEAR:
            raise AttributeError(
                "coef_ is only available with kernel='linear'; a non-linear kernel's "
                "classifier is dual_coef_ over support_vectors_."
            )
        return self.dual_coef_ @ self._hyp.support.as_float64()

    @property
    def support_vectors_(self):
        check_is_fitted(self)
        return self._hyp.support.vectors.copy()

    @property
    def support_(self):
        check_is_fitted(self)
        return np.flatnonzero((self._counts > 0).any(axis=0))

    @property
    def update_counts_(self):
        check_is_fitted(self)
        return self._counts.copy()

    @property
    def sparsity_(self):
        check_is_fitted(self)
        result = sparsity(self._counts)
        return int(result[0]) if len(result) == 1 else result

    @property
    def gram_cached_(self) -> bool:
        check_is_fitted(self)
        return self._batch.full

    @property
    def n_kernel_columns_(self) -> int:
        check_is_fitted(self)
        return self._n_columns_before + self._batch.columns_computed

    def __getstate__(self):
        state = self.__dict__.copy()
        batch = state.get("_batch")
        if batch is not None and batch.cache is not None:  # never pickle the column cache
            light = KernelBatch.__new__(KernelBatch)
            light.__dict__.update(batch.__dict__)
            light.n_columns = batch.columns_computed
            light.cache = light.Xt = None
            state["_batch"] = light
        return state


@hyperparameters
class AveragedKernelPerceptron(KernelPerceptron):
    r"""The averaged kernel perceptron, stored as merged basis vectors (LingPipe style).

    Training is that of :class:`KernelPerceptron` (all switches). The
    averaged classifier is then written down the way LingPipe's perceptron
    classifier keeps it, which needs neither the hypotheses nor a vote
    per hypothesis at prediction time:

    * each update (a mistake, or a margin error) appends its example as a
      **basis vector** :math:`b_i` with **polarity** :math:`p_i`, that
      example's own label, and a **count** :math:`c_i`, the number of
      correct predictions that followed before the next update (the vote of
      the hypothesis the update created). The count starts at 0, as a new
      hypothesis's vote does in Khardon & Wachman's voted perceptron;
      LingPipe starts each new basis vector's count at 1, which adds one
      vote to every hypothesis;
    * the hypothesis after update :math:`i` contains basis vectors
      :math:`1..i`, so averaging the hypotheses with their counts gives basis
      vector :math:`i` the **weight** :math:`W_i = \sum_{l \ge i} c_l`, the
      sum of the counts from its position onward;
    * the same example updated several times appears several times; **merging**
      adds their weighted polarities into one coefficient per distinct
      example, so prediction costs one kernel value per support vector:

    .. math::

        f(x) = \frac{1}{\sum_i c_i}\Big(\sum_i W_i\, p_i\, \eta\, k(b_i, x)\Big)
               - \theta_{avg},
        \qquad \theta_{avg} = \theta_{init} - \frac{\eta C}{\sum_i c_i}\sum_i W_i p_i .

    (The threshold averages like the weight of a constant input.) The
    division by :math:`\sum_i c_i` does not change the sign; it makes the
    scores equal to those of ``KernelPerceptron(predict_with="averaged")``.
    Mind the polarity: it is the label of the basis vector's *own* example
    (for one-vs-rest, its label in that problem), not the label of the
    example being predicted. Without any count (no correct prediction after
    the first update) the last hypothesis stands in, as in
    :class:`KernelPerceptron`.

    Parameters
    ----------
    kernel, degree, coef0, gamma, eta, theta_init, C, tau, lam, alpha_bound, epochs, shuffle,
    random_state, record, cache_size_mb
        As in :class:`KernelPerceptron`.

    Attributes
    ----------
    basis_support_ : ndarray of shape (n_updates,), or a list of them per class
        For each basis vector (in update order), its row in ``support_vectors_``.
    basis_polarity_, basis_counts_, basis_weights_ : ndarray of shape (n_updates,) or lists
        :math:`p_i`, :math:`c_i` and :math:`W_i`.
    dual_coef_ : ndarray of shape (n_problems, n_support_total)
        The merged coefficients :math:`\eta \sum_{i: b_i = x_s} W_i p_i / \sum_i c_i`.
    Others as in :class:`KernelPerceptron`.

    References
    ----------
    Y. Freund and R. E. Schapire, "Large Margin Classification Using the
    Perceptron Algorithm", Machine Learning 37 (1999). The merged-basis
    representation follows LingPipe's ``PerceptronClassifier`` (Alias-i).

    Examples
    --------
    >>> import numpy as np
    >>> from perceptron_core.kernel import AveragedKernelPerceptron
    >>> rng = np.random.default_rng(1)
    >>> X = rng.normal(size=(150, 2))
    >>> y = np.where((X ** 2).sum(axis=1) < 1.2, 1, -1)      # a disc: not linear
    >>> clf = AveragedKernelPerceptron(kernel="poly", degree=2, epochs=20, random_state=0)
    >>> clf = clf.fit(X, y)
    >>> bool(clf.score(X, y) > 0.9)
    True
    >>> int(clf.basis_weights_[0]) == int(clf.basis_counts_.sum())  # the first sees every count
    True
    """

    predict_with: str = fixed("averaged")

    def _run(self, X, y, n_epochs, permuted_copy=False):
        super()._run(X, y, n_epochs, permuted_copy)
        self._merge_basis()

    def _merge_basis(self):
        """The LingPipe form of the averaged hypothesis, from the update record."""
        rec = self._hyp
        n_sv, K = len(rec.support), rec.n_problems
        self._basis = []
        coef = np.zeros((K, n_sv))
        theta = np.empty(K)
        for c in range(K):
            counts = rec.votes[c][1:].astype(
                np.float64
            )  # c_i: votes of the hypothesis update i made
            polarity = rec.signs[c]  # p_i: the label of update i's own example
            weights = np.cumsum(counts[::-1])[::-1]  # W_i = sum of the counts from i onward
            total = counts.sum()
            self._basis.append((rec.positions[c], polarity, counts, weights))
            if total == 0:  # no count at all: the last hypothesis stands in
                coef[c], theta[c] = self._dual_model("last")[0][c], self._theta[c]
                continue
            merged = np.bincount(rec.positions[c], weights=weights * polarity, minlength=n_sv)
            coef[c] = rec.eta * merged / total
            theta[c] = rec.theta_init - rec.eta * rec.C * (weights * polarity).sum() / total
        self._merged = (coef, theta)
        self._merged_used = np.flatnonzero((coef != 0).any(axis=0))

    def _merged_scores(self, X, chunk_size=None) -> np.ndarray:
        """``f(x)`` from the merged basis vectors only (no record, no hypotheses)."""
        coef, theta = self._merged
        used = self._merged_used
        assert self._hyp is not None  # a merged model comes from a fit's record
        basis = self._hyp.support.vectors[used]
        m = len(X)
        out = np.empty((m, len(theta)))
        if chunk_size is None:
            chunk_size = max(1, DEFAULT_CHUNK_BYTES // (8 * max(len(used), 1)))
        for start in range(0, m, chunk_size):
            stop = min(start + chunk_size, m)
            if len(used):
                out[start:stop] = (coef[:, used] @ self._kernel_matrix(basis, X[start:stop])).T
            else:
                out[start:stop] = 0.0
            out[start:stop] -= theta
        return out

    def _scores(self, X, mode=None, chunk_size=None, last=None):
        mode = self._check_mode(mode)
        if mode == "averaged":
            return self._merged_scores(X, chunk_size)
        return super()._scores(X, mode, chunk_size, last)

    def _basis_attribute(self, index):
        check_is_fitted(self)
        values = [b[index].copy() for b in self._basis]
        return values[0] if len(values) == 1 else values

    @property
    def basis_support_(self):
        return self._basis_attribute(0)

    @property
    def basis_polarity_(self):
        return self._basis_attribute(1)

    @property
    def basis_counts_(self):
        return self._basis_attribute(2)

    @property
    def basis_weights_(self):
        return self._basis_attribute(3)

    @property
    def dual_coef_(self):
        check_is_fitted(self)
        return self._merged[0].copy()

    @property
    def intercept_(self):
        check_is_fitted(self)
        return -self._merged[1]
