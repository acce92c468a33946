"""The playground's computations, checked against the core and against direct formulas."""

from __future__ import annotations

import numpy as np
import pytest

from perceptron_core import KWPerceptron, Perceptron
from perceptron_core.datasets import make_gaussians, make_separable
from ui.datasource import DataRequest, make_dataset
from ui.diagnostics import novikoff_bound
from ui.figures import Show, line_segment, plane_figure
from ui.learners import LEARNERS
from ui.state import _format, _parse
from ui.timeline import Timeline


@pytest.fixture(scope="module")
def noisy():
    X, y, _, _ = make_gaussians(150, separation=1.5, noise=0.1, random_state=3)
    return X, y


@pytest.mark.parametrize(
    "params", [{}, {"tau": 0.5}, {"lam": 0.5}, {"alpha_bound": 2, "tau": 0.25}]
)
def test_timeline_at_the_end_predicts_like_the_core(noisy, params):
    X, y = noisy
    clf = KWPerceptron(epochs=15, random_state=0, record="all", **params).fit(X, y)
    tl = Timeline.from_trace(clf.trace_, len(X))
    end = tl.n_events
    assert np.array_equal(tl.votes(end), clf.votes_)
    for mode, labels in clf.predict_all(X).items():
        mine = np.where(tl.scores(X, end, mode) > 0, 1, -1)
        assert np.array_equal(mine, labels), mode
    assert tl.update_counts(end).sum() == clf.n_updates_


def test_timeline_hypothesis_follows_the_updates(noisy):
    X, y = noisy
    clf = Perceptron(epochs=3, random_state=0, record="all").fit(X, y)
    tl = Timeline.from_trace(clf.trace_, len(X))
    t = tl.next_update(0)
    i = t - 1
    j = tl.index[i]
    w_old, th_old = tl.previous_hypothesis(t)
    w_new, th_new = tl.hypothesis(t)
    assert np.allclose(w_new, w_old + clf.eta * y[j] * X[j])
    assert np.isclose(th_new, th_old - clf.eta * y[j] * clf.C_)
    assert tl.end_of_epoch(0) == len(X) and tl.end_of_epoch(len(X)) == 2 * len(X)


def test_voted_grid_matches_the_direct_sum(noisy):
    X, y = noisy
    clf = KWPerceptron(epochs=10, random_state=1, record="all").fit(X, y)
    tl = Timeline.from_trace(clf.trace_, len(X))
    xs, ys = np.linspace(-4, 4, 37), np.linspace(-3, 3, 29)
    grid = np.dstack(np.meshgrid(xs, ys)).reshape(-1, 2)
    for t in (0, 40, tl.n_events // 2, tl.n_events):
        direct = tl.scores(grid, t, "voted").reshape(len(ys), len(xs))
        assert np.allclose(tl.voted_grid(xs, ys, t), direct)


@pytest.mark.parametrize("seed", range(4))
def test_novikoff_bound_holds_and_reduces_to_r_over_gamma(seed):
    X, y, _, target = make_separable(150, margin=0.05, random_state=seed)
    clf = Perceptron(epochs=300, random_state=seed).fit(X, y)
    bound, _R, _gamma = novikoff_bound(
        X, y, target.w, target.theta, clf.eta, clf.C_, clf.theta_init_
    )
    assert clf.score(X, y) == 1.0 and 0 < clf.n_updates_ <= bound
    zero_start, R0, g0 = novikoff_bound(X, y, target.w, target.theta, 0.1, 1.0, 0.0)
    assert np.isclose(zero_start, (R0 / g0) ** 2)


def test_same_seed_same_data_and_noise_only_on_training_rows():
    req = DataRequest("gaussians", (("n_samples", 300),), "exact", 0.2, 0.25, seed=5)
    a, b = make_dataset(req), make_dataset(req)
    assert np.array_equal(a.X, b.X) and np.array_equal(a.y, b.y)
    assert a.flipped.sum() == round(0.2 * len(a.y)) and abs(len(a.X_test) - 75) <= 1  # per class
    clean = make_dataset(DataRequest("gaussians", (("n_samples", 300),), "none", 0, 0.25, 5))
    assert np.array_equal(clean.y_test, a.y_test)  # the test part is never corrupted
    assert np.array_equal(clean.y[~a.flipped], a.y[~a.flipped])
    assert (clean.y[a.flipped] != a.y[a.flipped]).all()
    other = make_dataset(DataRequest("gaussians", (("n_samples", 300),), "exact", 0.2, 0.25, 6))
    assert not np.array_equal(other.X, a.X)


def _fake_run(key, data, epochs=5):
    class Run:  # what ui.runs.train returns, without Streamlit's cache
        pass

    run = Run()
    run.learner_key, run.learner = key, LEARNERS[key]
    run.values = run.learner.defaults()
    run.estimator = run.learner.make(run.values, epochs, 0).fit(data.X, data.y)
    run.timeline = run.learner.timeline(run.estimator, len(data.X))
    return run


def test_the_figure_is_the_same_for_the_same_seed_and_marks_every_flip():
    req = DataRequest("separable", (("n_samples", 80),), "uniform", 0.15, 0.0, seed=2)
    data = make_dataset(req)
    run_a, run_b = _fake_run("perceptron", data), _fake_run("perceptron", make_dataset(req))
    t = run_a.timeline.next_update(30)
    fig_a, fig_b = plane_figure(data, run_a, t), plane_figure(data, run_b, t)
    assert fig_a.to_json() == fig_b.to_json()
    flips = [tr for tr in fig_a.data if tr.name == "label flipped by noise"]
    assert len(flips) == 1 and len(flips[0].x) == data.flipped.sum() > 0
    names = {tr.name for tr in fig_a.data}
    assert {"current example", "boundary (last)"} <= names
    assert len(fig_a.layout.annotations) >= 1  # the w arrow
    assert plane_figure(data, run_a, t, Show(flips=False)).to_json() != fig_a.to_json()


def test_line_segment_is_clipped_to_the_box():
    seg = line_segment(np.array([1.0, 1.0]), 0.0, (-1, 1, -1, 1))
    assert np.allclose(sorted(seg[:, 0]), [-1, 1]) and np.allclose(seg.sum(axis=1), 0)
    assert line_segment(np.array([1.0, 0.0]), 5.0, (-1, 1, -1, 1)) is None


@pytest.mark.parametrize("value", [True, 3, 0.125, "voted", ["voted", "pa"]])
def test_url_values_round_trip(value):
    assert _parse(_format(value), value) == value
    with pytest.raises(ValueError):
        _parse("not-a-value", 1.0)
    with pytest.raises(ValueError):  # a list is checked against the options and its cap
        _parse("voted,nonsense", [], options=["voted", "pa"])
