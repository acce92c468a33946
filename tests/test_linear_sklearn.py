"""scikit-learn's conformance suite over every linear estimator."""

from perceptron_core import (
    AveragedPerceptron,
    KWPerceptron,
    LongestSurvivorPerceptron,
    MarginPerceptron,
    Perceptron,
    VotedPerceptron,
)
from tests.conformance import parametrize_with_sklearn_checks

ESTIMATORS = [
    KWPerceptron(random_state=0),
    KWPerceptron(tau=0.5, lam=0.5, alpha_bound=10, predict_with="voted", random_state=0),
    Perceptron(random_state=0),
    MarginPerceptron(random_state=0),
    LongestSurvivorPerceptron(random_state=0),
    VotedPerceptron(random_state=0),
    AveragedPerceptron(random_state=0),
]


@parametrize_with_sklearn_checks(ESTIMATORS)
def test_sklearn_compatible(estimator, check):
    check(estimator)
