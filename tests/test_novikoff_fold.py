"""The threshold fold behind Novikoff's bound, checked with C != 1 on real runs.

The rule is ``w += η y x``, ``θ -= η y C``. Folding the threshold in as
``z = (x, -√C)``, ``v = (w, θ/√C)`` must turn it into ``v += η y z`` exactly;
the earlier fold ``z = (x, -C)``, ``v = (w, θ/C)`` moved θ by ``η y C²`` and
agreed with the rule only for ``C = 1``.
"""

from __future__ import annotations

import doctest

import numpy as np
import pytest

from perceptron_core import Perceptron
from perceptron_lab.app_logic.diagnostics import novikoff_bound
from tests.data import separable


@pytest.mark.parametrize("C", [0.3, 2.5, "auto"])
def test_r_and_gamma_are_those_of_the_sqrt_c_fold(C):
    X, y, w_star, theta_star = separable(1)
    clf = Perceptron(C=C, epochs=500, random_state=1).fit(X, y)
    assert clf.C_ != 1.0
    bound, R, gamma = novikoff_bound(X, y, w_star, theta_star, clf.eta, clf.C_, clf.theta_init_)
    # direct: ||(x, -√C)||² = ||x||² + C, and <u, z> = (<w*,x> - θ*) / ||(w*, θ*/√C)||
    R_direct = np.sqrt(((X**2).sum(axis=1) + clf.C_).max())
    norm_u = np.sqrt(w_star @ w_star + theta_star**2 / clf.C_)
    gamma_direct = (y * (X @ w_star - theta_star)).min() / norm_u
    assert np.isclose(R, R_direct) and np.isclose(gamma, gamma_direct)
    assert clf.updates_per_epoch_[-1] == 0 and clf.n_updates_ <= bound
    # with θ_init = 0 the bound is Novikoff's (R/γ)² itself
    zero_start = novikoff_bound(X, y, w_star, theta_star, clf.eta, clf.C_, 0.0)[0]
    assert np.isclose(zero_start, (R_direct / gamma_direct) ** 2)


@pytest.mark.parametrize("C", [0.3, 2.5, "auto"])
def test_the_folded_update_reproduces_the_rule_step_by_step(C):
    X, y, _, _ = separable(2)
    clf = Perceptron(C=C, epochs=500, random_state=2, record="updates").fit(X, y)
    W, theta = clf.trace_.hypotheses()
    root_C = np.sqrt(clf.C_)
    V = np.c_[W, theta / root_C]  # v_k = (w_k, θ_k/√C) after k updates
    rows = clf.trace_.rows
    assert len(rows) == clf.n_updates_ > 5
    Z = np.c_[X[rows], np.full(len(rows), -root_C)]
    yk = y[rows]
    # the folded score is the rule's score, and every update was made on a mistake
    assert np.allclose((V[:-1] * Z).sum(axis=1), (W[:-1] * X[rows]).sum(axis=1) - theta[:-1])
    assert np.all(yk * (V[:-1] * Z).sum(axis=1) <= 0)
    # v_{k+1} = v_k + η y z, update after update
    assert np.allclose(V[1:], V[:-1] + clf.eta * yk[:, None] * Z)
    assert np.allclose(V[0], np.r_[np.zeros(X.shape[1]), clf.theta_init_ / root_C])
    # and the old fold (x, -C), (w, θ/C) does not follow the rule when C != 1
    old_V = np.c_[W, theta / clf.C_]
    old_Z = np.c_[X[rows], np.full(len(rows), -clf.C_)]
    assert not np.allclose(old_V[1:], old_V[:-1] + clf.eta * yk[:, None] * old_Z)


def test_c_zero_is_refused_with_a_message():
    X, y, w_star, theta_star = separable(0)
    with pytest.raises(ValueError, match="C > 0"):
        novikoff_bound(X, y, w_star, theta_star, 0.1, 0.0, 1.0)


def test_the_docstring_example_runs():
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    for test in doctest.DocTestFinder().find(novikoff_bound):
        runner.run(test)
    assert runner.tries > 0 and runner.failures == 0
