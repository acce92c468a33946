"""The one estimator base of the on-line learners: the scikit-learn protocol, written once.

Every on-line learner of the package, the Khardon–Wachman family
(:class:`~perceptron_core.linear.KWPerceptron`, its named configurations and
the kernel perceptron) as well as the rules of :mod:`perceptron_core.rules`
and the average algorithm (:class:`~perceptron_core._online.OnlineLinearClassifier`),
is an :class:`OnlineEstimator`. The base checks the parameters and the data,
sets ``classes_`` and the one-vs-rest problems, draws the visiting order from
the seed, and runs ``fit`` and ``partial_fit``, ``decision_function``,
``predict`` and ``score``; what differs between the learners is the engine
that trains them, reached through the few hooks listed in
:class:`OnlineEstimator`. This module imports no engine: the engines sit below
the estimators that call them.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted

from perceptron_core._jit import read_only
from perceptron_core._validation import (
    check_test_data,
    check_training_data,
    show,
    validate_params,
    warn_about_range,
)


class OnlineEstimator(ClassifierMixin, BaseEstimator):
    """Base of the on-line learners: ``fit``, ``partial_fit``, ``predict`` and ``trace_``.

    A template: the scikit-learn protocol is here, and a subclass supplies
    its engine through the hooks below, which the base calls and nothing
    else does. Subclasses declare their parameters with
    :func:`~perceptron_core._validation.parameter`; the base reads
    ``epochs``, ``shuffle`` and ``random_state`` (a learner without one of
    them sets it as a class attribute).

    What the base does:

    * ``fit(X, y)``: checks the parameters and the data (setting
      ``n_features_in_`` and ``feature_names_in_``), sets ``classes_``
      (one one-vs-rest problem for two classes, one per class otherwise), a
      seeded generator ``_rng`` and the visiting order ``_order`` (a
      permutation of the rows with ``shuffle``, else their order) and
      ``n_iter_ = 0``, then trains ``epochs`` epochs; it ends with
      :func:`~perceptron_core._validation.warn_about_range`;
    * ``partial_fit(X, y, classes=None)``: the same start on the first call
      (``classes`` may list labels the first batch does not show), then one
      epoch per call, continuing from the current state;
    * ``decision_function(X)`` (shape ``(n_samples,)`` for two classes,
      ``(n_samples, n_classes)`` otherwise), ``predict(X)`` (two classes: the
      positive class iff the score is > 0, or >= 0 with
      ``_zero_is_positive``; otherwise the largest score) and ``score``;
    * ``trace_``, from ``_traces``: ``None``, one
      :class:`~perceptron_core.trace.Trace` for two classes, or
      ``{class label: Trace}``.

    The hooks (the subclass contract):

    ``_start(X, n_problems)``
        Required. The state a new fit starts from, for ``n_problems``
        problems and the (prepared) first batch ``X``; called once per fit,
        after the base has set ``classes_``, ``_rng``, ``_order`` and
        ``n_iter_``. It sets ``_traces`` (None when nothing is recorded).
    ``_train(X, y, n_epochs, *, fresh, in_place)``
        Required. Train ``n_epochs`` epochs over the batch ``(X, y)`` (``y``
        the labels, a subset of ``classes_``) and fold the results into the
        state: ``n_iter_``, the fitted attributes and ``_traces``. ``fresh``
        is true in ``fit`` (the batch is the whole training set, visited in
        ``_order``) and false in ``partial_fit``; ``in_place`` says that
        ``X`` came as a ``numpy.memmap`` (data meant to stay on disk).
    ``_scores(X)``
        Required. Raw scores, shape ``(n_samples, n_problems)``, of the
        (checked and prepared) rows ``X``.
    ``_prepare_X(X, training)``
        Optional (default: ``X`` as checked). What the engine reads of the
        checked rows, for training and for prediction (Winnow's boolean
        features).
    ``_zero_is_positive``
        Optional class attribute (default False): whether a score of exactly
        0 predicts the positive class of two.

    The engines: :class:`~perceptron_core.linear.KWPerceptron` implements
    the hooks with the compiled KW loop
    (:mod:`perceptron_core.engine.kw_trainer`) and opens hooks of its own for
    the dual loop of :class:`~perceptron_core.kernel.KernelPerceptron`;
    :class:`~perceptron_core._online.OnlineLinearClassifier` implements them
    with the generic driver (:mod:`perceptron_core.engine.online`) and opens
    hooks for the rules' state and hyper-parameters.

    Examples
    --------
    A learner whose engine is the mean of each class's examples (a nearest
    mean classifier) needs only the three required hooks:

    >>> import numpy as np
    >>> class MeanDifference(OnlineEstimator):
    ...     epochs, shuffle, random_state = 1, False, None
    ...     def _start(self, X, n_problems):
    ...         self._sum, self._traces = np.zeros((n_problems, X.shape[1])), None
    ...     def _train(self, X, y, n_epochs, *, fresh, in_place):
    ...         Y = np.where(y == self.classes_[-1], 1.0, -1.0)
    ...         self._sum += Y @ X
    ...         self.n_iter_ += n_epochs
    ...     def _scores(self, X):
    ...         return (X @ self._sum.T).reshape(len(X), -1)
    >>> X = np.array([[2.0, 1.0], [-1.0, -2.0], [1.5, 2.0], [-2.0, -0.5]])
    >>> clf = MeanDifference().fit(X, ["yes", "no", "yes", "no"])
    >>> clf.predict([[3.0, 3.0]]), clf.n_iter_, clf.trace_ is None
    (array(['yes'], dtype='<U3'), 1, True)
    """

    #: The parameters' table (:func:`~perceptron_core._validation.hyperparameters` fills it).
    _parameters: ClassVar[dict] = {}
    #: Whether a score of exactly 0 predicts the positive class of two (it does not by default).
    _zero_is_positive = False

    # -- the hooks (see the class docstring) ------------------------------------

    def _prepare_X(self, X, training: bool):
        """What the engine reads of the checked rows ``X`` (default: ``X`` itself); the
        caller hands it on read-only (:func:`perceptron_core._jit.read_only`)."""
        return X

    def _start(self, X, n_problems: int) -> None:
        """The state a new fit of ``n_problems`` one-vs-rest problems starts from."""
        raise NotImplementedError

    def _train(self, X, y, n_epochs: int, *, fresh: bool, in_place: bool) -> None:
        """Train ``n_epochs`` epochs over the batch ``(X, y)``, folding in the results."""
        raise NotImplementedError

    def _scores(self, X) -> np.ndarray:
        """Raw scores of shape ``(n_samples, n_problems)``."""
        raise NotImplementedError

    # -- training ------------------------------------------------------------------

    def fit(self, X, y):
        """Train from scratch for ``epochs`` epochs; returns ``self``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Labels: any two or more distinct values (strings or numbers).

        Returns
        -------
        self
        """
        validate_params(self)
        in_place = isinstance(X, np.memmap)  # validation returns a plain view of it
        X, y = check_training_data(self, X, y, reset=True)
        prepared = read_only(self._prepare_X(X, training=True))
        self._begin(prepared, np.unique(y))
        self._train(prepared, y, self.epochs, fresh=True, in_place=in_place)
        warn_about_range(self, X)
        return self

    def partial_fit(self, X, y, classes=None):
        """One epoch over ``(X, y)``, continuing from the current state; returns ``self``.

        ``classes`` lists every label the model will ever see; it is needed on
        the first call only when that batch does not show them all, and may
        not change afterwards.
        """
        first = not hasattr(self, "classes_")
        if first:
            validate_params(self)
        X, y = check_training_data(
            self, X, y, reset=first, min_classes=2 if first and classes is None else 1
        )
        prepared = read_only(self._prepare_X(X, training=True))
        if first:
            self._begin(prepared, np.unique(y) if classes is None else np.unique(classes))
        elif classes is not None and not np.array_equal(np.unique(classes), self.classes_):
            raise ValueError(
                f"classes={list(classes)} differs from the classes of the first call "
                f"({list(self.classes_)}); partial_fit cannot change the classes."
            )
        self._train(prepared, y, 1, fresh=False, in_place=False)
        warn_about_range(self, X)
        return self

    def _begin(self, X, classes) -> None:
        """``classes_``, the seeded visiting order and ``n_iter_``; then the engine's start."""
        n_problems = self._problems(classes)
        self._rng = check_random_state(self.random_state)
        self._order = self._rng.permutation(len(X)) if self.shuffle else np.arange(len(X))
        self.n_iter_ = 0
        self._start(X, n_problems)

    def _problems(self, classes) -> int:
        """Set ``classes_``; the number of one-vs-rest problems (one for two classes)."""
        if len(classes) < 2:
            raise ValueError(
                f"classes has only one value ({show(classes[0])}); a classifier needs at "
                "least two."
            )
        self.classes_ = classes
        return 1 if len(classes) == 2 else len(classes)

    # -- prediction ----------------------------------------------------------------

    def _test_rows(self, X):
        """``X`` checked against the training data and prepared for the engine."""
        return read_only(self._prepare_X(check_test_data(self, X), training=False))

    @staticmethod
    def _one_or_all(scores: np.ndarray) -> np.ndarray:
        """``(n_samples,)`` for one problem (two classes), else the scores as they are."""
        return scores[:, 0] if scores.shape[1] == 1 else scores

    def decision_function(self, X):
        """Raw scores: shape (n_samples,) for two classes, else (n_samples, n_classes)."""
        check_is_fitted(self)
        return self._one_or_all(self._scores(self._test_rows(X)))

    def predict(self, X):
        """The class with the largest score (two classes: positive iff the score is > 0)."""
        check_is_fitted(self)
        return self._labels(self._scores(self._test_rows(X)))

    def _labels(self, scores: np.ndarray) -> np.ndarray:
        if scores.shape[1] == 1:
            positive = scores[:, 0] >= 0 if self._zero_is_positive else scores[:, 0] > 0
            return self.classes_[positive.astype(np.intp)]
        return self.classes_[np.argmax(scores, axis=1)]

    # -- fitted attributes ---------------------------------------------------------

    @property
    def trace_(self):
        """What the fit recorded: None, a Trace (two classes) or ``{class label: Trace}``."""
        check_is_fitted(self)
        if self._traces is None:  # nothing recorded (record="none")
            return None
        if len(self._traces) == 1:
            return self._traces[0]
        return dict(zip(self.classes_.tolist(), self._traces))

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = False
        return tags
