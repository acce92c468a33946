r"""The Perceptron Algorithm with Uneven Margins (PAUM), docs/algorithms.md §2.

Document categorisation has a rare positive class (a few hundred Reuters
stories out of ten thousand) and is judged by how well the positives are
ranked. Li, Zaragoza, Herbrich, Shawe-Taylor and Kandola (2002) give the two
classes different margins: an example of class :math:`y` forces an update
until its functional margin :math:`y f(x)` exceeds :math:`\tau_y`. A large
:math:`\tau_{+1}` and a small (even negative) :math:`\tau_{-1}` push the
boundary into the negative class, which raises the recall of the rare class.

The step (:mod:`perceptron_core.steps.paum`) keeps the bias in its state's numbers
and reads ``a``, the example's update count so far (the dual ``a_j`` the λ-term
reads). Then the estimator, :class:`PAUMPerceptron`.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from perceptron_core._jit import compiled_or_plain
from perceptron_core._online import (
    EPOCHS,
    RANDOM_STATE,
    RECORD,
    SHUFFLE,
    OnlineLinearClassifier,
)
from perceptron_core._validation import Number, hyperparameters, parameter
from perceptron_core.metrics import sparsity
from perceptron_core.steps import BIAS, State
from perceptron_core.steps.paum import Settings, step  # noqa: F401 (step: for its readers)
from perceptron_core.vectors import squared_norms


@hyperparameters
class PAUMPerceptron(OnlineLinearClassifier):
    r"""The perceptron with uneven margins of Li et al. (2002), PAUM(:math:`\tau_{-1}, \tau_{+1}`).

    ``f(x) = <w, x> + b`` starts at :math:`w = 0, b = 0`; with
    :math:`R = \max_j \lVert x_j\rVert`, each epoch visits the (once
    permuted) training set and, for each example::

        if y_j * f(x_j) <= tau[y_j]:        # tau[-1] = tau_neg, tau[+1] = tau_pos
            w <- w + eta * y_j * x_j
            b <- b + eta * y_j * R**2

    Training stops after an epoch without an update (then every later epoch
    would change nothing: ``converged_`` is True) or after ``max_epochs``.
    Prediction is :math:`\mathrm{sign}(f(x))`, with sign(0) the negative
    class; the margins play no part in it.

    **Uneven margins.** With :math:`\tau_{+1} = \tau_{-1} = 0` this is the
    classic perceptron with a bias; with :math:`\tau_{+1} = \tau_{-1} > 0` the
    perceptron with margin. Making :math:`\tau_{+1}` larger than
    :math:`\tau_{-1}` asks the positives for a larger functional margin than
    the negatives, so the boundary settles closer to the negatives: with a
    rare positive class, more of it is recalled and its ranking (the PAUM
    paper's macro-averaged precision, :mod:`perceptron_core.metrics`) usually
    improves. Negative margins are allowed: :math:`\tau_{-1} < 0` tolerates
    negatives up to :math:`|\tau_{-1}|` on the wrong side, so they stop
    forcing updates (those visits show as "correct" events in ``trace_``).
    The margins are absolute score units: an update moves :math:`b` by
    :math:`\eta R^2`, so choose them relative to that (scaling the data by
    :math:`s` scales the useful margins by :math:`s^2`).

    **The λ-trick, two forms.** Both add to an example's own score, during
    training only, a push towards its own label:

    * here, the kernel form :math:`k(x, x') + \lambda [x = x']` (PAUM paper):
      in the dual score :math:`\sum_i \eta a_i y_i k(x_i, x_j)` the extra
      diagonal term is :math:`\eta \lambda a_j y_j`, which grows with every
      update the example causes (**proportional** to :math:`a_j`) and does
      not depend on :math:`\lVert x_j\rVert`;
    * in :class:`~perceptron_core.linear.KWPerceptron`, the indicator form
      :math:`y_j \lambda \lVert x_j\rVert^2` once :math:`a_j > 0`: a fixed
      push as soon as the example has caused one update, scaled by its norm.

    So an example that keeps being misclassified (likely noise) is pushed
    harder and harder here, until it stops forcing updates; in KW's form it
    gets one push of fixed size. With :math:`\lambda = 0` both vanish.

    Multi-class targets are learned one-vs-rest (each class is the positive
    class of its own problem, so ``tau_pos`` is every class's margin against
    the rest); each problem stops on its own.

    Parameters
    ----------
    tau_neg : float, default=0.0
        :math:`\tau_{-1}`, the margin required of negative examples (may be < 0).
    tau_pos : float, default=1.0
        :math:`\tau_{+1}`, the margin required of positive examples (may be < 0).
    eta : float, default=1.0
        Learning rate (> 0).
    lam : float, default=0.0
        λ-trick strength (kernel form; 0 turns it off).
    max_epochs : int, default=100
        The most passes over the training set.
    shuffle : bool, default=True
        Permute the training set once before training.
    random_state : None, int or numpy generator, default=None
    record : {"none", "updates", "all"}, default="none"
        What ``trace_`` keeps: every update, or every visit. Its scores are
        :math:`f(x)` including the λ-term; its threshold is :math:`-b`.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    coef_ : ndarray of shape (n_problems, n_features)
    intercept_ : ndarray of shape (n_problems,)
        :math:`b`.
    R_ : float
        :math:`R = \max_j\lVert x_j\rVert` of the first training batch.
    converged_ : bool
        True when training stopped because an epoch made no update (every
        problem); after ``partial_fit``, whether that epoch made none.
    n_iter_ : int
        Epochs run (the most over problems).
    n_updates_, n_mistakes_ : int
        Updates; updates on misclassified examples.
    update_counts_ : ndarray of shape (n_problems, n_samples)
        Updates per training example, :math:`a_j`.
    sparsity_ : int or ndarray of shape (n_problems,)
        Training examples never used in an update (the ones a dual model
        would not store), :func:`perceptron_core.metrics.sparsity`.
    trace_ : Trace, dict of Trace, or None

    References
    ----------
    Y. Li, H. Zaragoza, R. Herbrich, J. Shawe-Taylor and J. Kandola, "The
    Perceptron Algorithm with Uneven Margins", ICML 2002, pp. 379–386.
    R. Khardon and G. Wachman, "Noise Tolerant Variants of the Perceptron
    Algorithm", JMLR 8 (2007) (the indicator form of the λ-trick).

    Examples
    --------
    An imbalanced problem (1 positive in 20): a larger positive margin
    recalls more of the rare class on new data.

    >>> import numpy as np
    >>> from perceptron_core import PAUMPerceptron
    >>> def sample(rng, n_neg, n_pos):
    ...     X = np.vstack([rng.normal(0.0, 1.0, (n_neg, 2)), rng.normal(2.5, 0.7, (n_pos, 2))])
    ...     return X, np.r_[np.zeros(n_neg, int), np.ones(n_pos, int)]
    >>> rng = np.random.default_rng(2)
    >>> X, y = sample(rng, 400, 20)
    >>> X_test, y_test = sample(rng, 4000, 200)
    >>> even = PAUMPerceptron(tau_neg=0.0, tau_pos=0.0, random_state=0).fit(X, y)
    >>> uneven = PAUMPerceptron(tau_neg=-1.0, tau_pos=20.0, random_state=0).fit(X, y)
    >>> def recall(clf):
    ...     return round(float((clf.predict(X_test)[y_test == 1] == 1).mean()), 2)
    >>> recall(even), recall(uneven)
    (0.79, 0.94)
    >>> uneven.sparsity_       # of the 420 training examples, never used in an update
    386
    """

    #: The configurations the scikit-learn conformance checks build
    #: (tests/test_sklearn_conformance.py).
    _check_params: ClassVar[tuple[dict, ...]] = ({}, {"tau_neg": -1.0, "tau_pos": 5.0, "lam": 1.0})

    #: Settings in the features' units (a warning names them when the data are far off).
    _scale_settings = ("tau_neg", "tau_pos")

    _rule = __name__  # its step: perceptron_core.steps.paum
    tau_neg: float = parameter(0.0, "the margin required of negative examples", Number())
    tau_pos: float = parameter(1.0, "the margin required of positive examples", Number())
    eta: float = parameter(1.0, "the learning rate", Number(low=0, open_low=True))
    lam: float = parameter(0.0, "the strength of the λ-trick (kernel form)", Number(low=0))
    max_epochs: int = parameter(100, EPOCHS)
    shuffle: bool = parameter(True, SHUFFLE)
    random_state: int | np.random.RandomState | np.random.Generator | None = parameter(
        None, RANDOM_STATE
    )
    record: str = parameter("none", RECORD)

    @property
    def epochs(self):
        """``max_epochs`` under the name the shared on-line base reads."""
        return self.max_epochs

    def _init_state(self, n_problems, n_features):
        self._state = State(
            weights=np.zeros((n_problems, n_features)),
            second=np.empty((n_problems, 0)),
            numbers=np.zeros((n_problems, 1)),  # b
        )
        self._kept_counts = None
        self._R2 = None

    def _coef_intercept(self):
        return self._state.weights.copy(), self._state.numbers[:, BIAS].copy()

    def _settings(self, X):
        if self._R2 is None:  # R is fixed by the first batch
            self._R2 = float(compiled_or_plain(squared_norms)(X).max()) if X.shape[0] else 0.0
            self.R_ = float(np.sqrt(self._R2))
        return Settings(
            eta=self.eta, R2=self._R2, tau_neg=self.tau_neg, tau_pos=self.tau_pos, lam=self.lam
        )

    def _counts(self, n_problems, n_samples):
        """The λ-term reads every example's updates so far, across ``partial_fit`` calls."""
        kept = self._kept_counts
        if kept is None or kept.shape[1] != n_samples:
            if kept is not None and self.lam > 0:
                raise ValueError(
                    f"This batch has {n_samples} rows but the first had {kept.shape[1]}. With "
                    "lam > 0 the λ-term counts updates per example, so every partial_fit "
                    "call must pass the same rows in the same order."
                )
            self._kept_counts = np.zeros((n_problems, n_samples), dtype=np.int64)
        return self._kept_counts

    @property
    def sparsity_(self):
        counts = self.update_counts_  # AttributeError before fit, as for any fitted attribute
        result = sparsity(counts)
        return int(result[0]) if len(result) == 1 else result
