"""The one estimator base of the on-line learners (``perceptron_core._estimator``).

Every on-line learner is an :class:`OnlineEstimator`; what differs between them is reached
through hooks that a base documents, and a subclass overrides no private method of a base
that the base does not document as a hook."""

from __future__ import annotations

import re

import numpy as np
import pytest

import perceptron_core
from perceptron_core._estimator import OnlineEstimator
from perceptron_core._online import OnlineLinearClassifier, ZeroStartLinear
from perceptron_core.kernel import KernelPerceptron
from perceptron_core.linear import KWPerceptron

#: The learners of ``perceptron_core.__all__`` that are not on-line learners of one weight
#: vector per problem: a committee (its own protocol) and the ensembles of committees.
NOT_ONLINE = {"ParallelPerceptron", "AdaBoost", "Bagging", "NRBoost"}

#: The bases that document hooks, each with the private names its subclasses may override.
DOCUMENTED_BASES = (OnlineEstimator, KWPerceptron, OnlineLinearClassifier, ZeroStartLinear)


def _estimators() -> list[type]:
    return [
        getattr(perceptron_core, name)
        for name in perceptron_core.__all__
        if isinstance(getattr(perceptron_core, name), type)
        and hasattr(getattr(perceptron_core, name), "fit")
    ]


def _hooks(base: type) -> set[str]:
    """The private names ``base``'s docstring writes as code (``_name``): its hooks, and the
    state it provides."""
    return set(re.findall(r"``(_[A-Za-z_]+)", base.__doc__ or ""))


def _defines(cls: type) -> set[str]:
    """The private methods and attributes ``cls`` itself defines (not the dunders, not the
    parameters' table the ``hyperparameters`` decorator writes, not how the conformance checks
    build it)."""
    tables = {"_parameters", "_check_params", "_xfail_checks"}
    return {
        name
        for name in vars(cls)
        if name.startswith("_") and not name.startswith("__") and name not in tables
    }


def test_every_online_learner_is_one_estimator_base():
    estimators = _estimators()
    assert len(estimators) > 15
    online = {cls.__name__ for cls in estimators if issubclass(cls, OnlineEstimator)}
    assert online == {cls.__name__ for cls in estimators} - NOT_ONLINE
    assert {"KWPerceptron", "KernelPerceptron", "Winnow", "AverageAlgorithm"} <= online


def test_the_base_documents_its_hooks_and_defines_each():
    named = _hooks(OnlineEstimator)
    hooks = {"_start", "_train", "_scores", "_prepare_X", "_zero_is_positive"}
    state = {"_rng", "_order", "_traces"}  # what the base sets for the hooks to read
    assert named == hooks | state
    assert all(hasattr(OnlineEstimator, hook) for hook in hooks)


def _undocumented_overrides(cls: type) -> set[str]:
    """The private names ``cls`` redefines from a documented base without that base (or a
    base above it) naming them as a hook."""
    documented = set().union(*(_hooks(base) for base in DOCUMENTED_BASES if issubclass(cls, base)))
    inherited = {
        name
        for base in cls.__mro__[1:]
        if issubclass(base, OnlineEstimator)
        for name in _defines(base)
    }
    return (_defines(cls) & inherited) - documented


@pytest.mark.parametrize(
    "cls",
    [cls for cls in _estimators() if issubclass(cls, OnlineEstimator)],
    ids=lambda cls: cls.__name__,
)
def test_a_learner_overrides_only_the_hooks_its_bases_document(cls):
    assert _undocumented_overrides(cls) == set()


def test_the_check_sees_an_undocumented_override():
    """The kernel perceptron overrides KW's hooks; a method of KW that is no hook is refused."""
    assert {"_start", "_run", "_trace_piece", "_scores"} <= _defines(KernelPerceptron)

    class Peeking(KernelPerceptron):
        def _settings(self):  # KW's, but no hook
            return super()._settings()

    assert _undocumented_overrides(Peeking) == {"_settings"}


def test_the_hooks_the_kernel_perceptron_overrides_are_those_its_docstring_names():
    named = set(re.findall(r"``(_[A-Za-z_]+)``", KernelPerceptron.__doc__ or ""))
    overridden = _defines(KernelPerceptron) & set().union(
        *(_defines(base) for base in (KWPerceptron, OnlineEstimator))
    )
    assert overridden == named


class _MeanDifference(OnlineEstimator):
    """The smallest engine: the sum of ``y x`` over the examples (three hooks)."""

    epochs, shuffle, random_state = 1, True, 0

    def _start(self, X, n_problems):
        self._sum = np.zeros((n_problems, X.shape[1]))
        self._traces = None
        self.visits_ = []

    def _train(self, X, y, n_epochs, *, fresh, in_place):
        self.visits_.append((fresh, self._order.copy() if fresh else None))
        for c in range(len(self._sum)):
            positive = self.classes_[-1] if len(self._sum) == 1 else self.classes_[c]
            self._sum[c] += np.where(y == positive, 1.0, -1.0) @ X
        self.n_iter_ += n_epochs

    def _scores(self, X):
        return X @ self._sum.T


def test_the_base_runs_the_protocol_around_the_hooks():
    X = np.array([[2.0, 1.0], [-1.0, -2.0], [1.5, 2.0], [-2.0, -0.5], [0.5, 3.0]])
    y = np.array(["b", "a", "b", "a", "c"])
    clf = _MeanDifference().fit(X, y)
    assert list(clf.classes_) == ["a", "b", "c"] and clf.n_features_in_ == 2
    assert clf.decision_function(X).shape == (5, 3)
    ((fresh, order),) = clf.visits_
    assert fresh and sorted(order) == list(range(5))
    assert list(order) == list(np.random.RandomState(0).permutation(5))  # the seeded order
    assert clf.trace_ is None

    two = _MeanDifference().partial_fit(X[:2], y[:2], classes=["a", "b"])
    two.partial_fit(X[2:4], y[2:4])
    assert two.n_iter_ == 2 and [fresh for fresh, _ in two.visits_] == [False, False]
    assert two.decision_function(X).shape == (5,)
    assert list(two.predict(X[:4])) == ["b", "a", "b", "a"]


def test_every_learner_refuses_a_first_batch_label_outside_classes_alike():
    """One base, one message: a label of the batch missing from ``classes``."""
    X = np.array([[2.0, 1.0], [-1.0, -2.0], [1.5, 2.0]])
    y = np.array([0, 1, 2])
    for cls in (KWPerceptron, perceptron_core.PassiveAggressive, perceptron_core.ALMA):
        with pytest.raises(ValueError, match=r"y contains the label 2, which is not among"):
            cls().partial_fit(X, y, classes=[0, 1])


def test_partial_fit_cannot_change_the_classes_of_any_learner():
    X = np.array([[2.0, 1.0], [-1.0, -2.0]])
    for cls in (KWPerceptron, perceptron_core.PAUMPerceptron, _MeanDifference):
        clf = cls().partial_fit(X, [0, 1])
        with pytest.raises(ValueError, match="partial_fit cannot change the classes"):
            clf.partial_fit(X, [0, 1], classes=[0, 1, 2])
