"""AdaBoost, NR boosting and bagging of parallel perceptrons against docs/algorithms.md §7."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.neural_network import MLPClassifier
from sklearn.tree import DecisionTreeClassifier

from perceptron_core.boosting import AdaBoost, Bagging, NRBoost
from perceptron_core.parallel import ParallelPerceptron
from tests.data import twonorm
from tests.numerics import NEAR, relative_gap

SEED_MAX = np.iinfo(np.int32).max


def nr_categories(h, X, y):
    """docs/algorithms.md §6.2: safe / noisy / borderline from the final weights and gamma,
    and how near any margin came to ``±gamma`` (this matrix product adds in its own order)."""
    X1 = np.hstack([X, np.ones((len(X), 1))])
    margins = y[:, None] * (X1 @ h.weights_.T)
    majority = len(h.weights_) // 2 + 1
    safe = (margins > h.gamma_).sum(axis=1) >= majority
    noisy = (margins < -h.gamma_).sum(axis=1) >= majority
    magnitude = np.abs(X1) @ np.abs(h.weights_.T) + abs(h.gamma_)
    closest = relative_gap(np.abs(margins) - h.gamma_, magnitude).min()
    return np.where(safe, "safe", np.where(noisy, "noisy", "borderline")), closest


def reference_boosting(X, y, *, n_rounds, epochs, seed, noise_reduction, eps_floor=1e-10):
    """AdaBoost / NR boosting of parallel perceptrons as docs/algorithms.md §7 writes it."""
    m = len(y)
    rng = np.random.RandomState(seed)  # the seeds of the rounds' fresh committees
    d = np.full(m, 1 / m)
    alphas, committees, errors, dists = [], [], [], []
    for _ in range(n_rounds):
        dists.append(d)
        h = ParallelPerceptron(epochs=epochs, random_state=rng.randint(SEED_MAX))
        h.fit(X, y, sample_weight=m * d)  # every step of pattern x multiplied by m d(x)
        h_x = h.predict(X)
        eps = np.clip(d[h_x != y].sum(), eps_floor, 1 - eps_floor)
        errors.append(eps)
        if eps >= 0.5:  # drop h_t and start again from the uniform distribution
            d = np.full(m, 1 / m)
            continue
        alpha = 0.5 * np.log((1 - eps) / eps)
        if noise_reduction:  # R = -1 for safe and noisy patterns, 0 for borderline ones
            R = np.where(nr_categories(h, X, y)[0] == "borderline", 0.0, -1.0)
        else:  # standard AdaBoost
            R = np.ones(m)
        d = d * np.exp(-alpha * R * y * h_x)
        d = d / d.sum()
        alphas.append(alpha)
        committees.append(h)
    return np.array(alphas), committees, np.array(errors), np.array(dists)


def reference_vote(alphas, committees, X):
    return sum(a * h.predict(X) for a, h in zip(alphas, committees))


@pytest.mark.numerics
@pytest.mark.parametrize("cls", [AdaBoost, NRBoost])
def test_boosting_matches_reference(cls):
    X, y, _ = twonorm(200, seed=0, noise=0.1)
    Xt, _yt, _ = twonorm(300, seed=1)
    model = cls(ParallelPerceptron(epochs=40), n_rounds=6, random_state=3).fit(X, y)
    alphas, committees, errors, dists = reference_boosting(
        X, y, n_rounds=6, epochs=40, seed=3, noise_reduction=cls is NRBoost
    )
    np.testing.assert_allclose(model.estimator_errors_, errors, rtol=1e-12)
    np.testing.assert_allclose(model.estimator_weights_, alphas, rtol=1e-12)
    np.testing.assert_allclose(model.distributions_, dists, rtol=1e-10)
    votes = reference_vote(alphas, committees, Xt)
    np.testing.assert_allclose(model.decision_function(Xt), votes)
    # the model sums the alphas in its own order: its labels agree where no vote is near 0
    assert relative_gap(votes, np.abs(alphas).sum()).min() > NEAR
    np.testing.assert_array_equal(model.predict(Xt), np.where(votes > 0, 1, -1))
    if cls is NRBoost:
        for t, h in enumerate(committees):
            categories, closest = nr_categories(h, X, y)
            assert closest > NEAR  # the committee's activations add in another order
            np.testing.assert_array_equal(model.categories_[t], categories)


def test_nr_boosting_lowers_the_weight_of_noisy_patterns_and_beats_adaboost_under_noise():
    accuracies = {"nr": [], "ada": []}
    for seed in range(2):
        X, y, flipped = twonorm(300, seed=10 + seed, noise=0.2)
        Xt, yt, _ = twonorm(2000, seed=20 + seed)
        nr = NRBoost(random_state=seed).fit(X, y)
        ada = AdaBoost(random_state=seed).fit(X, y)
        accuracies["nr"].append(nr.score(Xt, yt))
        accuracies["ada"].append(ada.score(Xt, yt))
        # after the rounds, the flipped patterns carry much less weight than under AdaBoost
        assert nr.distributions_[-1][flipped].sum() < 0.5 * ada.distributions_[-1][flipped].sum()
        # NR drives eps_t towards the floor: late rounds dominate the vote
        assert nr.estimator_weights_[-1] > 2 * nr.estimator_weights_[0]
    assert np.mean(accuracies["nr"]) > np.mean(accuracies["ada"]) + 0.05
    assert np.mean(accuracies["nr"]) > 0.9


class _Alternating(ClassifierMixin, BaseEstimator):
    """A stump that is inverted on every second fit (class-level counter): eps >= 1/2."""

    fits = 0

    def fit(self, X, y, sample_weight=None):
        self.bad_ = type(self).fits % 2 == 1
        type(self).fits += 1
        self.tree_ = DecisionTreeClassifier(max_depth=1).fit(X, y, sample_weight=sample_weight)
        self.classes_ = self.tree_.classes_
        return self

    def predict(self, X):
        pred = self.tree_.predict(X)
        return (
            np.where(pred == self.classes_[0], self.classes_[1], self.classes_[0])
            if self.bad_
            else pred
        )


def test_a_round_with_error_at_least_half_is_dropped_and_resets_the_distribution():
    X, y, _ = twonorm(100, seed=2, noise=0.1)
    _Alternating.fits = 0
    ada = AdaBoost(_Alternating(), n_rounds=4, random_state=0).fit(X, y)
    np.testing.assert_array_equal(ada.kept_, [True, False, True, False])
    assert len(ada.estimators_) == len(ada.estimator_weights_) == 2
    assert ada.estimator_errors_[1] > 0.5
    assert not np.allclose(ada.distributions_[1], 1 / 100)  # round 1 saw a re-weighted set
    np.testing.assert_allclose(ada.distributions_[2], 1 / 100)  # reset after the drop


def test_every_round_dropped_warns_and_predicts_the_negative_class():
    X, y, _ = twonorm(60, seed=3)

    class AlwaysBad(_Alternating):
        def fit(self, X, y, sample_weight=None):
            super().fit(X, y, sample_weight)
            self.bad_ = True
            return self

    with pytest.warns(UserWarning, match="no round had a weighted error below 1/2"):
        ada = AdaBoost(AlwaysBad(), n_rounds=3).fit(X, y)
    assert not ada.kept_.any()
    assert (ada.predict(X) == -1).all()


def test_eps_is_clipped_to_the_floor():
    X, y, _ = twonorm(80, seed=4)
    ada = AdaBoost(DecisionTreeClassifier(), n_rounds=2, eps_floor=1e-3, random_state=0).fit(X, y)
    np.testing.assert_allclose(ada.estimator_errors_, 1e-3)  # a tree fits the set exactly
    np.testing.assert_allclose(ada.estimator_weights_, 0.5 * np.log(0.999 / 0.001))


class _NoWeights(ClassifierMixin, BaseEstimator):
    """A learner whose fit has no sample_weight: boosting must resample for it."""

    def __init__(self, random_state=None):
        self.random_state = random_state

    def fit(self, X, y):
        self.tree_ = DecisionTreeClassifier(max_depth=2, random_state=self.random_state).fit(X, y)
        self.classes_ = self.tree_.classes_
        return self

    def predict(self, X):
        return self.tree_.predict(X)


def test_sampling_weights_or_resample():
    X, y, _ = twonorm(120, seed=5, n=5)
    auto = AdaBoost(_NoWeights(), n_rounds=3, random_state=0).fit(X, y)
    assert auto.sampling_ == "resample"
    with pytest.raises(ValueError, match="sampling='weights' needs a base learner"):
        AdaBoost(_NoWeights(), sampling="weights").fit(X, y)
    assert AdaBoost(n_rounds=1).fit(X, y).sampling_ == "weights"
    # the stronger learner: a small MLP (scikit-learn >= 1.7 gives it sample_weight; resample
    # here as the classic comparisons do)
    mlp = MLPClassifier(hidden_layer_sizes=(5,), max_iter=300, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # ConvergenceWarning of the tiny MLP
        boosted = AdaBoost(mlp, n_rounds=3, sampling="resample", random_state=0).fit(X, y)
    assert boosted.sampling_ == "resample" and boosted.score(X, y) > 0.8
    # same seed, same resamples, same ensemble
    again = AdaBoost(_NoWeights(), n_rounds=3, random_state=0).fit(X, y)
    np.testing.assert_array_equal(auto.decision_function(X), again.decision_function(X))


def test_bagging_matches_reference_and_ties_go_to_the_negative_class():
    X, y, _ = twonorm(120, seed=6, n=5, noise=0.2)
    bag = Bagging(ParallelPerceptron(epochs=20), n_estimators=4, random_state=7).fit(X, y)
    rng = np.random.RandomState(7)
    votes = np.zeros(len(X))
    for t in range(4):
        h = ParallelPerceptron(epochs=20, random_state=rng.randint(SEED_MAX))
        idx = rng.randint(0, len(X), size=len(X))  # a bootstrap resample
        np.testing.assert_array_equal(bag.samples_[t], idx)
        votes += h.fit(X[idx], y[idx]).predict(X)
    np.testing.assert_array_equal(bag.decision_function(X), votes)
    np.testing.assert_array_equal(bag.predict(X), np.where(votes > 0, 1, -1))
    assert (votes == 0).any()  # four voters on noisy data: some ties, all sent to -1


def test_errors_in_words():
    X, y, _ = twonorm(40, seed=8, n=3)
    with pytest.raises(TypeError, match="NRBoost needs a base learner .* categorize"):
        NRBoost(DecisionTreeClassifier()).fit(X, y)
    with pytest.raises(ValueError, match="Only binary classification is supported"):
        NRBoost().fit(X, np.arange(40) % 3)
    with pytest.raises(ValueError, match=r"n_rounds \(the number of boosting rounds\)"):
        AdaBoost(n_rounds=0).fit(X, y)
    with pytest.raises(ValueError, match="eps_floor"):
        NRBoost(eps_floor=0.5).fit(X, y)
