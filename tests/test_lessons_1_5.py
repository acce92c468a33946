"""Lessons 1–5: the check questions answer, and the numbers shown come from the code.

Each number test changes a lesson control (mostly its seed) and checks the
number the page shows against a direct computation with ``perceptron_core``,
so a typed-in or stale figure fails.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest

from perceptron_core import KWPerceptron, MarginPerceptron, Perceptron
from perceptron_core.datasets import make_separable
from perceptron_lab.app_logic.datasource import DataRequest, make_dataset
from perceptron_lab.lessons._basics import noisy_line
from tests.lessons import assert_page_ok, metrics, percent, run_lesson
from tests.player_args import panel_items, panel_value, player_args, shown

LESSON_DIR = Path(__file__).resolve().parents[1] / "lessons"
#: lesson file stem -> (session prefix, index of the right answer of its check question)
CHECKS = {
    "01_the_perceptron_rule": ("l01_", 0),
    "02_convergence": ("l02_", 1),
    "03_when_data_are_not_separable": ("l03_", 1),
    "04_from_online_to_batch": ("l04_", 0),
    "05_margins": ("l05_", 1),
}


@pytest.mark.parametrize("stem", sorted(CHECKS))
def test_check_question_gives_feedback_for_right_and_wrong(stem):
    prefix, answer = CHECKS[stem]
    at = run_lesson(stem)
    radio = at.radio(key=f"{prefix}check")
    assert radio.value is None and not at.success  # no feedback before a pick
    radio.set_value(radio.options[answer]).run()
    assert not at.exception
    assert any(s.value.startswith("Right.") for s in at.success)
    assert not at.error
    wrong = next(i for i in range(len(radio.options)) if i != answer)
    at.radio(key=f"{prefix}check").set_value(radio.options[wrong]).run()
    assert any(e.value.startswith("Not quite.") for e in at.error)
    assert not at.success


def test_lesson_1_counts_the_updates_of_the_run_it_draws():
    at = run_lesson("01_the_perceptron_rule")
    seen = {}
    for seed in (0, 2):
        at.number_input(key="l01_seed").set_value(seed).run()
        assert_page_ok(at)
        data = make_dataset(
            DataRequest("separable", (("margin", 0.15), ("n_samples", 20)), seed=seed)
        )
        direct = Perceptron(eta=0.5, epochs=20, random_state=seed).fit(data.X, data.y)
        seen[seed] = metrics(at)["Updates made"]
        assert seen[seed] == str(direct.n_updates_)
        assert float(metrics(at)["Largest |change − η(‖x‖²+C)|"]) < 1e-9  # rounding only
    assert seen[0] != seen[2]


def test_lesson_1_update_box_shows_the_score_change_of_the_rule():
    at = run_lesson("01_the_perceptron_rule")
    args = player_args(at, "l01_player")
    t = args["options"]["initial_t"]  # the lesson opens on the first update
    change = panel_value(args, "change", t)
    rule_label = next(label for label in panel_items(args) if label.startswith("η(‖x‖² + C)"))
    eta, c = map(float, re.findall(r"= (-?\d+(?:\.\d+)?)", rule_label))
    assert eta == 0.5  # the lesson's default
    # the change read off the run must equal the rule's prediction η(b + c), b = ‖x‖²
    assert change == pytest.approx(
        eta * (panel_value(args, "‖x‖²", t) + c), rel=1e-3
    )  # C: 4 digits
    assert change == pytest.approx(panel_value(args, rule_label, t), rel=1e-12)
    # between updates the box has no numbers
    assert np.isnan(panel_value(args, "change", t + 1)) or panel_value(args, "change", t + 1) > 0


def test_lesson_2_sweep_is_computed_from_the_seed():
    at = run_lesson("02_convergence")
    table = at.dataframe[0].value
    row = table[table["gap of the generator"] == 0.1].iloc[0]
    updates = []
    for i in range(8):  # the lesson's sweep: seeds seed * 1000 + i, 300 points
        X, y, _, _ = make_separable(300, 0.1, random_state=i)
        updates.append(Perceptron(epochs=5000, random_state=i).fit(X, y).n_updates_)
    assert row["updates (mean)"] == pytest.approx(np.mean(updates), abs=0.05)  # 1 decimal
    assert row["updates (most)"] == max(updates)
    assert (table["largest updates ÷ bound"] <= 1).all()
    at.number_input(key="l02_seed").set_value(1).run()
    assert_page_ok(at)
    assert not at.dataframe[0].value.equals(table)


def test_lesson_2_bound_box_says_the_whole_number_of_the_bound_bar():
    """The box beside lesson 2's figure and the bar above it both state Novikoff's bound as a
    whole number of updates, the same one (they once read 180 and 179 on the opening view)."""
    at = run_lesson("02_convergence")
    for seed in (0, 3):
        if seed:
            at.number_input(key="l02_seed").set_value(seed).run()
            assert_page_ok(at)
        args = player_args(at, "l02_player")
        bound = args["texts"]["novikoff_bound"]
        (line,) = [text for text in panel_items(args) if text.startswith("R = ")]
        assert f"at most {math.floor(bound):,} updates" in line, (seed, bound, line)


def test_lesson_2_bound_box_names_the_theta_init_start_and_gives_r_over_gamma_squared():
    """The box's bound is for the run's start θ_init (179 on the opening view, R = 1.6,
    γ = 0.136); it is named so, and (R/γ)² for a start at θ = 0 (138) stands beside it."""
    at = run_lesson("02_convergence")
    args = player_args(at, "l02_player")
    items = panel_items(args)
    panels = args["meta"]["lanes"][0]["extras"]
    assert any("from this run's start θ_init" in str(panel) for panel in panels), panels
    (line,) = [text for text in items if text.startswith("R = ")]
    assert line.startswith("R = 1.6, γ = 0.136: at most 179 updates from θ_init = ")
    assert line.endswith("(from θ = 0, (R/γ)² allows 138)")


def test_lesson_3_last_hypothesis_follows_the_stopping_epoch():
    at = run_lesson("03_when_data_are_not_separable")
    seed = at.number_input(key="l03_seed").value
    data = make_dataset(noisy_line(seed, 0.1))
    shown = {}
    for epochs in (30, 32):
        at.slider(key="l03_epochs").set_value(epochs).run()
        assert_page_ok(at)
        direct = Perceptron(epochs=epochs, random_state=seed).fit(data.X, data.y)
        shown_metrics = metrics(at)
        shown[epochs] = shown_metrics["Test accuracy of the last hypothesis"]
        assert percent(shown[epochs]) == pytest.approx(
            direct.score(data.X_test, data.y_test), abs=5e-4
        )
        assert shown_metrics["Updates in the last epoch"] == str(direct.updates_per_epoch_[-1])
        assert direct.updates_per_epoch_[-1] > 0  # not separable: it never stops
    assert shown[30] != shown[32]  # the default seed shows the point: stopping is a lottery


def test_lesson_4_final_accuracies_come_from_predict_all():
    at = run_lesson("04_from_online_to_batch")
    research = at.dataframe[-1].value
    for seed in (4, 2):
        at.number_input(key="l04_seed").set_value(seed).run()
        assert_page_ok(at)
        data = make_dataset(noisy_line(seed, 0.15))
        direct = KWPerceptron(epochs=20, random_state=seed, record="updates").fit(data.X, data.y)
        caption = next(
            label for label in panel_items(player_args(at, "l04_player")) if "predict_all" in label
        )
        for mode, labels in direct.predict_all(data.X_test).items():
            assert f"{mode} {np.mean(labels == data.y_test):.1%}" in caption
    assert not at.dataframe[-1].value.equals(research)  # the research table follows the seed


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
