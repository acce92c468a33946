"""Lesson 5's perceptron-as-SGD section: each PAM update is minus η times the gradient of the
example's hinge loss (θ's step scaled by C), checked against finite differences; an example
has positive loss exactly when it would force an update.
"""

from __future__ import annotations

import numpy as np
import pytest

from perceptron_lab.app_logic.datasource import make_dataset
from perceptron_lab.app_logic.timeline import UPDATE_KINDS
from perceptron_lab.lessons._basics import noisy_line
from tests.pages import page_run


def _run(seed, tau):
    data = make_dataset(noisy_line(seed, 0.1))
    run = page_run("margin", {"tau": tau}, 20, seed, data)
    return data, run


def _hinge(w, theta, x, y, margin):
    return max(0.0, margin - y * (float(w @ x) - theta))


def _gradient(w, theta, x, y, margin, h=1e-6):
    """Central differences of the hinge loss in w and θ."""
    gw = np.array(
        [
            (_hinge(w + h * e, theta, x, y, margin) - _hinge(w - h * e, theta, x, y, margin))
            / (2 * h)
            for e in np.eye(len(w))
        ]
    )
    gt = (_hinge(w, theta + h, x, y, margin) - _hinge(w, theta - h, x, y, margin)) / (2 * h)
    return gw, gt


@pytest.mark.parametrize("tau", [0.25, 0.5, 2.0])
def test_each_update_is_a_gradient_step_on_the_hinge_loss(tau):
    data, run = _run(1, tau)
    est, tl = run.estimator, run.timeline
    margin = tau * est.theta_init_
    updates = np.flatnonzero(np.isin(tl.kind[0], UPDATE_KINDS))
    checked = 0
    for k, i in enumerate(updates, start=1):
        j = tl.index[i]
        x, y = data.X[j], data.y[j]
        w0, t0, w1, t1 = tl.W[0, k - 1], tl.theta[0, k - 1], tl.W[0, k], tl.theta[0, k]
        if abs(margin - y * (float(w0 @ x) - t0)) < 1e-4:
            continue  # at the kink the loss has no gradient (the rule takes a subgradient)
        gw, gt = _gradient(w0, t0, x, y, margin)
        assert np.allclose(w1 - w0, -est.eta * gw, atol=1e-6)
        assert t1 - t0 == pytest.approx(-est.eta * est.C_ * gt, abs=1e-6)
        checked += 1
    assert checked > 10


@pytest.mark.parametrize("seed", range(10))
def test_positive_loss_is_exactly_would_update_at_the_end(seed):
    data, run = _run(seed, 0.5)
    tl = run.timeline
    margin = 0.5 * run.estimator.theta_init_
    d = tl.scores(data.X, tl.n_events)
    assert ((margin - data.y * d > 0) == (data.y * d <= margin)).all()
