"""The 95 % t-interval of KW against SciPy's Student t interval."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from perceptron_core.experiments.stats import t_interval


@pytest.mark.parametrize("k", [2, 3, 10, 30])
def test_matches_scipy_t_interval(k):
    values = np.random.default_rng(k).uniform(0.6, 0.95, size=k)
    mean, half = t_interval(values)
    low, high = stats.t.interval(0.95, k - 1, loc=values.mean(), scale=stats.sem(values))
    assert mean == pytest.approx(values.mean(), rel=1e-12)
    assert mean - half == pytest.approx(low, rel=1e-12)
    assert mean + half == pytest.approx(high, rel=1e-12)


def test_the_formula_written_out():
    y = np.array([0.8, 0.9, 0.85, 0.95])
    k = len(y)
    expected = 3.182446305284263 * math.sqrt(((y - y.mean()) ** 2).sum() / (k * (k - 1)))
    assert t_interval(y)[1] == pytest.approx(expected, rel=1e-12)  # t_{3,0.975} = 3.1824...


def test_one_value_has_no_interval_and_none_is_refused():
    assert math.isnan(t_interval([0.7])[1])
    with pytest.raises(ValueError, match="at least one"):
        t_interval([])
    assert t_interval([0.5, 0.5, 0.5]) == (0.5, 0.0)
