"""Ensembles of weak learners: bagging, AdaBoost and NR (noise-reduction) boosting.

AdaBoost re-weights the training set after every round so that the next
learner concentrates on the patterns the previous ones got wrong. With label
noise that is exactly the wrong thing to do: a flipped label is always
"wrong", so boosting keeps increasing its weight. Cantador & Dorronsoro's NR
boosting asks the parallel perceptron of each round to sort the patterns
into *safe*, *noisy* and *borderline* (:meth:`ParallelPerceptron.categorize`)
and flips the re-weighting for the first two: noisy patterns lose weight,
safe ones gain it, borderline ones keep theirs.

Three ensembles, all binary (the vote is ±1):

* :class:`AdaBoost`: Freund & Schapire's re-weighting (``R = 1``);
* :class:`NRBoost`: the NR re-weighting (``R = -1`` for safe and noisy
  patterns, ``R = 0`` for borderline ones);
* :class:`Bagging`: bootstrap resamples and a plain majority vote.

How the base learner sees the distribution: with ``sampling="weights"`` it
is trained on the whole training set with ``sample_weight = m * d_t`` (for
the parallel perceptron, every weight and margin step of a pattern is
multiplied by ``m d_t(x)``; a uniform ``d_t`` is plain training); with
``sampling="resample"`` it is trained on ``m`` patterns drawn with
replacement with probabilities ``d_t``. ``"auto"`` uses weights whenever the
base learner's ``fit`` accepts ``sample_weight``.
"""

from __future__ import annotations

import warnings
from typing import ClassVar

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted, has_fit_parameter

from perceptron_core._online import require_binary
from perceptron_core._validation import (
    SEED,
    Anything,
    Number,
    OneOf,
    Param,
    check_test_data,
    check_training_data,
    encode_labels,
    validate_params,
)
from perceptron_core.parallel import ParallelPerceptron

__all__ = ["AdaBoost", "Bagging", "NRBoost"]

_BASE = Param(
    "the base learner, a scikit-learn classifier (None: ParallelPerceptron())",
    (
        OneOf((None,)),
        Anything(
            lambda v: hasattr(v, "fit") and hasattr(v, "predict") and hasattr(v, "get_params"),
            "a scikit-learn classifier (with fit, predict and get_params)",
        ),
    ),
)
_SEED_MAX = np.iinfo(np.int32).max


class _Constant:
    """A hypothesis that predicts one label (a resample that held a single class)."""

    def __init__(self, label):
        self.label = label

    def predict(self, X):
        return np.full(len(X), self.label)


def _fresh(base, rng):
    """An unfitted copy of ``base`` with its own seed (each round starts afresh)."""
    learner = clone(base if base is not None else ParallelPerceptron())
    if "random_state" in learner.get_params(deep=False):
        learner.set_params(random_state=int(rng.randint(_SEED_MAX)))
    return learner


def _fit_on(learner, X, y, idx):
    """Fit on the rows ``idx`` (a resample); a single-class resample gives a constant."""
    if len(np.unique(y[idx])) < 2:
        return _Constant(y[idx][0])
    return learner.fit(X[idx], y[idx])


class _Ensemble(ClassifierMixin, BaseEstimator):
    """Shared predict / decision_function of the ±1-vote ensembles."""

    def _prepare(self, X, y):
        validate_params(self)
        X, y = check_training_data(self, X, y, reset=True)
        require_binary(self, y)
        self.classes_ = np.unique(y)
        return X, y, encode_labels(y, self.classes_)[0]

    def _votes(self, X):
        """``(n_members, n_samples)`` of ±1 predictions of the members."""
        return np.array(
            [np.where(h.predict(X) == self.classes_[1], 1.0, -1.0) for h in self.estimators_]
        ).reshape(len(self.estimators_), len(X))

    def decision_function(self, X):
        """The weighted vote ``sum_t a_t h_t(x)`` (``h_t = ±1``)."""
        check_is_fitted(self, "estimators_")
        X = check_test_data(self, X)
        return self._member_weights() @ self._votes(X)

    def predict(self, X):
        """The sign of the vote; a tie (0) counts as the negative class ``classes_[0]``."""
        positive = self.decision_function(X) > 0
        return self.classes_[positive.astype(np.int64)]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags


class AdaBoost(_Ensemble):
    """AdaBoost of a weak learner (by default the parallel perceptron), binary.

    Start with the uniform distribution ``d_1 = 1/m``. In round ``t``:

    1. train a fresh base learner ``h_t`` on ``d_t`` (weights or a resample,
       see ``sampling``);
    2. ``eps_t = sum of d_t(x)`` over the training patterns ``h_t`` gets
       wrong, clipped to ``[eps_floor, 1 - eps_floor]``;
    3. if ``eps_t >= 1/2``: drop ``h_t``, reset ``d`` to uniform, next round;
    4. ``alpha_t = 0.5 ln((1 - eps_t) / eps_t)``;
    5. ``d_{t+1}(x) ∝ d_t(x) exp(-alpha_t R(x) y h_t(x))`` with ``R = 1``
       (misclassified patterns gain weight).

    The final classifier is ``sign(sum_t alpha_t h_t(x))``, a tie counting as
    the negative class. ``n_rounds`` counts the rounds tried, dropped ones
    included. :class:`NRBoost` changes only ``R``.

    The floor on ``eps_t`` is worth watching: a round with (nearly) no
    training error gets ``alpha_t`` up to ``0.5 ln(1/eps_floor)`` (11.5 for
    1e-10) and then dominates the vote.

    Parameters
    ----------
    base : classifier or None, default=None
        The weak learner, cloned afresh every round (with its own seed when
        it has ``random_state``). None: ``ParallelPerceptron()``. For a
        stronger learner, e.g. ``MLPClassifier(hidden_layer_sizes=(5,))``.
    n_rounds : int, default=10
    eps_floor : float, default=1e-10
        ``eps_t`` is clipped to ``[eps_floor, 1 - eps_floor]``.
    sampling : {"auto", "weights", "resample"}, default="auto"
        How ``h_t`` sees ``d_t``: ``"weights"`` trains on the whole set with
        ``sample_weight = m d_t`` (the NR paper's choice for parallel
        perceptrons); ``"resample"`` trains on ``m`` patterns drawn with
        probabilities ``d_t`` (for learners without ``sample_weight``);
        ``"auto"`` picks weights whenever ``base.fit`` accepts
        ``sample_weight``. (scikit-learn's ``MLPClassifier`` accepts
        ``sample_weight`` since scikit-learn 1.7; pass
        ``sampling="resample"`` to boost it by resampling as older studies
        did.) The error ``eps_t`` is always measured on the whole set.
    random_state : None, int or numpy RandomState, default=None
        Seeds the base learners and the resamples.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
    estimators_ : list
        The kept hypotheses.
    estimator_weights_ : ndarray of shape (n_kept,)
        ``alpha_t`` of the kept hypotheses.
    estimator_errors_ : ndarray of shape (n_rounds,)
        ``eps_t`` of every round (after clipping), dropped rounds included.
    kept_ : ndarray of shape (n_rounds,), dtype bool
    distributions_ : ndarray of shape (n_rounds, n_samples)
        ``d_t``, the distribution each round trained on.
    sampling_ : str
        ``"weights"`` or ``"resample"``, as used.

    References
    ----------
    Y. Freund and R. E. Schapire, "A decision-theoretic generalization of
    on-line learning and an application to boosting", J. Computer and System
    Sciences 55 (1997) 119-139.

    Examples
    --------
    >>> import numpy as np
    >>> from perceptron_core.boosting import AdaBoost
    >>> from perceptron_core.parallel import ParallelPerceptron
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(200, 2))
    >>> y = np.where(X[:, 0] ** 2 + X[:, 1] ** 2 < 1.2, 1, -1)      # a disc
    >>> ada = AdaBoost(ParallelPerceptron(epochs=50), n_rounds=5, random_state=0).fit(X, y)
    >>> ada.score(X, y) > 0.8, ada.sampling_
    (True, 'weights')
    """

    #: The scikit-learn conformance checks build it so (tests/test_sklearn_conformance.py):
    #: 20 of the committee's 250 epochs, 3 rounds.
    _check_params: ClassVar[tuple[dict, ...]] = (
        {"base": ParallelPerceptron(epochs=20), "n_rounds": 3},
    )

    _noise_reduction = False
    _parameters: ClassVar[dict] = {
        "base": _BASE,
        "n_rounds": Param("the number of boosting rounds", (Number(low=1, integer=True),)),
        "eps_floor": Param(
            "the floor (and 1 minus the ceiling) of each round's weighted error",
            (Number(low=0, high=0.5, open_low=True, open_high=True),),
        ),
        "sampling": Param(
            "how the base learner sees the distribution",
            (OneOf(("auto", "weights", "resample")),),
        ),
        "random_state": Param("the seed of the base learners and resamples", (SEED,)),
    }

    def __init__(
        self, base=None, n_rounds=10, *, eps_floor=1e-10, sampling="auto", random_state=None
    ):
        self.base = base
        self.n_rounds = n_rounds
        self.eps_floor = eps_floor
        self.sampling = sampling
        self.random_state = random_state

    def _reweighting(self, h, X, y):
        """``(R, categories)`` for the training patterns: ``R = 1``, no categories."""
        return np.ones(len(y)), None

    def fit(self, X, y):
        """Run the boosting rounds on ``(X, y)``."""
        X, y, y_pm = self._prepare(X, y)
        m = len(y)
        base = self.base if self.base is not None else ParallelPerceptron()
        sampling = self.sampling
        if sampling == "auto":
            sampling = "weights" if has_fit_parameter(base, "sample_weight") else "resample"
        elif sampling == "weights" and not has_fit_parameter(base, "sample_weight"):
            raise ValueError(
                f"{type(self).__name__}: sampling='weights' needs a base learner whose fit "
                f"accepts sample_weight, and {type(base).__name__}.fit does not; use "
                "sampling='resample'."
            )
        self.sampling_ = sampling
        rng = check_random_state(self.random_state)
        d = np.full(m, 1.0 / m)
        estimators, alphas, errors, kept, dists, categories = [], [], [], [], [], []
        for _ in range(self.n_rounds):
            dists.append(d)
            h = _fresh(base, rng)
            if sampling == "weights":
                h.fit(X, y, sample_weight=m * d)
            else:
                h = _fit_on(h, X, y, rng.choice(m, size=m, p=d))
            h_pm = np.where(h.predict(X) == self.classes_[1], 1.0, -1.0)
            eps = float(np.clip(d[h_pm != y_pm].sum(), self.eps_floor, 1.0 - self.eps_floor))
            errors.append(eps)
            if eps >= 0.5:
                kept.append(False)
                categories.append(None)
                d = np.full(m, 1.0 / m)
                continue
            alpha = 0.5 * np.log((1.0 - eps) / eps)
            R, cats = self._reweighting(h, X, y)
            categories.append(cats)
            d = d * np.exp(-alpha * R * y_pm * h_pm)
            d = d / d.sum()
            estimators.append(h)
            alphas.append(alpha)
            kept.append(True)
        if not estimators:
            warnings.warn(
                f"{type(self).__name__}: no round had a weighted error below 1/2; the "
                "ensemble is empty and predicts the negative class everywhere.",
                stacklevel=2,
            )
        self.estimators_ = estimators
        self.estimator_weights_ = np.asarray(alphas, dtype=np.float64)
        self.estimator_errors_ = np.asarray(errors)
        self.kept_ = np.asarray(kept, dtype=bool)
        self.distributions_ = np.asarray(dists)
        self._store_categories(categories)
        return self

    def _store_categories(self, categories):
        pass

    def _member_weights(self):
        return self.estimator_weights_


class NRBoost(AdaBoost):
    """NR (noise-reduction) boosting: AdaBoost that lowers the weight of noisy patterns.

    The same rounds as :class:`AdaBoost`, with one change in the
    re-weighting ``d_{t+1}(x) ∝ d_t(x) exp(-alpha_t R(x) y h_t(x))``: after
    round ``t``, the base learner sorts the training patterns (its
    ``categorize(X, y)``, with the labels as given) and

    * ``R = -1`` for *safe* and *noisy* patterns: a safe pattern is always
      classified right (``y h = 1``) and **gains** weight, a noisy one is
      always wrong (``y h = -1``) and **loses** weight, the opposite of
      AdaBoost;
    * ``R = 0`` for *borderline* patterns: their weight is kept.

    So only the borderline set really depends on the categories. Because
    the patterns a round gets wrong lose weight, ``eps_t`` falls quickly
    towards the floor ``eps_floor``, ``alpha_t`` grows, and late rounds
    dominate the vote: the floor is a visible parameter worth teaching.

    The base learner must have ``categorize(X, y)`` returning "safe",
    "noisy" or "borderline" per pattern (:class:`ParallelPerceptron` does).
    By default it sees ``d_t`` through its sample weights: every weight and
    margin step of a pattern is multiplied by ``m d_t(x)``, as in the NR
    paper; with ``sampling="resample"`` it is trained on a resample and
    categorises the whole training set.

    Parameters
    ----------
    base : classifier with ``categorize`` or None, default=None
        None: ``ParallelPerceptron()`` (3 perceptrons, gamma 0.05, eta 1e-3,
        250 epochs), each round started afresh with new random weights.
    n_rounds, eps_floor, sampling, random_state
        As in :class:`AdaBoost`.

    Attributes
    ----------
    classes_, estimators_, estimator_weights_, estimator_errors_, kept_, distributions_, sampling_
        As in :class:`AdaBoost`.
    categories_ : ndarray of shape (n_rounds, n_samples), dtype str
        Each round's categories ("" for dropped rounds): the view the app
        colours, round by round.

    References
    ----------
    I. Cantador and J. R. Dorronsoro, "Boosting parallel perceptrons for
    label noise reduction in classification problems", IWINAC 2005, LNCS
    3562.

    Examples
    --------
    >>> import numpy as np
    >>> from perceptron_core.boosting import NRBoost
    >>> from perceptron_core.parallel import ParallelPerceptron
    >>> rng = np.random.default_rng(1)
    >>> X = np.vstack([rng.normal(-0.5, 1, (100, 5)), rng.normal(0.5, 1, (100, 5))])
    >>> y = np.repeat([0, 1], 100)
    >>> flipped = rng.choice(200, size=20, replace=False)
    >>> y_noisy = y.copy(); y_noisy[flipped] = 1 - y_noisy[flipped]
    >>> nr = NRBoost(ParallelPerceptron(epochs=100), n_rounds=5, random_state=0)
    >>> nr = nr.fit(X, y_noisy)
    >>> nr.score(X, y) > 0.75
    True
    >>> float(np.mean(nr.categories_[0][flipped] == "noisy")) > 0.3
    True
    """

    #: The scikit-learn conformance checks build it so (tests/test_sklearn_conformance.py).
    _check_params: ClassVar[tuple[dict, ...]] = (
        {"base": ParallelPerceptron(epochs=20), "n_rounds": 3},
    )

    _noise_reduction = True

    def fit(self, X, y):
        base = self.base if self.base is not None else ParallelPerceptron()
        if not callable(getattr(base, "categorize", None)):
            raise TypeError(
                f"NRBoost needs a base learner that sorts patterns into safe / noisy / "
                f"borderline with a categorize(X, y) method; {type(base).__name__} has none. "
                "Use ParallelPerceptron, or AdaBoost for plain boosting."
            )
        return super().fit(X, y)

    def _reweighting(self, h, X, y):
        if isinstance(h, _Constant):  # a one-class resample: no committee to ask
            cats = np.full(len(y), "borderline")
        else:
            cats = np.asarray(h.categorize(X, y))
        return np.where(cats == "borderline", 0.0, -1.0), cats

    def _store_categories(self, categories):
        out = np.full((len(categories), self.distributions_.shape[1]), "", dtype="<U10")
        for t, cats in enumerate(categories):
            if cats is not None:
                out[t] = cats
        self.categories_ = out


class Bagging(_Ensemble):
    """Bagging: base learners on bootstrap resamples, a plain majority vote.

    Each of ``n_estimators`` fresh base learners is trained on ``m``
    patterns drawn uniformly with replacement from the training set (a
    resample: the base learner never sees weights). The prediction is the
    sign of the sum of their ±1 votes, a tie counting as the negative class
    ``classes_[0]`` (possible with an even ``n_estimators``). Binary only,
    like the boosting ensembles it is compared with in the NR paper.

    Parameters
    ----------
    base : classifier or None, default=None
        None: ``ParallelPerceptron()``.
    n_estimators : int, default=10
    random_state : None, int or numpy RandomState, default=None
        Seeds the resamples and the base learners.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
    estimators_ : list
    samples_ : ndarray of shape (n_estimators, n_samples)
        The row indices of each bootstrap resample.

    References
    ----------
    L. Breiman, "Bagging predictors", Machine Learning 24 (1996) 123-140.

    Examples
    --------
    >>> import numpy as np
    >>> from perceptron_core.boosting import Bagging
    >>> from perceptron_core.parallel import ParallelPerceptron
    >>> rng = np.random.default_rng(0)
    >>> X = np.vstack([rng.normal(-1, 1, (50, 3)), rng.normal(1, 1, (50, 3))])
    >>> y = np.repeat(["a", "b"], 50)
    >>> bag = Bagging(ParallelPerceptron(epochs=50), n_estimators=5, random_state=0).fit(X, y)
    >>> bag.score(X, y) > 0.85
    True
    """

    #: The scikit-learn conformance checks build it so (tests/test_sklearn_conformance.py).
    _check_params: ClassVar[tuple[dict, ...]] = (
        {"base": ParallelPerceptron(epochs=20), "n_estimators": 3},
    )

    _parameters: ClassVar[dict] = {
        "base": _BASE,
        "n_estimators": Param("the number of bootstrap learners", (Number(low=1, integer=True),)),
        "random_state": Param("the seed of the resamples and base learners", (SEED,)),
    }

    def __init__(self, base=None, n_estimators=10, *, random_state=None):
        self.base = base
        self.n_estimators = n_estimators
        self.random_state = random_state

    def fit(self, X, y):
        """Train ``n_estimators`` base learners on bootstrap resamples of ``(X, y)``."""
        X, y, _ = self._prepare(X, y)
        m = len(y)
        rng = check_random_state(self.random_state)
        estimators, samples = [], []
        for _ in range(self.n_estimators):
            h = _fresh(self.base, rng)
            idx = rng.randint(0, m, size=m)
            samples.append(idx)
            estimators.append(_fit_on(h, X, y, idx))
        self.estimators_ = estimators
        self.samples_ = np.asarray(samples)
        return self

    def _member_weights(self):
        return np.ones(len(self.estimators_))
