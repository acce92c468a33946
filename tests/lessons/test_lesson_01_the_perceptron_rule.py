"""Lesson 1's page against direct computations (how, claim by claim: helpers.py)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from perceptron_core import Perceptron
from perceptron_lab.app_logic.datasource import DataRequest, make_dataset
from perceptron_lab.app_logic.math_panel import CORRECT_NO_BAND, WHY
from perceptron_lab.app_logic.playback_args import texts
from perceptron_lab.app_logic.timeline import CORRECT
from perceptron_lab.lessons._questions import numeric_options
from tests.lessons.helpers import _fit
from tests.pages import (
    TEN_SEEDS,
    assert_page_ok,
    lesson_module,
    metrics,
    page_run,
    run_lesson,
)
from tests.player_args import panel_items, panel_value, player_args

LESSON_1 = lesson_module("01_the_perceptron_rule")


def test_lesson_1_try_this_2_a_smaller_eta_needs_more_updates():
    """Try this 2: "Change the **learning rate η** from 0.5 to 0.1. ... Press **End**: the step
    counter above the figure (*updates so far*) shows that this run needs more updates."

    Measured on seeds 0-9: 2-7 updates at η = 0.5, 7-12 at η = 0.1 (seed 0, the opening one:
    4 and 12).
    """
    for seed in TEN_SEEDS:
        data = make_dataset(
            DataRequest("separable", (("margin", 0.15), ("n_samples", 20)), seed=seed)
        )
        updates = {
            eta: _fit("perceptron", {"eta": eta}, LESSON_1.EPOCHS, seed, data).n_updates_
            for eta in (0.5, 0.1)
        }
        assert updates[0.1] > updates[0.5], (seed, updates)


def test_lesson_1_try_this_3_some_seeds_need_two_updates_others_three_times_as_many():
    """Try this 3: "Set the **learning rate η** back to 0.5 and change the **data seed**.
    ... press **End** and compare the number of updates with the previous seed. Some sets
    need only two updates, others three times as many or more."

    Criterion: at η = 0.5, the fewest updates over seeds 0-9 is at most 2, and at least two
    other seeds need 3 times that many or more. Measured: 2-7 updates (2 on seeds 4, 5 and
    6; 6 on seed 2, 7 on seed 8). At η = 0.1, where try this 2 leaves the slider, every seed
    needs 7-12: hence "η back to 0.5".
    """
    updates = []
    for seed in TEN_SEEDS:
        data = make_dataset(
            DataRequest("separable", (("margin", 0.15), ("n_samples", 20)), seed=seed)
        )
        updates.append(_fit("perceptron", {"eta": 0.5}, LESSON_1.EPOCHS, seed, data).n_updates_)
    fewest = min(updates)
    assert fewest <= 2, updates
    assert sum(count >= 3 * fewest for count in updates) >= 2, updates


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


def _lesson_1_data(seed: int):
    return make_dataset(DataRequest("separable", (("margin", 0.15), ("n_samples", 20)), seed=seed))


@pytest.mark.parametrize("eta", [0.1, 0.5, 2.0])
def test_lesson_1_forms_table_is_the_direct_runs_and_shows_what_eta_does(eta):
    differs = 0
    for seed in range(10):
        data = _lesson_1_data(seed)
        table = LESSON_1.eta_forms(data.X, data.y, eta, seed).set_index("form")["updates"]
        C = float(np.mean((data.X**2).sum(axis=1)))

        def updates(rate, start, step, seed=seed, data=data):
            est = Perceptron(eta=rate, theta_init=start, C=step, epochs=20, random_state=seed)
            return est.fit(data.X, data.y).n_updates_

        assert table["textbook: θ starts at 0, η = 1, C = 1"] == updates(1.0, 0.0, 1.0)
        # started at 0, η changes nothing (Khardon & Wachman 2007, §2.1)
        assert table[f"θ starts at 0, η = {eta:g}"] == table["θ starts at 0, η = 1"]
        assert table["θ starts at 0, η = 1"] == updates(1.0, 0.0, C)
        figure = table[f"θ_init = C, η = {eta:g} (the figure)"]
        assert (
            figure
            == Perceptron(eta=eta, epochs=20, random_state=seed).fit(data.X, data.y).n_updates_
        )
        # one degree of freedom: η and θ_init divided by the same number, the same run
        assert table[f"θ_init = C / {eta:g}, η = 1 (both divided by {eta:g})"] == figure
        differs += figure != table["θ_init = C, η = 1"]
    assert differs >= 3  # with θ_init = C, η matters on most of these seeds


def test_lesson_1_page_shows_the_forms_of_its_seed_and_eta():
    at = run_lesson("01_the_perceptron_rule")
    for seed, eta in ((0, 0.5), (3, 0.1)):
        at.number_input(key="l01_seed").set_value(seed).run()
        at.select_slider(key="l01_eta").set_value(eta).run()
        assert_page_ok(at)
        shown = at.dataframe[0].value
        data = _lesson_1_data(seed)
        direct = LESSON_1.eta_forms(data.X, data.y, eta, seed)
        assert shown["updates"].tolist() == direct["updates"].tolist()
        assert shown["form"].tolist() == direct["form"].tolist()


@pytest.mark.parametrize("seed", [0, 2, 5])
def test_lesson_1_computation_question_is_the_textbook_change_not_the_panels(seed):
    """The question asks for the textbook form's change ‖x‖² + 1 of the example the figure
    opens on; the figure's own change, in the box under the panel, is a wrong option."""
    at = run_lesson("01_the_perceptron_rule")
    at.number_input(key="l01_seed").set_value(seed).run()
    assert_page_ok(at)
    args = player_args(at, "l01_player")
    t = args["options"]["initial_t"]
    change = panel_value(args, "change", t)
    radio = at.radio(key="l01_calc_check")
    data = _lesson_1_data(seed)
    run = page_run("perceptron", {"eta": 0.5}, 20, seed, data)
    candidates = LESSON_1.change_candidates(LESSON_1.first_update(run, data))
    options, right, _ = numeric_options(candidates, "right", ".3f", seed, "l01_calc_")
    assert list(radio.options) == options
    x = data.X[int(run.timeline.index[t - 1])]
    assert float(options[right]) == pytest.approx(x @ x + 1, abs=5e-4)  # 3 decimals
    assert change == pytest.approx(0.5 * (x @ x + run.estimator.C_))
    assert any(float(o) == pytest.approx(change, abs=5e-4) for o in options)  # the distractor
    assert float(options[right]) != pytest.approx(change, abs=5e-4)
    radio.set_value(options[right]).run()
    assert any(s.value.startswith("Right.") for s in at.success)
    wrong = (right + 1) % len(options)
    at.radio(key="l01_calc_check").set_value(options[wrong]).run()
    assert any(e.value.startswith("Not quite.") for e in at.error)


def test_the_panel_names_no_margin_band_for_the_classic_perceptron():
    data = _lesson_1_data(0)

    def words(key, **values):
        run = page_run(key, values, 5, 0, data)
        return texts(run, data)["why"][str(CORRECT)]

    assert words("perceptron") == CORRECT_NO_BAND and "margin" not in CORRECT_NO_BAND
    assert words("margin", tau=0.5) == WHY[CORRECT]


@pytest.mark.browser
def test_the_classic_perceptrons_panel_tests_against_0_without_a_zero_margin_term():
    from perceptron_lab.app_logic.payload import build_payload
    from perceptron_lab.app_logic.timeline import MISTAKE
    from tests.chromium import MATH_JS, payload_arg, playback_page

    data = _lesson_1_data(0)
    run = page_run("perceptron", {"eta": 0.5}, 20, 0, data)
    kinds = run.timeline.kind[0]
    times = [int(np.flatnonzero(kinds == kind)[0]) + 1 for kind in (MISTAKE, CORRECT)]
    with playback_page(plotly=True) as page:
        mistake, correct = page.evaluate(
            MATH_JS,
            {
                "payload": payload_arg(build_payload(data, [run])),
                "texts": texts(run, data),
                "times": times,
            },
        )
    assert "≤ 0" in mistake and "> 0" in correct
    for text in (mistake, correct):
        assert "τθ" not in text and "margin band" not in text
