r"""The Perceptron Algorithm with Uneven Margins (PAUM), SPEC §2.

Document categorisation has a rare positive class (a few hundred Reuters
stories out of ten thousand) and is judged by how well the positives are
ranked. Li, Zaragoza, Herbrich, Shawe-Taylor and Kandola (2002) give the two
classes different margins: an example of class :math:`y` forces an update
until its functional margin :math:`y f(x)` exceeds :math:`\tau_y`. A large
:math:`\tau_{+1}` and a small (even negative) :math:`\tau_{-1}` push the
boundary into the negative class, which raises the recall of the rare class.
"""

from __future__ import annotations

import numpy as np

from perceptron_core._engine import row_dot, squared_norms
from perceptron_core._jit import jit
from perceptron_core._online import (
    COMMON_PARAMETERS,
    OnlineLinearClassifier,
    log_event,
    log_update,
)
from perceptron_core._validation import Number, Param
from perceptron_core.metrics import sparsity
from perceptron_core.trace import CORRECT, MARGIN, MISTAKE, RESCUED

__all__ = ["PAUMPerceptron"]


@jit
def _paum_epochs(
    X, Y, order, W, b, counts, converged, eta, R2, tau_neg, tau_pos, lam,
    n_epochs, stop_early, record, row_offset, epoch_offset,
):  # fmt: skip
    """PAUM epochs for every one-vs-rest problem (the kernel contract of ``_online``).

    Problem ``p`` visits ``order`` for up to ``n_epochs`` epochs and, with
    ``stop_early``, stops after an epoch without an update; ``converged[p]``
    says whether its last epoch made none. ``counts`` (updates per example,
    the dual ``a_j``) is read by the λ-term and updated in place.
    """
    P, m = Y.shape
    cap = 64 if record else 0
    events = np.empty((cap, 6))
    updates = np.empty((cap, 4))
    history = np.empty((0, X.shape[1] + 2))
    n_ev = n_up = 0
    ev_row = np.empty(6)
    up_row = np.empty(4)
    epochs_run = np.zeros(P, np.int64)
    n_updates = np.zeros(P, np.int64)
    n_mistakes = np.zeros(P, np.int64)
    lam_step = lam * eta
    for p in range(P):
        for e in range(n_epochs):
            updated = False
            for t in range(m):
                j = order[t]
                y = Y[p, j]
                tau = tau_pos if y > 0 else tau_neg
                raw = row_dot(W, p, X, j) + b[p]
                # λ-trick, kernel form k + lam [x == x']: the example's own term
                # lam * eta * a_j * y_j (zero until it has caused an update)
                f = raw + lam_step * counts[p, j] * y
                kind = CORRECT
                if y * f <= tau:
                    wrong = (f > 0) != (y > 0)  # sign(f), sign(0) = -1
                    kind = MISTAKE if wrong else MARGIN
                    c = eta * y
                    for i in range(X.shape[1]):
                        W[p, i] += c * X[j, i]
                    b[p] += c * R2
                    updated = True
                    n_updates[p] += 1
                    n_mistakes[p] += wrong
                    counts[p, j] += 1
                    if record:
                        updates = log_update(updates, n_up, up_row, p, j + row_offset, c, -c * R2)
                        n_up += 1
                elif y * raw <= tau:
                    kind = RESCUED  # only the λ-term kept it out of the margin
                if record == 2 or (record == 1 and kind != CORRECT):
                    events = log_event(
                        events, n_ev, ev_row, p, e + epoch_offset, j + row_offset,
                        kind, f, n_updates[p],
                    )  # fmt: skip
                    n_ev += 1
            epochs_run[p] = e + 1
            converged[p] = not updated
            if stop_early and not updated:
                break
    return (
        events, n_ev, updates, n_up, history, 0,
        epochs_run, n_updates, n_mistakes, counts.copy(),
    )  # fmt: skip


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
    >>> from perceptron_core.paum import PAUMPerceptron
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

    _parameters = {
        "tau_neg": Param("the margin required of negative examples", (Number(),)),
        "tau_pos": Param("the margin required of positive examples", (Number(),)),
        "eta": Param("the learning rate", (Number(low=0, open_low=True),)),
        "lam": Param("the strength of the λ-trick (kernel form)", (Number(low=0),)),
        "max_epochs": Param(
            "the most passes over the training set; training stops earlier after a pass "
            "without an update",
            (Number(low=1, integer=True),),
        ),
        **{k: v for k, v in COMMON_PARAMETERS.items() if k != "epochs"},
    }

    def __init__(self, *, tau_neg=0.0, tau_pos=1.0, eta=1.0, lam=0.0, max_epochs=100,
                 shuffle=True, random_state=None, record="none"):  # fmt: skip
        self.tau_neg = tau_neg
        self.tau_pos = tau_pos
        self.eta = eta
        self.lam = lam
        self.max_epochs = max_epochs
        self.shuffle = shuffle
        self.random_state = random_state
        self.record = record

    @property
    def epochs(self):
        """``max_epochs`` under the name the shared on-line base reads."""
        return self.max_epochs

    def _init_state(self, n_problems, n_features):
        self._W = np.zeros((n_problems, n_features))
        self._b = np.zeros(n_problems)
        self._counts = None
        self._R2 = None

    def _coef_intercept(self):
        return self._W.copy(), self._b.copy()

    def _run_kernel(self, X, Y, order, n_epochs, stop_early, record, row_offset, epoch_offset):
        P, m = Y.shape
        if self._R2 is None:  # R is fixed by the first batch
            self._R2 = float(squared_norms(X).max()) if m else 0.0
            self.R_ = float(np.sqrt(self._R2))
        if self._counts is None or self._counts.shape[1] != m:
            if self._counts is not None and self.lam > 0:
                raise ValueError(
                    f"This batch has {m} rows but the first had {self._counts.shape[1]}. With "
                    "lam > 0 the λ-term counts updates per example, so every partial_fit "
                    "call must pass the same rows in the same order."
                )
            self._counts = np.zeros((P, m), dtype=np.int64)
        converged = np.zeros(P, dtype=np.bool_)
        out = _paum_epochs(
            X, Y, order, self._W, self._b, self._counts, converged, float(self.eta), self._R2,
            float(self.tau_neg), float(self.tau_pos), float(self.lam),
            n_epochs, stop_early, record, row_offset, epoch_offset,
        )  # fmt: skip
        self.converged_ = bool(converged.all())
        return out

    @property
    def sparsity_(self):
        counts = self.update_counts_  # AttributeError before fit, as for any fitted attribute
        result = sparsity(counts)
        return int(result[0]) if len(result) == 1 else result
