"""Gallant's pocket algorithm (with ratchet): the perceptron that keeps its best weights.

On data that no line separates, the perceptron's weights never settle: the
last mistakes decide where the line ends up. Gallant's pocket runs the same
perceptron but keeps aside ("in the pocket") the weights that classified the
longest run of consecutive examples correctly, and answers with those. With
the *ratchet*, a longer run is not enough: the new weights must also make
fewer errors on the whole training set, so the pocket's training error only
goes down.

The running weights learn by the classic rule; the step counts the run of
each one and swaps the pocket (:func:`step`), the driver answers with the
pocket's hypothesis (:func:`answer`). The state's second weight vector is
the pocket's weights, its numbers are named in :mod:`perceptron_core.steps.pocket`
(:data:`B` and the names after it; the error counts are NaN until counted). Then the estimator,
:class:`PocketPerceptron`.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from perceptron_core._online import ZeroStartLinear
from perceptron_core._validation import BOOLEAN, Number, hyperparameters, parameter
from perceptron_core.steps import State
from perceptron_core.steps.pocket import (
    ERRORS,
    POCKET_B,
    POCKET_ERRORS,
    POCKET_RUN,
    B,
    Settings,
    answer,  # noqa: F401 (the rule's functions, for its readers)
    step,  # noqa: F401 (the rule's step, for its readers)
)


@hyperparameters
class PocketPerceptron(ZeroStartLinear):
    """Gallant's pocket algorithm with ratchet.

    The running weights ``f(x) = <w, x> + b`` start at 0 and learn by the
    perceptron rule; a run counts the consecutive examples they got right::

        if y * f(x) <= 0:                   # a mistake
            w <- w + eta * y * x,  b <- b + eta * y,  run <- 0
        else:
            run <- run + 1
            if run > pocket_run and (not ratchet or errors(w, b) < errors(pocket)):
                pocket <- (w, b),  pocket_run <- run

    where ``errors`` counts the training examples a hypothesis gets wrong.
    ``coef_`` and ``intercept_`` are the pocket's; prediction is
    ``sign(<pocket_w, x> + pocket_b)`` with ``sign(0) = -1``. Gallant draws
    the examples at random with replacement; here they are visited in epochs
    of one fixed permutation, as by every learner of this package. The
    trace (``trace_``) replays the running perceptron, and its ``answer``
    says which of its hypotheses the pocket held after each event;
    ``pocket_run_`` and ``pocket_errors_`` describe what the pocket holds.

    Multi-class targets are learned one-vs-rest.

    Parameters
    ----------
    eta : float, default=1.0
        The learning rate (> 0).
    ratchet : bool, default=True
        Replace the pocket only by weights with fewer training errors.
    fit_intercept : bool, default=True
    epochs : int, default=100
        The most passes; training stops after a pass without an update.
    shuffle : bool, default=True
    random_state : None, int or numpy generator, default=None
    record : {"none", "updates", "all"}, default="none"

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    coef_ : ndarray of shape (n_problems, n_features)
        The pocket's weights.
    intercept_ : ndarray of shape (n_problems,)
        The pocket's bias.
    running_coef_, running_intercept_ : ndarray
        The running perceptron's weights and bias.
    pocket_run_ : ndarray of shape (n_problems,)
        The run of correct visits that put the pocket's weights there.
    pocket_errors_ : ndarray of shape (n_problems,)
        Their training errors (counted with the ratchet only; NaN without).
    n_iter_, n_updates_, n_mistakes_ : int
    update_counts_ : ndarray of shape (n_problems, n_samples)
    trace_ : Trace, dict of Trace, or None

    References
    ----------
    S. I. Gallant, "Perceptron-based learning algorithms", IEEE Transactions
    on Neural Networks 1 (1990) 179-191.

    Examples
    --------
    Two overlapping clouds: the running perceptron ends wherever its last
    mistakes left it; the pocket holds the best weights it met.

    >>> import numpy as np
    >>> from perceptron_core import PocketPerceptron
    >>> rng = np.random.default_rng(0)
    >>> X = np.r_[rng.normal(-1, 1.2, (100, 2)), rng.normal(1, 1.2, (100, 2))]
    >>> y = np.r_[np.zeros(100), np.ones(100)]
    >>> clf = PocketPerceptron(epochs=20, random_state=0).fit(X, y)
    >>> running = ((X @ clf.running_coef_[0] + clf.running_intercept_[0] > 0) == y).mean()
    >>> bool(clf.score(X, y) >= running), bool(clf.score(X, y) > 0.85)
    (True, True)
    """

    #: The configurations the scikit-learn conformance checks build
    #: (tests/test_sklearn_conformance.py).
    _check_params: ClassVar[tuple[dict, ...]] = ({}, {"ratchet": False})

    _rule = __name__  # its step: perceptron_core.steps.pocket
    _n_numbers = 8  # the columns of its numbers: B, RUN, ..., POCKET_ERRORS above
    _answers = True
    eta: float = parameter(1.0, "the learning rate", Number(low=0, open_low=True))
    ratchet: bool = parameter(
        True, "replace the pocket only by weights with fewer training errors", BOOLEAN
    )

    def _init_state(self, n_problems, n_features):
        super()._init_state(n_problems, n_features)
        W, _, S = self._state
        S[:, [POCKET_ERRORS, ERRORS]] = np.nan  # not counted yet
        self._state = State(weights=W, second=np.zeros_like(W), numbers=S)

    def _settings(self, X):
        return Settings(xb=self._xb(), eta=self.eta, ratchet=self.ratchet)

    def _visit_rows(self, X) -> int:
        # the ratchet counts a new hypothesis's training errors, and the pocket's: every row
        return 1 + 2 * X.shape[0] if self.ratchet else 1

    def _coef_intercept(self):
        return self._state.second.copy(), self._state.numbers[:, POCKET_B].copy()

    def _initial_hypotheses(self):
        """The running perceptron's ``(W, theta)``: the trace replays it."""
        return self._state.weights.copy(), -self._state.numbers[:, B]

    @property
    def running_coef_(self):
        return self._state.weights.copy()

    @property
    def running_intercept_(self):
        return self._state.numbers[:, B].copy()

    @property
    def pocket_run_(self):
        return self._state.numbers[:, POCKET_RUN].astype(np.int64)

    @property
    def pocket_errors_(self):
        return self._state.numbers[:, POCKET_ERRORS].copy()
