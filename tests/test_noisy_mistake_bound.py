"""The non-separable mistake bound of lesson 3 (Freund & Schapire 1999, quoted by Khardon &
Wachman 2007, §2.1) against a direct computation, and against the perceptron's real mistakes.
"""

from __future__ import annotations

import numpy as np
import pytest

from perceptron_core import Perceptron
from perceptron_lab.app_logic.datasource import make_dataset
from perceptron_lab.lessons._basics import noisy_line
from perceptron_lab.lessons._bounds import deviations, noisy_mistake_bound


def _data(seed, noise):
    return make_dataset(noisy_line(seed, noise))


def test_deviations_and_r_match_a_direct_loop():
    data = _data(3, 0.1)
    C, gamma = 0.7, 0.2
    xi, R = deviations(data.X, data.y, data.w_star, data.theta_star, C, gamma)
    u = np.append(data.w_star, data.theta_star / np.sqrt(C))
    u = u / np.linalg.norm(u)
    for j, (x, y) in enumerate(zip(data.X, data.y)):
        z = np.append(x, -np.sqrt(C))
        assert xi[j] == pytest.approx(max(0.0, gamma - y * float(z @ u)))
    assert R == pytest.approx(max(np.linalg.norm(np.append(x, -np.sqrt(C))) for x in data.X))
    # the flipped examples are the ones far on the wrong side: each deviates by more than γ
    assert (xi[data.flipped] > gamma).all()


def test_the_bound_is_the_formula_at_its_gamma():
    data = _data(0, 0.2)
    C = float(np.mean((data.X**2).sum(axis=1)))
    bound, gamma, D, R = noisy_mistake_bound(data.X, data.y, data.w_star, data.theta_star, C)
    xi, _ = deviations(data.X, data.y, data.w_star, data.theta_star, C, gamma)
    assert D == pytest.approx(np.sqrt((xi**2).sum()))
    assert bound == pytest.approx((2 * (R + D) / gamma) ** 2)


@pytest.mark.parametrize("noise", [0.05, 0.1, 0.2, 0.3])
def test_a_zero_start_perceptron_never_makes_more_mistakes_than_the_bound(noise):
    for seed in range(10):
        data = _data(seed, noise)
        C = float(np.mean((data.X**2).sum(axis=1)))
        bound, gamma, D, R = noisy_mistake_bound(data.X, data.y, data.w_star, data.theta_star, C)
        one = Perceptron(theta_init=0.0, C=C, epochs=1, random_state=seed).fit(data.X, data.y)
        assert one.n_updates_ <= bound
        # T epochs: the same examples T times, so D grows by sqrt(T) (at the same γ)
        T = 30
        many = Perceptron(theta_init=0.0, C=C, epochs=T, random_state=seed).fit(data.X, data.y)
        assert many.n_updates_ <= (2 * (R + np.sqrt(T) * D) / gamma) ** 2
