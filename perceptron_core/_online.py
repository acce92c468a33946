"""The generic driver's engine: the on-line rules outside the KW engine.

Winnow and its relatives, the thick separator, the threshold-relative update,
ALMA, Passive-Aggressive, PAUM and the pocket algorithm all learn one linear
function per one-vs-rest problem, visiting the examples one at a time. What
one visit does is the rule's step (:mod:`perceptron_core.steps`);
epochs, order, early stopping and the record are the driver's
(:func:`perceptron_core.engine.online.run_online`); the scikit-learn protocol
is :class:`~perceptron_core._estimator.OnlineEstimator`'s. What is left lives
here, once: one call of the driver per batch, the rules' shared parameters
and turning the driver's flat record into :class:`~perceptron_core.trace.Trace`
objects. This module imports the driver, which imports the steps and no
estimator.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from sklearn.utils.multiclass import type_of_target

from perceptron_core._estimator import OnlineEstimator
from perceptron_core._validation import (
    BOOLEAN,
    SEED,
    Number,
    OneOf,
    Param,
    encode_labels,
    hyperparameters,
    parameter,
)
from perceptron_core.engine import chunks, online
from perceptron_core.steps import BIAS, State
from perceptron_core.trace import Trace

RECORD_MODES = {"none": 0, "updates": 1, "all": 2}

# The parameter rows the on-line rules share (see :func:`~perceptron_core._validation.parameter`).
EPOCHS = Param(
    "the most passes over the training set; training stops earlier after a pass without an update",
    (Number(low=1, integer=True),),
)
SHUFFLE = Param("whether to permute the training set once before training", (BOOLEAN,))
RANDOM_STATE = Param("the seed of the permutation", (SEED,))
RECORD = Param("what to keep in trace_ for the app to replay", (OneOf(tuple(RECORD_MODES)),))
FIT_INTERCEPT = Param(
    "whether to learn a bias, as the weight of an extra input that is always 1",
    (BOOLEAN,),
)


@hyperparameters
class DriverParameters:
    """What the driver is told by most rules' estimators: passes, order and record.

    A base of those estimators, next to :class:`OnlineLinearClassifier`
    (PAUM calls its passes ``max_epochs`` and declares its own).
    """

    epochs: int = parameter(100, EPOCHS)
    shuffle: bool = parameter(True, SHUFFLE)
    random_state: int | np.random.RandomState | np.random.Generator | None = parameter(
        None, RANDOM_STATE
    )
    record: str = parameter("none", RECORD)


# --------------------------------------------------------------------------
# The estimator base
# --------------------------------------------------------------------------


class OnlineLinearClassifier(OnlineEstimator):
    """Base of the linear on-line rules: the generic driver behind :class:`OnlineEstimator`.

    It implements the base's hooks (``_start``, ``_train``, ``_scores``)
    with one call of the driver per batch
    (:func:`~perceptron_core.engine.online.run_online`) and opens hooks of
    its own, which the rules' estimators fill:

    * ``_rule``: the module of the rule's step in
      :mod:`perceptron_core.rules` (where the estimator is defined too);
    * ``_init_state(n_problems, n_features)``: the starting hypothesis, as
      the rule's ``_state`` (a :class:`perceptron_core.steps.State`);
    * ``_settings(X)``: the step's ``Settings`` for a run on ``X``, built by name;
    * ``_coef_intercept()``: ``(coef, intercept)`` of the current state;
    * optionally ``_initial_hypotheses()`` (the traces' ``w0``/``theta0``),
      ``_counts`` (the update counts a run starts from), ``_visit_rows`` (the most rows a
      visit reads, when more than its own), ``_explicit_history``
      and ``_answers`` (what the trace keeps), and the base's ``_prepare_X``
      (e.g. Winnow's boolean check) and ``_zero_is_positive``;
    * a learner that is no on-line rule (the average algorithm) replaces
      ``_run``, the driver's call.

    Fitted attributes common to all of them: ``classes_``, ``coef_`` of shape
    ``(n_problems, n_features)``, ``intercept_`` of shape ``(n_problems,)``
    (one problem for two classes, one per class otherwise), ``n_iter_``,
    ``n_updates_`` and ``n_mistakes_`` (totals over problems),
    ``converged_`` (whether the last epoch of every problem made no update),
    ``update_counts_`` of shape ``(n_problems, n_samples)`` (updates per
    training example, from the last ``fit`` or ``partial_fit`` call; see
    :func:`perceptron_core.metrics.sparsity`), and ``trace_`` (``None`` with
    ``record="none"``; a :class:`~perceptron_core.trace.Trace` for two
    classes; ``{class label: Trace}`` otherwise). ``fit`` visits the rows in
    the seeded order; ``partial_fit`` visits each batch in its own order.
    """

    #: The name of the rule's module (its estimator's, named as its step's: a member of
    #: :data:`perceptron_core.engine.dispatch.RULES`).
    _rule: ClassVar[str]
    #: True for rules whose trace stores explicit hypotheses (weight_history).
    _explicit_history = False
    #: True for rules that answer with an earlier hypothesis (the trace's ``answer``).
    _answers = False

    # ---- hooks for the rules' estimators -------------------------------------

    def _init_state(self, n_problems: int, n_features: int) -> None:
        raise NotImplementedError

    def _settings(self, X) -> tuple:
        """The step's ``Settings`` for a run on ``X``."""
        raise NotImplementedError

    def _counts(self, n_problems: int, n_samples: int):
        """The update counts a run starts from (zeros: each call counts its own)."""
        return np.zeros((n_problems, n_samples), dtype=np.int64)

    def _run(self, X, Y, order, counts, plan):
        """One call of the driver (see :func:`~perceptron_core.engine.online.run_online`), or
        inside :func:`~perceptron_core.engine.chunks.between_chunks`, the same in pieces."""
        settings = self._settings(X)
        asked = chunks.asking()
        if asked is None:
            return online.run(self._rule, X, Y, order, counts, self._state, settings, plan)
        rows = self._visit_rows(X)
        return chunks.run_in_chunks(
            self._rule, X, Y, order, counts, self._state, settings, plan, asked, rows
        )

    def _visit_rows(self, X) -> int:
        """The most rows of ``X`` one visit reads (its own: 1); an interruptible fit's pieces
        are sized by it (:func:`~perceptron_core.engine.chunks.visits_per_chunk`)."""
        return 1

    def _coef_intercept(self):
        """``(coef, intercept)`` of the current state, for ``coef_``/``intercept_``."""
        raise NotImplementedError

    def _initial_hypotheses(self):
        """``(W, theta)`` before this run, for the traces' ``w0``/``theta0``."""
        coef, intercept = self._coef_intercept()
        return coef.copy(), -intercept.copy()

    # ---- the hooks of OnlineEstimator -----------------------------------------

    def _start(self, X, n_problems):
        self._init_state(n_problems, X.shape[1])
        self.n_updates_ = 0
        self.n_mistakes_ = 0
        self.n_seen_ = 0
        self._traces = None

    def _train(self, X, y, n_epochs, *, fresh, in_place):
        """``fit``: the epochs in the seeded order, stopping after one without an update;
        ``partial_fit``: one epoch over the batch in its order."""
        order = self._order if fresh else np.arange(X.shape[0])
        Y = encode_labels(y, self.classes_)
        self._drive(X, Y, order.astype(np.int64), n_epochs, stop_early=fresh)

    def _scores(self, X):
        return np.asarray(X, dtype=np.float64) @ self.coef_.T + self.intercept_

    # ---- one call of the driver, and its record --------------------------------

    def _drive(self, X, Y, order, n_epochs, stop_early):
        record = RECORD_MODES[self.record]
        W0, theta0 = self._initial_hypotheses() if record else (None, None)
        counts = self._counts(*Y.shape)
        plan = (
            int(n_epochs),
            int(stop_early),
            record,
            self.n_seen_,
            self.n_iter_,
            int(self._explicit_history),
        )
        events, n_ev, updates, n_up, history, n_hist, stats = self._run(X, Y, order, counts, plan)
        epochs_run, n_updates, n_mistakes, converged = stats.T
        self.n_iter_ += int(epochs_run.max())
        self.n_updates_ += int(n_updates.sum())
        self.n_mistakes_ += int(n_mistakes.sum())
        self.converged_ = bool(converged.all())
        self.update_counts_ = counts.copy()
        self.coef_, self.intercept_ = self._coef_intercept()
        if record:
            traces = self._build_traces(
                X, events[:n_ev], updates[:n_up], history[:n_hist], W0, theta0, record
            )
            self._store_traces(traces)
        self.n_seen_ += X.shape[0]

    def _build_traces(self, X, events, updates, history, W0, theta0, record):
        traces = []
        for p in range(len(W0)):
            ev = dict(zip(online.EVENT_COLUMNS, events[events[:, 0] == p].T))
            up = dict(zip(online.UPDATE_COLUMNS, updates[updates[:, 0] == p].T))
            rows = up["index"].astype(np.int64)
            used = np.unique(rows)
            x_rows = dict(zip(used.tolist(), np.asarray(X[used - self.n_seen_], dtype=np.float64)))
            wh = th = None
            if self._explicit_history:
                hist = history[history[:, 0] == p]
                wh, th = hist[:, 2:].copy(), hist[:, 1].copy()
            traces.append(
                Trace(
                    epoch=ev["epoch"].astype(np.int64),
                    index=ev["index"].astype(np.int64),
                    kind=ev["kind"].astype(np.int8),
                    score=ev["score"].copy(),
                    n_updates=ev["n_updates"].astype(np.int64),
                    visits=record == 2,
                    rows=rows,
                    coef=up["coef"].copy(),
                    theta_delta=up["theta_delta"].copy(),
                    w0=W0[p],
                    theta0=float(theta0[p]),
                    x_rows=x_rows,
                    weight_history=wh,
                    theta_history=th,
                    answer=ev["answer"].astype(np.int64) if self._answers else None,
                )
            )
        return traces

    def _store_traces(self, traces):
        if self._traces is not None:
            traces = [old.extend(new) for old, new in zip(self._traces, traces)]
        self._traces = traces


@hyperparameters
class ZeroStartLinear(OnlineLinearClassifier, DriverParameters):
    """Rules with ``f(x) = <w, x> + b``, starting from ``w = 0, b = 0``.

    The bias is the weight of an extra input ``xb`` that is always 1 when
    ``fit_intercept`` is true and 0 otherwise (then ``b`` stays 0). The state
    holds ``w`` and, in column :data:`~perceptron_core.steps.BIAS` of its numbers, ``b``;
    ``_n_numbers`` columns of numbers in all.
    """

    fit_intercept: bool = parameter(True, FIT_INTERCEPT)
    _n_numbers = 1

    def _init_state(self, n_problems, n_features):
        self._state = State(
            weights=np.zeros((n_problems, n_features)),
            second=np.empty((n_problems, 0)),
            numbers=np.zeros((n_problems, self._n_numbers)),
        )

    def _xb(self) -> float:
        return 1.0 if self.fit_intercept else 0.0

    def _coef_intercept(self):
        return self._state.weights.copy(), self._state.numbers[:, BIAS].copy()


def require_binary(estimator, y) -> None:
    """Raise scikit-learn's standard message when ``y`` has more than two classes."""
    kind = type_of_target(y, input_name="y", raise_unknown=True)
    if kind != "binary":
        n = len(np.unique(y))
        raise ValueError(
            f"{type(estimator).__name__}: Only binary classification is supported. "
            f"The type of the target is {kind} ({n} classes); this algorithm is defined "
            "for two classes only. For more, wrap it: "
            "sklearn.multiclass.OneVsRestClassifier(...)."
        )
