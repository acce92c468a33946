"""Lessons 1–6: the theory the lecturer's review asked for, against direct computations.

Lesson 1's forms of the rule (textbook start at 0 against Khardon & Wachman's θ_init = C, and
what η then does), its computation question, and the math panel's test without zero terms;
each live number the pages show is recomputed here with ``perceptron_core``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from perceptron_core import Perceptron
from perceptron_lab.app_logic.datasource import DataRequest, make_dataset
from perceptron_lab.app_logic.math_panel import CORRECT_NO_BAND, WHY
from perceptron_lab.app_logic.playback_args import texts
from perceptron_lab.app_logic.timeline import CORRECT
from perceptron_lab.lessons._questions import numeric_options
from tests.lessons import assert_page_ok, lesson_module, page_run, run_lesson
from tests.player_args import panel_value, player_args

ROOT = Path(__file__).resolve().parents[1]
LESSON_DIR = ROOT / "lessons"


def _lesson_1_data(seed: int):
    return make_dataset(DataRequest("separable", (("margin", 0.15), ("n_samples", 20)), seed=seed))


LESSON_1 = lesson_module("01_the_perceptron_rule")


# --- lesson 1: the textbook form, Khardon & Wachman's form, and what η does ---------------


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


# --- lesson 4: the mistake bound behind the voted perceptron, and its guarantee -------------


def _lesson_4_shown(at) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def test_lesson_4_guarantee_numbers_are_the_formula_on_the_figures_data():
    from perceptron_lab.lessons._basics import noisy_line
    from perceptron_lab.lessons._bounds import deviations, noisy_mistake_bound

    at = run_lesson("04_from_online_to_batch")
    for seed, noise in ((4, 0.15), (1, 0.0), (7, 0.3)):
        at.number_input(key="l04_seed").set_value(seed).run()
        at.select_slider(key="l04_noise").set_value(noise).run()
        assert_page_ok(at)
        shown = _lesson_4_shown(at)
        data = make_dataset(noisy_line(seed, noise))
        C = float(np.mean((data.X**2).sum(axis=1)))
        R, D, gamma = map(float, shown["R, D, γ"].split(", "))
        # the formula, by hand, from the deviations of the shown γ
        xi, R_direct = deviations(data.X, data.y, data.w_star, data.theta_star, C, gamma)
        assert R == pytest.approx(R_direct, abs=5e-4)
        # γ is shown to 3 decimals; each of the m deviations moves with it
        assert D == pytest.approx(np.sqrt((xi**2).sum()), abs=np.sqrt(len(xi)) * 5e-4 + 5e-4)
        direct = noisy_mistake_bound(data.X, data.y, data.w_star, data.theta_star, C)
        assert shown["Mistake bound ((R+D)/γ)²"] == f"{direct[0]:.1f}"
        bound = float(shown["Mistake bound ((R+D)/γ)²"])
        # Freund & Schapire's Theorem 2 with the threshold folded in: no factor 2 inside
        assert bound == pytest.approx(((R + D) / gamma) ** 2, rel=1e-2)
        m = len(data.y)
        assert float(shown[f"2/(m+1) × bound, m = {m} (an illustration)"]) == pytest.approx(
            2 * bound / (m + 1), abs=0.01
        )
        mistakes = (
            Perceptron(theta_init=0.0, C=C, epochs=1, random_state=seed)
            .fit(data.X, data.y)
            .n_updates_
        )
        assert shown["Mistakes, one pass from 0"] == str(mistakes)
        assert mistakes <= bound


# --- lesson 6: Li et al.'s Theorem 2.1 for PAM and PAUM on separable data -------------------

LESSON_6 = lesson_module("06_rare_positives")


def _separable(seed):
    return make_dataset(LESSON_6.separable_request(seed))


def test_li_et_al_formulas_against_a_direct_computation():
    from perceptron_lab.lessons._bounds import class_margins, paum_guarantee

    data = _separable(3)
    R2 = float((data.X**2).sum(axis=1).max())
    tau_neg, tau_pos, eta = 0.1 * R2, 2.0 * R2, 0.5
    g = paum_guarantee(data.X, data.y, data.w_star, -data.theta_star, tau_neg, tau_pos, eta)
    w = data.w_star / np.linalg.norm(data.w_star)
    b = -data.theta_star / np.linalg.norm(data.w_star)
    neg = min(-(x @ w + b) for x, y in zip(data.X, data.y) if y < 0)
    pos = min(x @ w + b for x, y in zip(data.X, data.y) if y > 0)
    assert (g["margin_neg_opt"], g["margin_pos_opt"]) == pytest.approx((neg, pos))
    assert class_margins(data.X, data.y, 3 * w, 3 * b) == pytest.approx((neg, pos))
    R, gamma = np.sqrt(R2), min(neg, pos)
    assert g["R"] == pytest.approx(R) and g["gamma"] == pytest.approx(gamma)
    assert g["updates"] == pytest.approx(4 * (R2 / gamma**2 + tau_pos / (eta * gamma**2)))
    psi = (eta * R2 + tau_pos) / (eta * R2 + tau_neg)
    assert g["psi"] == pytest.approx(psi)
    # Γ₊₁ = ψΓ₋₁ and both within what the reference keeps
    assert g["Gamma_pos"] == pytest.approx(psi * g["Gamma_neg"])
    assert g["Gamma_neg"] <= neg + 1e-12 and g["Gamma_pos"] <= pos + 1e-12
    assert g["Gamma_neg"] == pytest.approx(neg) or g["Gamma_pos"] == pytest.approx(pos)
    for j, tau in (("neg", tau_neg), ("pos", tau_pos)):
        big = g[f"Gamma_{j}"]
        assert g[f"margin_{j}"] == pytest.approx(big * tau / (np.sqrt(8) * (eta * R2 + tau)))
    with pytest.raises(ValueError, match="margins >= 0"):
        paum_guarantee(data.X, data.y, data.w_star, -data.theta_star, -1.0, 1.0, 1.0)
    with pytest.raises(ValueError, match="does not separate"):
        paum_guarantee(data.X, -data.y, data.w_star, -data.theta_star, 1.0, 1.0, 1.0)


@pytest.mark.parametrize("tau_pos", LESSON_6.TAU_POS)
def test_lesson_6_live_runs_keep_li_et_als_guarantee_on_the_seeds_offered(tau_pos):
    for seed in range(30):
        data = _separable(seed)
        for tau_neg in LESSON_6.TAU_NEG:
            rows, _ = LESSON_6.guarantee_rows(
                data.X, data.y, data.w_star, data.theta_star, seed, tau_neg, tau_pos
            )
            assert len(rows) == (2 if tau_neg >= 0 and tau_neg != tau_pos else 1)
            assert rows["stopped"].all()
            assert (rows["updates"] <= rows["bound (2.4)"]).all()
            assert (rows["γ₋₁ of the line"] > rows["guaranteed γ₋₁ >"]).all()
            assert (rows["γ₊₁ of the line"] > rows["guaranteed γ₊₁ >"]).all()


def test_lesson_6_page_shows_the_guarantee_of_its_seed_and_margins():
    from perceptron_core import PAUMPerceptron

    at = run_lesson("06_rare_positives")
    for seed in (0, 5):
        at.number_input(key="l06_seed").set_value(seed).run()
        assert_page_ok(at)
        table = next(d.value for d in at.dataframe if "bound (2.4)" in d.value.columns)
        table = table.data if hasattr(table, "data") else table
        assert table["learner"].tolist() == ["PAM(1, 1)", "PAUM(0, 1)"]  # the lesson's τ
        data = _separable(seed)
        R2 = float((data.X**2).sum(axis=1).max())
        direct = PAUMPerceptron(
            tau_neg=0.0, tau_pos=R2, eta=1.0, max_epochs=100_000, random_state=seed
        ).fit(data.X, data.y)
        assert table["updates"].iloc[1] == direct.n_updates_


# --- the computation questions of lessons 2-6 against the live computation ------------------


def _lesson_2_answer(seed):
    from perceptron_lab.app_logic.diagnostics import novikoff_bound

    data = make_dataset(DataRequest("separable", (("margin", 0.1), ("n_samples", 60)), seed=seed))
    C = float(np.mean((data.X**2).sum(axis=1)))
    _, R, gamma = novikoff_bound(data.X, data.y, data.w_star, data.theta_star, 1.0, C, 0.0)
    return f"{(R / gamma) ** 2:,.0f}"


def _lesson_3_answer(seed):
    from perceptron_lab.lessons._basics import noisy_line
    from perceptron_lab.lessons._bounds import noisy_mistake_bound

    data = make_dataset(noisy_line(seed, 0.1))
    C = float(np.mean((data.X**2).sum(axis=1)))
    _, gamma, D, R = noisy_mistake_bound(data.X, data.y, data.w_star, data.theta_star, C)
    return f"{(R / gamma) ** 2:,.1f}"  # the bound with D = 0: lesson 2's (R/γ)²


def _lesson_4_answer(seed):
    from perceptron_lab.lessons._basics import noisy_line

    data = make_dataset(noisy_line(seed, 0.15))
    C = float(np.mean((data.X**2).sum(axis=1)))
    # clean labels: every point of the square within √(2 + C), at least 0.05 from the line
    u = np.r_[data.w_star, data.theta_star / np.sqrt(C)]
    bound = (np.sqrt(2 + C) / (0.05 / np.linalg.norm(u))) ** 2
    return f"{20 * bound - 1:,.0f}"  # the m with 2/(m + 1) × (R/γ)² = 0.1


def _lesson_5_answer(seed):
    from perceptron_core import MarginPerceptron
    from perceptron_lab.lessons._basics import noisy_line

    data = make_dataset(noisy_line(seed, 0.1))
    est = MarginPerceptron(tau=0.5, epochs=20, random_state=seed).fit(data.X, data.y)
    return f"{0.5 * est.theta_init_ / (2 * np.linalg.norm(est.coef_[0])):.3g}"  # ‖w‖ doubled


def _lesson_6_answer(seed):
    from perceptron_lab.lessons._bounds import paum_guarantee

    data = _separable(seed)
    R2 = float((data.X**2).sum(axis=1).max())
    g = paum_guarantee(data.X, data.y, data.w_star, -data.theta_star, R2, R2, 0.5)
    return f"{g['updates']:,.0f}"  # η halved


@pytest.mark.parametrize(
    "stem, prefix, answer",
    [
        ("02_convergence", "l02_", _lesson_2_answer),
        ("03_when_data_are_not_separable", "l03_", _lesson_3_answer),
        ("04_from_online_to_batch", "l04_", _lesson_4_answer),
        ("05_margins", "l05_", _lesson_5_answer),
        ("06_rare_positives", "l06_", _lesson_6_answer),
    ],
)
def test_computation_question_answer_is_the_live_computation(stem, prefix, answer):
    at = run_lesson(stem)
    for seed in (1, 3):
        at.number_input(key=f"{prefix}seed").set_value(seed).run()
        assert_page_ok(at)
        radio = at.radio(key=f"{prefix}calc_check")
        right = answer(seed)
        assert right in radio.options, (right, radio.options)
        assert len(radio.options) >= 3
        radio.set_value(right).run()
        assert any(s.value.startswith("Right.") for s in at.success)
        wrong = next(o for o in at.radio(key=f"{prefix}calc_check").options if o != right)
        at.radio(key=f"{prefix}calc_check").set_value(wrong).run()
        assert any(e.value.startswith("Not quite.") for e in at.error)
        at.radio(key=f"{prefix}calc_check").set_value(None).run()


# --- the KW data's controls: no count called "N" (KW's N is the noise rate) ------------------


def _data_panel_script():
    from perceptron_lab.ui.data_panel import data_panel

    data_panel("t_")


def test_kw_data_controls_use_khardon_wachmans_letters_and_no_count_is_called_n():
    at = AppTest.from_function(_data_panel_script, default_timeout=120)
    at.run()
    assert_page_ok(at)
    at.selectbox(key="t_data").set_value("kw").run()
    at.selectbox(key="t_noise").set_value(
        next(o for o in at.selectbox(key="t_noise").options if o != "none")
    ).run()
    assert_page_ok(at)
    labels = [s.label for s in at.slider]
    assert {"Features (f)", "Margin (M)", "Examples", "Noise rate (N)"} <= set(labels), labels
    assert not any(label.startswith("N ") for label in labels), labels
    at.selectbox(key="t_data").set_value("gaussians").run()
    labels = [s.label for s in at.slider]
    assert "Examples" in labels and "Noise rate" in labels
    assert not any(label.startswith("N ") or "(N)" in label for label in labels), labels
