"""Lesson 6's page against direct computations (how, claim by claim: helpers.py)."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from perceptron_core.rules.paum import PAUMPerceptron
from perceptron_lab.app_logic.datasource import make_dataset
from perceptron_lab.app_logic.learners import LEARNERS
from tests.lessons.helpers import _at_end, _box, _seed, _separable, _text
from tests.pages import (
    assert_page_ok,
    lesson_literal,
    lesson_module,
    opening_then_ten_seeds,
    page_run,
    percent,
    run_lesson,
)

SEEDS = range(30)


LESSON_6 = lesson_module("06_rare_positives")


def paum_end(seed: int, rate: float, tau_neg: float, tau_pos: float = 1.0):
    """Lesson 6's figure at the end: (converged, predicted positive, recall, precision)."""
    data = make_dataset(LESSON_6.rare_request(seed, rate))
    r2 = float(np.max(np.sum(data.X**2, axis=1)))
    settings = {"tau_pos": tau_pos * r2, "tau_neg": tau_neg * r2, "eta": 1.0, "lam": 0.0}
    est = LEARNERS["paum"].make(settings, 20, seed).fit(data.X, data.y)
    above = data.X_test @ est.coef_.ravel() + est.intercept_.ravel()[0] > 0
    hits = (above & (data.y_test > 0)).sum()
    precision = hits / above.sum() if above.any() else np.nan
    return est.converged_, int(above.sum()), hits / (data.y_test > 0).sum(), precision


@pytest.mark.parametrize("ratio", ["1 : 10", "1 : 20", "1 : 40"])
def test_lesson_6_tau_neg_moves_the_line_either_way_because_paum_never_converges(ratio):
    rate = LESSON_6.RATIOS[ratio]
    even = [paum_end(seed, rate, 0.0) for seed in SEEDS]
    uneven = [paum_end(seed, rate, -0.5) for seed in SEEDS]
    # "PAUM never gets through an epoch without an update": no run converges
    assert not any(run[0] for run in even + uneven)
    # "the line moves into the negatives on some seeds and out of them on others"
    into = sum(u[1] > e[1] for e, u in zip(even, uneven))
    out_of = sum(u[1] < e[1] for e, u in zip(even, uneven))
    assert into >= 1 and out_of >= 1, (into, out_of)


def test_lesson_6_opening_data_moves_the_line_towards_the_positives():
    # "On the opening data (seed 0) it moves the other way: recall stays, precision rises."
    _, n_even, recall_even, precision_even = paum_end(0, LESSON_6.RATIOS["1 : 20"], 0.0)
    _, n_uneven, recall_uneven, precision_uneven = paum_end(0, LESSON_6.RATIOS["1 : 20"], -0.5)
    assert n_uneven < n_even
    assert recall_uneven == recall_even and precision_uneven > precision_even


def test_lesson_6_relates_its_margins_units_to_lesson_5s():
    text = _text("06_rare_positives")
    assert r"lesson 5's $\tau = t R^2/\theta_{init}$ asks" in text
    assert "Li et\nal.'s bias $b$ is the other lessons' $-\\theta$" in text


L06_EPOCHS = 20  # the page's stage(..., epochs=20)


@cache
def _lesson_6_end(seed: int, ratio: str, tau_pos: float, tau_neg: float = 0.0):
    """Lesson 6's figure at the end: (the box's numbers per hypothesis, test points with
    f(x) > 0 at the end, test positives). Margins in units of R², as the page sets them."""
    data = make_dataset(LESSON_6.rare_request(seed, LESSON_6.RATIOS[ratio]))
    R2 = float(np.max(np.sum(data.X**2, axis=1)))
    values = {"tau_pos": tau_pos * R2, "tau_neg": tau_neg * R2, "eta": 1.0, "lam": 0.0}
    run = page_run("paum", values, L06_EPOCHS, seed, data)
    W, theta = run.timeline.W[0][-1], run.timeline.theta[0][-1]
    above = int(np.sum(data.X_test @ W - theta > 0))
    return _box(LESSON_6.ranking_numbers(run, data)), above, int(np.sum(data.y_test > 0))


@pytest.mark.parametrize("seeds", opening_then_ten_seeds(0))
def test_lesson_6_try_this_1_without_the_positive_margin_the_line_moves_towards_the_positives(
    seeds,
):
    """Try this 1: "The figure opens at the end of training with τ₊₁ = 1. Note recall and
    precision, then set **τ₊₁** to 0 (the classic perceptron with a bias) and press **End**:
    on most seeds, the opening one among them, the line moves towards the positives, recall
    drops and precision rises."

    Criterion for one seed (1 : 20 and τ₋₁ = 0, the page's opening settings): at τ₊₁ = 0
    fewer test points lie on the line's positive side (f(x) > 0) than at τ₊₁ = 1 (the line
    moved towards the positives), the box's recall is lower and its precision higher.
    "Most seeds": on more than half of seeds 0-9, seed 0 among them (the fast suite checks
    seed 0, the test marked slow seeds 0-9).

    Measured: it holds on 8 of seeds 0-9 (seed 0: 20 → 7 points on the positive side, recall
    80 % → 47 %, precision 60 % → 100 %). It fails on seed 5 (6 → 7 points, recall 40 % →
    40 %, precision 100 % → 86 %) and seed 8 (14 → 31 points, recall 80 % → 87 %, precision
    86 % → 42 %): PAUM never stops updating on these clouds (try this 2), so the end is
    wherever the last update left the line. The sentence said it of every seed before.
    """
    holds = {}
    for seed in seeds:
        (margin, above_margin, _), (plain, above_plain, _) = (
            _lesson_6_end(seed, "1 : 20", tau_pos) for tau_pos in (1.0, 0.0)
        )
        holds[seed] = bool(
            above_plain < above_margin
            and plain["recall"][-1] < margin["recall"][-1]
            and plain["precision"][-1] > margin["precision"][-1]
        )
    assert holds[0], holds  # "the opening one among them"
    assert sum(holds.values()) > len(seeds) / 2, holds  # "on most seeds"


@pytest.mark.parametrize("seeds", opening_then_ten_seeds(0))
def test_lesson_6_try_this_3_at_1_to_40_one_positive_moves_recall_by_more_than_10_points(seeds):
    """Try this 3: "Set **positives : negatives** to 1 : 40: with about eight positives in the
    test half, one positive more or less found moves recall by more than 10 points."

    Criterion on every seed 0-9 (τ₊₁ = 1, τ₋₁ = 0, the page's opening margins): the test
    half has 7 to 9 positives ("about eight"; below 10, so one positive is more than 10
    points of recall), and every change of the box's recall along the run is a whole number
    of positives, the smallest more than 10 points.

    Measured: 8 positives among the 316 test points on every seed, 12.5 points each; along
    the runs the box's recall changes by 1 to 8 positives at a step.
    """
    for seed in seeds:
        box, _, positives = _lesson_6_end(seed, "1 : 40", 1.0)
        assert 7 <= positives <= 9, (seed, positives)
        steps = np.abs(np.diff(box["recall"]))
        steps = steps[steps > 0] * positives  # in positives found
        assert len(steps) and np.allclose(steps, np.round(steps)), (seed, steps)
        assert steps.min() / positives > 0.10, (seed, steps)


def test_lesson_6_recall_and_precision_are_the_trained_paums():
    lesson = lesson_module("06_rare_positives")
    at = run_lesson("06_rare_positives")
    research = at.dataframe[0].value
    seen = {}
    for seed in (0, 3):
        _seed(at, "l06_", seed)
        data = make_dataset(lesson.rare_request(seed, 1 / 21))
        R2 = float(np.max(np.sum(data.X**2, axis=1)))
        clf = PAUMPerceptron(tau_pos=R2, tau_neg=0.0, eta=1.0, max_epochs=20, random_state=seed)
        predicted = clf.fit(data.X, data.y).predict(data.X_test) > 0
        positive = data.y_test > 0
        hits = np.sum(predicted & positive)
        seen[seed] = _at_end(at, "l06_", "recall", ".0%")
        assert seen[seed] == f"{hits / positive.sum():.0%}"
        assert _at_end(at, "l06_", "precision", ".0%") == f"{hits / predicted.sum():.0%}"
    assert not at.dataframe[0].value.equals(research)  # the PAUM study follows the seed


def test_lesson_6_uneven_margin_raises_recall_at_the_default_seed():
    at = run_lesson("06_rare_positives")
    recall = {}
    for tau_pos in (0.0, 1.0):
        at.select_slider(key="l06_tau_pos").set_value(tau_pos).run()
        assert_page_ok(at)
        recall[tau_pos] = percent(_at_end(at, "l06_", "recall", ".0%"))
    assert recall[1.0] > recall[0.0]  # what the first "try this" task promises


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
    with pytest.raises(ValueError, match="ηR² \\+ τ > 0"):
        paum_guarantee(data.X, data.y, data.w_star, -data.theta_star, -1.01 * R2, 1.0, 1.0)
    # a small negative margin: the update bound and the positives' margin, none for the
    # negatives (Li et al.'s part 2 is for margins >= 0)
    small = paum_guarantee(data.X, data.y, data.w_star, -data.theta_star, -0.5 * R2, R2, 1.0)
    assert small["updates"] == pytest.approx(4 * (R2 / gamma**2 + R2 / gamma**2))
    assert np.isnan(small["margin_neg"]) and small["margin_pos"] > 0
    with pytest.raises(ValueError, match="does not separate"):
        paum_guarantee(data.X, -data.y, data.w_star, -data.theta_star, 1.0, 1.0, 1.0)


@pytest.mark.parametrize("tau_pos", lesson_literal("06_rare_positives", "TAU_POS"))
def test_lesson_6_live_runs_keep_li_et_als_guarantee_on_the_seeds_offered(tau_pos):
    for seed in range(30):
        data = _separable(seed)
        for tau_neg in LESSON_6.TAU_NEG:
            rows, _ = LESSON_6.guarantee_rows(
                data.X, data.y, data.w_star, data.theta_star, seed, tau_neg, tau_pos
            )
            assert len(rows) == (2 if tau_neg != tau_pos else 1)
            assert rows["stopped"].all()
            assert (rows["updates"] <= rows["bound (2.4)"]).all()
            guaranteed = rows["guaranteed γ₋₁ >"]
            assert guaranteed.isna().sum() == (1 if tau_neg < 0 else 0)  # τ₋₁ < 0: none
            assert (rows["γ₋₁ of the line"] > guaranteed)[guaranteed.notna()].all()
            assert (rows["γ₊₁ of the line"] > rows["guaranteed γ₊₁ >"]).all()


def test_lesson_6_page_shows_the_guarantee_of_its_seed_and_margins():
    from perceptron_core import PAUMPerceptron

    at = run_lesson("06_rare_positives")
    for seed in (0, 3):  # 72 and 54 updates; the recall test opens seed 3 too (one study)
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


@pytest.mark.parametrize("tau_neg", [-0.5, -0.25])
def test_lesson_6_states_li_et_als_condition_for_negative_margins_and_applies_it(tau_neg):
    """Li et al. (2002) state part 1 of Theorem 2.1, the update bound (2.4), with no sign
    condition on the margins (its proof, appendix A, uses none), and part 2, the margins
    (2.6), for τ₋₁, τ₊₁ ∈ ℝ⁺; section 3.2 adds that negative margins keep the theorem valid
    "for small magnitudes". So at τ₋₁ < 0 the page still runs PAUM(τ₋₁, τ₊₁) against
    (2.4) and against (2.6) for the positives (its proof needs ηR² + τ₋₁ > 0 there), shows
    no guarantee for the negatives, and says so; it does not call τ₋₁ < 0 "outside the
    theorem"."""
    from perceptron_lab.lessons._bounds import paum_guarantee

    at = run_lesson("06_rare_positives")
    at.select_slider(key="l06_tau_neg").set_value(tau_neg).run()
    assert_page_ok(at)
    captions = " ".join(c.value for c in at.caption)
    assert "outside the theorem" not in captions
    words = captions + " ".join(m.value for m in at.markdown)
    assert "for small magnitudes" in words and "ηR² + τ₋₁ > 0" in words, words
    table = next(d.value for d in at.dataframe if "bound (2.4)" in d.value.columns)
    table = table.data if hasattr(table, "data") else table
    assert table["learner"].tolist() == ["PAM(1, 1)", f"PAUM({tau_neg:g}, 1)"]
    paum_row = table.iloc[1]
    assert paum_row["stopped"] and paum_row["updates"] <= paum_row["bound (2.4)"]
    assert paum_row["γ₊₁ of the line"] > paum_row["guaranteed γ₊₁ >"] > 0
    # (2.4) and the positives' (2.6), recomputed from the data
    data = _separable(0)
    R2 = float((data.X**2).sum(axis=1).max())
    direct = paum_guarantee(data.X, data.y, data.w_star, -data.theta_star, tau_neg * R2, R2, 1.0)
    assert paum_row["bound (2.4)"] == pytest.approx(direct["updates"])
    assert paum_row["guaranteed γ₊₁ >"] == pytest.approx(direct["margin_pos"])
    assert paum_row["guaranteed γ₋₁ >"] == "—"  # part 2 gives the negatives nothing
