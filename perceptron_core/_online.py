"""The shared protocol of the linear on-line rules outside the KW engine.

Winnow and its relatives, the thick separator, the threshold-relative update,
ALMA and Passive-Aggressive all learn one linear function per one-vs-rest
problem, ``f(x) = <w, x> + b``, visiting the examples one at a time. They
differ only in *when* they update and *by how much*; that part lives in one
numba kernel per rule (in the rule's own file). Everything else, the
scikit-learn protocol, multi-class one-vs-rest, shuffling, ``partial_fit``
and turning the kernel's flat record into :class:`~perceptron_core.trace.Trace`
objects, lives here, once.

The kernel contract
-------------------
A rule's kernel runs ``n_epochs`` epochs for every problem ``p`` (row ``p`` of
the ±1 target matrix ``Y``), visiting the rows of ``X`` in ``order``, and
updates the state arrays it is given in place. With ``record > 0`` it also
fills three growable ``float64`` tables (see :func:`append_row`):

* events, columns :data:`EVENT_COLUMNS` (``problem, epoch, index, kind,
  score, n_updates``), one row per update (``record=1``) or per visit
  (``record=2``);
* updates, columns ``problem, index, coef, theta_delta``: the additive update
  sequence of :class:`Trace` (``coef`` and ``theta_delta`` are NaN for rules
  whose updates are not additive);
* history, columns ``problem, theta, w_1 ... w_n``: for non-additive rules,
  every hypothesis (the initial one first), so the app never has to replay a
  multiplication or a projection.

It returns ``(events, n_events, updates, n_update_rows, history,
n_history_rows, epochs_run, n_updates, n_mistakes, counts)``; the last four
are per problem (``counts`` per problem and example).

Training stops early after an epoch without an update: with a fixed visiting
order every later epoch would visit the same examples with the same
hypothesis and change nothing, so the result is the same as running all
epochs, only faster. ``n_iter_`` says how many epochs ran.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils import check_random_state
from sklearn.utils.multiclass import check_classification_targets, type_of_target
from sklearn.utils.validation import check_is_fitted, validate_data

from perceptron_core._jit import jit
from perceptron_core._validation import (
    BOOLEAN,
    SEED,
    Number,
    OneOf,
    Param,
    check_test_data,
    check_training_data,
    encode_labels,
    validate_params,
    warn_if_overflowed,
)
from perceptron_core.trace import Trace

#: Columns of the kernels' event table.
EVENT_COLUMNS = ("problem", "epoch", "index", "kind", "score", "n_updates")
RECORD_MODES = {"none": 0, "updates": 1, "all": 2}

#: Parameter rows every on-line rule shares.
COMMON_PARAMETERS = {
    "epochs": Param(
        "the most passes over the training set; training stops earlier after a pass "
        "without an update",
        (Number(low=1, integer=True),),
    ),
    "shuffle": Param("whether to permute the training set once before training", (BOOLEAN,)),
    "random_state": Param("the seed of the permutation", (SEED,)),
    "record": Param(
        "what to keep in trace_ for the app to replay",
        (OneOf(tuple(RECORD_MODES)),),
    ),
}
FIT_INTERCEPT = Param(
    "whether to learn a bias, as the weight of an extra input that is always 1",
    (BOOLEAN,),
)


# --------------------------------------------------------------------------
# numba helpers shared by the kernels
# --------------------------------------------------------------------------


@jit
def append_row(table, n_rows, row):
    """Write ``row`` as row ``n_rows`` of ``table``, growing it when full.

    Returns the (possibly new) table; the caller keeps the row count.
    """
    if n_rows == table.shape[0]:
        grown = np.empty((2 * table.shape[0] + 16, table.shape[1]))
        grown[:n_rows] = table[:n_rows]
        table = grown
    table[n_rows, :] = row
    return table


@jit
def dot(w, x):
    """``<w, x>`` summed left to right (the tests' references sum in the same order)."""
    s = 0.0
    for i in range(x.shape[0]):
        s += w[i] * x[i]
    return s


@jit
def log_event(events, n_events, scratch, problem, epoch, index, kind, score, n_updates):
    """Append one event row; returns the table (see :func:`append_row`)."""
    scratch[0] = problem
    scratch[1] = epoch
    scratch[2] = index
    scratch[3] = kind
    scratch[4] = score
    scratch[5] = n_updates
    return append_row(events, n_events, scratch)


@jit
def log_update(updates, n_rows, scratch, problem, index, coef, theta_delta):
    """Append one row of the additive update sequence."""
    scratch[0] = problem
    scratch[1] = index
    scratch[2] = coef
    scratch[3] = theta_delta
    return append_row(updates, n_rows, scratch)


@jit
def log_hypothesis(history, n_rows, problem, theta, w):
    """Append one hypothesis ``(theta, w)`` of problem ``problem``."""
    row = np.empty(w.shape[0] + 2)
    row[0] = problem
    row[1] = theta
    row[2:] = w
    return append_row(history, n_rows, row)


def empty_tables(record: int, n_features: int):
    """The three initial (empty) tables handed to a kernel."""
    cap = 64 if record else 0
    return (
        np.empty((cap, len(EVENT_COLUMNS))),
        np.empty((cap, 4)),
        np.empty((cap, n_features + 2)),
    )


# --------------------------------------------------------------------------
# The estimator base
# --------------------------------------------------------------------------


class OnlineLinearClassifier(ClassifierMixin, BaseEstimator):
    """Base of the linear on-line rules: fit / partial_fit / predict / trace_.

    Subclasses provide ``_parameters`` (the validation table), ``_init_state``
    (the starting hypothesis) and ``_run_kernel`` (one call of the numba
    kernel), and may override ``_prepare_X`` (e.g. Winnow's boolean check).

    Fitted attributes common to all of them: ``classes_``, ``coef_`` of shape
    ``(n_problems, n_features)``, ``intercept_`` of shape ``(n_problems,)``
    (one problem for two classes, one per class otherwise), ``n_iter_``,
    ``n_updates_`` and ``n_mistakes_`` (totals over problems),
    ``update_counts_`` of shape ``(n_problems, n_samples)`` (updates per
    training example, from the last ``fit`` or ``partial_fit`` call; see
    :func:`perceptron_core.metrics.sparsity`), and ``trace_`` (``None`` with
    ``record="none"``; a :class:`~perceptron_core.trace.Trace` for two
    classes; ``{class label: Trace}`` otherwise).
    """

    _parameters: ClassVar[dict] = {}
    #: True for rules whose trace stores explicit hypotheses (weight_history).
    _explicit_history = False

    # ---- hooks for subclasses -------------------------------------------

    def _prepare_X(self, X, training: bool):
        return X

    def _init_state(self, n_problems: int, n_features: int) -> None:
        raise NotImplementedError

    def _run_kernel(self, X, Y, order, n_epochs, stop_early, record, row_offset, epoch_offset):
        raise NotImplementedError

    def _coef_intercept(self):
        """``(coef, intercept)`` of the current state, for ``coef_``/``intercept_``."""
        raise NotImplementedError

    def _initial_hypotheses(self):
        """``(W, theta)`` before this run, for the traces' ``w0``/``theta0``."""
        coef, intercept = self._coef_intercept()
        return coef.copy(), -intercept.copy()

    # ---- scikit-learn protocol --------------------------------------------

    def fit(self, X, y):
        """Train from scratch on ``(X, y)``; returns ``self``."""
        validate_params(self)
        X, y = check_training_data(self, X, y, reset=True)
        check_classification_targets(y)
        checked, X = X, self._prepare_X(X, training=True)
        self.classes_ = np.unique(y)
        Y = encode_labels(y, self.classes_)
        self._init_state(Y.shape[0], X.shape[1])
        rng = check_random_state(self.random_state)
        m = X.shape[0]
        order = rng.permutation(m) if self.shuffle else np.arange(m)
        self.n_iter_ = 0
        self.n_updates_ = 0
        self.n_mistakes_ = 0
        self.n_seen_ = 0
        self.trace_ = None
        self._train(X, Y, order.astype(np.int64), self.epochs, stop_early=True)
        warn_if_overflowed(self, checked)
        return self

    def partial_fit(self, X, y, classes=None):
        """One epoch over ``(X, y)`` in the given order, continuing from the current state.

        ``classes`` lists every label the model will ever see; it is needed on
        the first call only when that batch does not show them all. Row
        indices in ``trace_`` count across all batches seen, in order.
        """
        first = not hasattr(self, "classes_")
        if first:
            validate_params(self)
        if first and classes is not None:
            # A first batch may show one class only when `classes` lists them all:
            # record the feature count here, then check the batch without the
            # two-classes rule of a first fit.
            validate_data(self, X, reset=True, skip_check_array=True)
            X, y = check_training_data(self, X, y, reset=False)
        else:
            X, y = check_training_data(self, X, y, reset=first)
        check_classification_targets(y)
        checked, X = X, self._prepare_X(X, training=True)
        if first:
            self.classes_ = np.unique(y if classes is None else np.concatenate([classes, y]))
            if len(self.classes_) < 2:
                raise ValueError(
                    f"{type(self).__name__}: the first partial_fit call needs at least two "
                    "classes; pass classes=[...] with every label the model will see."
                )
            self._init_state(1 if len(self.classes_) == 2 else len(self.classes_), X.shape[1])
            self.n_iter_ = 0
            self.n_updates_ = 0
            self.n_mistakes_ = 0
            self.n_seen_ = 0
            self.trace_ = None
        elif classes is not None and not np.array_equal(np.unique(classes), self.classes_):
            raise ValueError(
                f"classes={list(classes)} differs from the classes {list(self.classes_)} "
                "of the first partial_fit call."
            )
        Y = encode_labels(y, self.classes_)
        self._train(X, Y, np.arange(X.shape[0], dtype=np.int64), 1, stop_early=False)
        warn_if_overflowed(self, checked)
        return self

    def _train(self, X, Y, order, n_epochs, stop_early):
        record = RECORD_MODES[self.record]
        W0, theta0 = self._initial_hypotheses() if record else (None, None)
        out = self._run_kernel(
            X, Y, order, n_epochs, stop_early, record, self.n_seen_, self.n_iter_
        )
        events, n_ev, updates, n_up, history, n_hist, epochs_run, n_upd, n_mis, counts = out
        self.n_iter_ += int(epochs_run.max())
        self.n_updates_ += int(n_upd.sum())
        self.n_mistakes_ += int(n_mis.sum())
        self.update_counts_ = counts
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
            ev = events[events[:, 0] == p]
            up = updates[updates[:, 0] == p]
            rows = up[:, 1].astype(np.int64)
            used = np.unique(rows)
            x_rows = dict(zip(used.tolist(), np.asarray(X[used - self.n_seen_], dtype=np.float64)))
            wh = th = None
            if self._explicit_history:
                hist = history[history[:, 0] == p]
                wh, th = hist[:, 2:].copy(), hist[:, 1].copy()
            traces.append(
                Trace(
                    epoch=ev[:, 1].astype(np.int64),
                    index=ev[:, 2].astype(np.int64),
                    kind=ev[:, 3].astype(np.int8),
                    score=ev[:, 4].copy(),
                    n_updates=ev[:, 5].astype(np.int64),
                    visits=record == 2,
                    rows=rows,
                    coef=up[:, 2].copy(),
                    theta_delta=up[:, 3].copy(),
                    w0=W0[p],
                    theta0=float(theta0[p]),
                    x_rows=x_rows,
                    weight_history=wh,
                    theta_history=th,
                )
            )
        return traces

    def _store_traces(self, traces):
        if self.trace_ is not None:
            if isinstance(self.trace_, dict):
                traces = [old.extend(new) for old, new in zip(self.trace_.values(), traces)]
            else:
                traces = [self.trace_.extend(traces[0])]
        if len(traces) == 1:
            self.trace_ = traces[0]
        else:
            self.trace_ = dict(zip(self.classes_.tolist(), traces))

    def decision_function(self, X):
        """Raw scores ``<w, x> + b``.

        Shape (n_samples,) for two classes, else (n_samples, n_classes).
        """
        check_is_fitted(self, "coef_")
        X = check_test_data(self, X)
        X = self._prepare_X(X, training=False)
        scores = np.asarray(X, dtype=np.float64) @ self.coef_.T + self.intercept_
        return scores[:, 0] if scores.shape[1] == 1 else scores

    def predict(self, X):
        """The class with the larger score (two classes: positive iff the score is > 0)."""
        scores = self.decision_function(X)
        if scores.ndim == 1:
            return self.classes_[(scores > 0).astype(np.int64)]
        return self.classes_[np.argmax(scores, axis=1)]


class ZeroStartLinear(OnlineLinearClassifier):
    """Additive rules with ``f(x) = <w, x> + b``, starting from ``w = 0, b = 0``.

    The bias is the weight of an extra input ``xb`` that is always 1 when
    ``fit_intercept`` is true and 0 otherwise (then ``b`` stays 0).
    """

    def _init_state(self, n_problems, n_features):
        self._W = np.zeros((n_problems, n_features))
        self._b = np.zeros(n_problems)

    def _xb(self) -> float:
        return 1.0 if self.fit_intercept else 0.0

    def _coef_intercept(self):
        return self._W.copy(), self._b.copy()


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
