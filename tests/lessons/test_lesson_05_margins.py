"""Lesson 5's page against direct computations (how, claim by claim: helpers.py)."""

from __future__ import annotations

import numpy as np
import pytest

from perceptron_core import MarginPerceptron
from perceptron_lab.app_logic.datasource import make_dataset
from perceptron_lab.app_logic.learners import LEARNERS
from perceptron_lab.app_logic.payload.scene import axis_box
from perceptron_lab.app_logic.timeline import MARGIN
from perceptron_lab.lessons._basics import noisy_line
from tests.lessons.helpers import _page_run, _update_times
from tests.pages import (
    TEN_SEEDS,
    assert_page_ok,
    lesson_module,
    run_lesson,
)
from tests.player_args import panel_value, player_args, shown

LESSON_5 = lesson_module("05_margins")


def test_lesson_5_try_this_1_without_a_margin_w_is_shorter_and_the_line_worse():
    """Try this 1: "note the test accuracy and ‖w‖ (the denominator) in the box, then set
    **τ** to 0 and press **End**: without a margin w ends many times shorter, and for most
    seeds the test accuracy of the last line drops."

    Measured on seeds 0-9: ‖w‖ at τ = 0.5 is 5.7-25.5 times that at τ = 0; the test accuracy
    drops on all 10 (on 44 of seeds 0-49, equal on 3).
    """
    learner = LEARNERS["margin"]
    drops = 0
    for seed in TEN_SEEDS:
        data = make_dataset(noisy_line(seed, LESSON_5.NOISE))
        fits = {
            tau: learner.make({**learner.defaults(), "tau": tau}, 20, seed).fit(data.X, data.y)
            for tau in (0.5, 0.0)
        }
        norm = {tau: np.linalg.norm(est.coef_) for tau, est in fits.items()}
        assert norm[0.5] > 3 * norm[0.0], (seed, norm)  # "many times shorter"
        drops += fits[0.0].score(data.X_test, data.y_test) < fits[0.5].score(
            data.X_test, data.y_test
        )
    assert drops > len(TEN_SEEDS) // 2, drops  # "for most seeds ... drops"


def _lesson_5_run(seed: int, learner_key: str, values: dict):
    return _page_run(learner_key, tuple(values.items()), 20, noisy_line(seed, LESSON_5.NOISE))


def _band_at(run, t: int) -> float:
    """The band's half-width in distance units at time ``t`` (the box's first number)."""
    return run.learner.band(run.estimator)[1] / np.linalg.norm(run.timeline.hypothesis(t)[0])


def test_lesson_5_try_this_2_at_tau_2_updates_on_right_points_and_the_band_comes_into_view():
    """Try this 2: "Set **τ** to 2, press **Start**, then **Next update** a few times: many
    updates are now on points that were already right (*inside the band*), and the band
    narrows as ‖w‖ grows, from wider than the view at the first update to inside it before
    the first epoch ends."

    Criterion, on every seed: at least a third of the first 10 updates are margin updates,
    and more of them than at τ = 0.5 ("now"); the band's half-width after the first update
    is larger than the view's (the figure's box) half-width and half-height, at the end of
    the first epoch smaller than both, with ‖w‖ longer. Measured on seeds 0-9: 10 of the
    first 10 updates are margin updates (4-7 at τ = 0.5); the half-width is 13.3-41.2 after
    the first update and 0.58-0.86 after the first epoch, against a view of half-size
    1.09-1.16.
    """
    for seed in TEN_SEEDS:
        runs = {tau: _lesson_5_run(seed, "margin", {"tau": tau})[0] for tau in (2.0, 0.5)}
        margin_updates = {
            tau: int((run.timeline.kind[0][_update_times(run.timeline)[:10] - 1] == MARGIN).sum())
            for tau, run in runs.items()
        }
        assert margin_updates[2.0] >= 10 / 3, (seed, margin_updates)
        assert margin_updates[2.0] > margin_updates[0.5], (seed, margin_updates)
        run, data = _lesson_5_run(seed, "margin", {"tau": 2.0})
        x0, x1, y0, y1 = axis_box(data.X, data.X_test)
        view = sorted(((x1 - x0) / 2, (y1 - y0) / 2))
        tl = run.timeline
        first, epoch_end = tl.next_update(0), tl.end_of_epoch(0)
        assert _band_at(run, first) > view[1], (seed, _band_at(run, first), view)
        assert _band_at(run, epoch_end) < view[0], (seed, _band_at(run, epoch_end), view)


def test_lesson_5_try_this_3_the_thick_separators_band_starts_wide_and_narrows_quickly():
    """Try this 3: "Switch the **learner** to the thick separator, press **Start**, then
    **Next update** a few times: γ is an absolute score, so while w is short the band is
    wide in distance, and it narrows quickly as w grows."

    Criterion, on every seed (γ = 1, the slider's default): after the first update the
    band's half-width γ/‖w‖ is at least three quarters of the view's half-width (the band
    spans at least 3/4 of the figure's width: "wide"); after the 10th update it is at most
    half of that ("quickly"). Measured on seeds 0-9: 0.96-3.18 after the first update
    (view half-width 1.11-1.16), 0.10-0.38 times that after the 10th.
    """
    for seed in TEN_SEEDS:
        run, data = _lesson_5_run(seed, "thick", {"gamma": 1.0})
        x0, x1, _, _ = axis_box(data.X, data.X_test)
        times = _update_times(run.timeline)
        first, tenth = _band_at(run, times[0]), _band_at(run, times[9])
        assert first >= 0.75 * (x1 - x0) / 2, (seed, first, (x1 - x0) / 2)
        assert tenth <= first / 2, (seed, first, tenth)


def test_lesson_5_box_shows_the_trained_lines_test_accuracy():
    at = run_lesson("05_margins")
    research = at.dataframe[0].value
    assert list(research["margin τ"].unique()) == [0.0, 0.125, 0.5, 1.0]
    for seed in (0, 3):
        at.number_input(key="l05_seed").set_value(seed).run()
        assert_page_ok(at)
        args = player_args(at, "l05_player")
        end = args["meta"]["lanes"][0]["n_events"]
        assert args["options"]["initial_t"] == end  # the lesson opens at the end of training
        data = make_dataset(noisy_line(seed, 0.1))
        direct = MarginPerceptron(tau=0.5, epochs=20, random_state=seed).fit(data.X, data.y)
        accuracy = panel_value(args, "test accuracy of this line", end)
        assert shown(accuracy, ".1%") == f"{direct.score(data.X_test, data.y_test):.1%}"
        w = direct.coef_[0]
        width = panel_value(args, f"half-width = {0.5 * direct.theta_init_:.3g} / ‖w‖", end)
        assert width == pytest.approx(0.5 * direct.theta_init_ / np.linalg.norm(w))
    assert not at.dataframe[0].value.equals(research)
