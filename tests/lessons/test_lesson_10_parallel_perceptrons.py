"""Lesson 10's page against direct computations (how, claim by claim: helpers.py)."""

from __future__ import annotations

import math
from functools import cache

import numpy as np
import pytest

from perceptron_core.boosting import AdaBoost, NRBoost
from perceptron_core.metrics import flag_precision_recall
from perceptron_core.parallel import ParallelPerceptron
from perceptron_lab.app_logic import lesson_studies, studies_variants
from perceptron_lab.app_logic.datasource import make_dataset
from perceptron_lab.app_logic.learners import LEARNERS
from perceptron_lab.app_logic.lesson_studies import STUDIES, result
from perceptron_lab.lessons._bounds import (
    adaboost_vote,
    weighted_error,
)
from tests.lessons.helpers import SEEDS, _answers_right, _at_end, _box, _seed
from tests.pages import (
    TEN_SEEDS,
    assert_page_ok,
    lesson_module,
    opening_then_ten_seeds,
    page_run,
    run_lesson,
)


@pytest.mark.parametrize("seeds", opening_then_ten_seeds(STUDIES["l10_nr"].defaults["seed"]))
def test_lesson_10_research_table_nr_boosting_is_the_robust_one(seeds):
    """Research box, above the live table: "NR boosting of parallel perceptrons was more
    robust to label noise than AdaBoost of the same committees. Against bagging it was at
    least as good in 14 of the 15 cells; in the remaining one, threenorm without noise,
    bagging did better".

    The live table is twonorm only, so the claim checked is the noisy rows': NR boosting at
    least as good as AdaBoost ("PP boosting") and as bagging at 10-30 % flipped, and losing
    less accuracy from 0 % to 30 % than AdaBoost. Measured on seeds 0-9: NR boosting
    95.3-99.3 % in the noisy rows, bagging 68.0-95.3 %, AdaBoost 62.7-89.3 %; from 0 % to 30 %
    NR loses 0.0-3.0 points, AdaBoost 23.0-34.6.
    """
    for seed in seeds:
        table = result("l10_nr", {"seed": seed}).set_index("label noise")
        noisy = table.drop(index="0%")
        assert (noisy["NR boosting"] >= noisy["PP boosting"]).all(), (seed, table)
        assert (noisy["NR boosting"] >= noisy["PP bagging"]).all(), (seed, table)
        loss = table.loc["0%"] - table.loc["30%"]
        assert loss["NR boosting"] < loss["PP boosting"], (seed, table)


LESSON_10 = lesson_module("10_parallel_perceptrons")


L10_NOISE = 0.1  # the slider's opening value


@cache
def _lesson_10_end(seed: int, H: int):
    """Lesson 10's figure at the end (10 % flipped, committee of ``H``): (the box's numbers,
    the trained committee, the training data)."""
    data = make_dataset(LESSON_10.noisy_clouds(seed, L10_NOISE))
    run = page_run("parallel", {"n_perceptrons": H}, LESSON_10.COMMITTEE_EPOCHS, seed, data)
    return _box(LESSON_10.flag_numbers(run, data)), run.estimator, data


def test_lesson_10_try_this_3_one_perceptron_is_borderline_inside_gamma_larger_committees_differ():
    """Try this 3: "Set the **committee size** to 1: a single perceptron needs only its own
    vote, so *borderline* means just |act| ≤ γ. With H = 5 or 7 the categories need a
    majority and the borderline set changes."

    Criterion on every seed 0-9 (10 % flipped): at H = 1 the training points the committee
    calls borderline are exactly those with |act| ≤ γ (its final γ), as many as the box's
    *Borderline*; at H = 5 and at H = 7 the borderline set differs from the opening H = 3's
    in at least one point.

    Measured: at H = 1, 24-32 borderline points, all and only those with |act| ≤ γ; against
    H = 3 the borderline set differs in 7-20 points at H = 5 and 12-21 at H = 7 (seed 0:
    25 borderline at H = 3, 15 at H = 5, 9 at H = 7).
    """
    for seed in TEN_SEEDS:
        box, single, data = _lesson_10_end(seed, 1)
        borderline = single.categorize(data.X, data.y) == "borderline"
        inside = np.abs(single.activations(data.X)[:, 0]) <= single.gamma_
        assert np.array_equal(borderline, inside), seed
        assert box["Borderline"] == inside.sum(), (seed, box["Borderline"])
        _, opening, _ = _lesson_10_end(seed, 3)
        at_3 = opening.categorize(data.X, data.y) == "borderline"
        for H in (5, 7):
            _, committee, _ = _lesson_10_end(seed, H)
            at_H = committee.categorize(data.X, data.y) == "borderline"
            assert (at_H != at_3).any(), (seed, H)


def test_lesson_10_flags_are_scored_against_the_flips():
    lesson = lesson_module("10_parallel_perceptrons")
    at = run_lesson("10_parallel_perceptrons")
    seen = {}
    for seed in (0, 1):
        _seed(at, "l10_", seed)
        data = make_dataset(lesson.noisy_clouds(seed, 0.1))
        pp = ParallelPerceptron(n_perceptrons=3, random_state=seed).fit(data.X, data.y)
        categories = pp.categorize(data.X, data.y)
        precision, recall = flag_precision_recall(categories, data.flipped)
        assert _at_end(at, "l10_", "Noisy", ".0f") == str(int(np.sum(categories == "noisy")))
        assert _at_end(at, "l10_", "flag precision", ".0%") == f"{precision:.0%}"
        assert _at_end(at, "l10_", "flag recall", ".0%") == f"{recall:.0%}"
        seen[seed] = (
            _at_end(at, "l10_", "Safe", ".0f"),
            _at_end(at, "l10_", "flag recall", ".0%"),
        )
    assert seen[0] != seen[1]


def test_adaboost_vote_and_weighted_error_are_the_formulas():
    for eps in (1e-10, 0.01, 0.12, 0.3, 0.5, 0.7):
        assert float(adaboost_vote(eps)) == pytest.approx(0.5 * math.log((1 - eps) / eps))
    assert float(adaboost_vote(0.5)) == 0.0 and float(adaboost_vote(0.7)) < 0
    d = np.array([0.1, 0.2, 0.3, 0.4])
    wrong = np.array([True, False, True, False])
    assert weighted_error(d, wrong) == pytest.approx(0.1 + 0.3)


@pytest.mark.parametrize("seed", [0, 1])
def test_lesson_10_rounds_are_the_boosters_eps_and_alpha_recomputed(seed):
    data = make_dataset(studies_variants.noisy_clouds(seed, 0.1))
    rounds = studies_variants.boosting_rounds(3, 0.1, seed)
    y_pm = np.where(data.y > 0, 1.0, -1.0)
    epochs, n_rounds = studies_variants.COMMITTEE_EPOCHS, studies_variants.BOOSTING_ROUNDS
    for name, booster in (("AdaBoost", AdaBoost), ("NR boosting", NRBoost)):
        part = rounds[rounds["booster"] == name]
        base = LEARNERS["parallel"].make({"n_perceptrons": 3}, epochs, seed)
        base.set_params(record="none")
        fit = booster(base, n_rounds=n_rounds, random_state=seed).fit(data.X, data.y)
        kept = 0
        for t in range(n_rounds):
            eps_shown, alpha_shown = part["ε_t"].iloc[t], part["α_t"].iloc[t]
            if not part["kept"].iloc[t]:
                assert eps_shown >= 0.5 and np.isnan(alpha_shown)
                continue
            h = np.where(fit.estimators_[kept].predict(data.X) > 0, 1.0, -1.0)
            eps = min(max(weighted_error(fit.distributions_[t], h != y_pm), 1e-10), 1 - 1e-10)
            assert eps_shown == pytest.approx(eps, abs=1e-12)
            assert alpha_shown == pytest.approx(0.5 * math.log((1 - eps) / eps))
            if name == "AdaBoost" and t + 1 < n_rounds and part["kept"].iloc[t]:
                # d_{t+1} ∝ d_t exp(-α_t y h_t): R = 1
                nxt = fit.distributions_[t] * np.exp(-alpha_shown * y_pm * h)
                np.testing.assert_allclose(fit.distributions_[t + 1], nxt / nxt.sum())
            kept += 1


def _first_kept_adaboost_round(H: int, noise: float, seed: int):
    """The row of the boosting rounds' table (as the page reads it, from the lesson's study)
    that the α_t question asks about."""
    rounds = result("l10_boosting", {"H": H, "noise": noise, "seed": seed})
    return rounds[(rounds["booster"] == "AdaBoost") & rounds["kept"]].iloc[0]


def test_lesson_10_alpha_question_is_the_round_on_screen():
    at = run_lesson("10_parallel_perceptrons")
    for seed in (0, 1):  # the seeds the flags' test opens: the page's studies are computed once
        at.number_input(key="l10_seed").set_value(seed).run()
        assert_page_ok(at)
        first = _first_kept_adaboost_round(3, 0.1, seed)
        eps = first["ε_t"]
        radio = at.radio(key="l10_acheck")
        assert f"ε_t = {eps:.4f}" in radio.label
        _answers_right(at, "l10_acheck", f"{0.5 * math.log((1 - eps) / eps):.3f}")


def test_lesson_10_a_rerun_takes_the_rounds_from_memory(monkeypatch):
    """A click reruns the page: no booster is fitted and the disk is not read again for the
    rounds, with the opening settings or with a committee size a visitor picked."""
    fitted, read, disk_read = [], [], lesson_studies._read
    for booster in (AdaBoost, NRBoost):
        fit = booster.fit
        monkeypatch.setattr(
            booster, "fit", lambda self, X, y, fit=fit: fitted.append(self) or fit(self, X, y)
        )

    def reading(folder, key):
        read.append(key)
        return disk_read(folder, key)

    monkeypatch.setattr(lesson_studies, "_read", reading)
    at = run_lesson("10_parallel_perceptrons")
    for H in (3, 5):  # the opening setting, then one a visitor picks
        at.select_slider(key="l10_H").set_value(H).run()
        assert_page_ok(at)
        settings = {**STUDIES["l10_boosting"].defaults, "H": H}
        key = lesson_studies.study_key("l10_boosting", settings)
        before = (len(fitted), read.count(key))
        at.run()  # nothing changed
        assert_page_ok(at)
        assert (len(fitted), read.count(key)) == before, H
        first = _first_kept_adaboost_round(**settings)
        assert f"ε_t = {first['ε_t']:.4f}" in at.radio(key="l10_acheck").label


def test_lesson_10_p_delta_sentence_is_the_runs_history():
    at = run_lesson("10_parallel_perceptrons")
    data = make_dataset(studies_variants.noisy_clouds(0, 0.1))
    epochs = studies_variants.COMMITTEE_EPOCHS
    pp = LEARNERS["parallel"].make({"n_perceptrons": 3}, epochs, 0).fit(data.X, data.y)
    text = next(m.value for m in at.markdown if m.value.startswith("In this run"))
    assert f"{int(pp.errors_per_epoch_[0])} committee mistakes in the first epoch" in text
    assert f"{int(pp.errors_per_epoch_[-1])} in the last" in text
    assert f"**{pp.gamma_:.3f}**" in text


def _flags(seed, noise, H=3):
    """Lesson 10's figure at the end: (noisy flags, flag precision)."""
    from perceptron_core.metrics import flag_precision_recall

    data = make_dataset(studies_variants.noisy_clouds(seed, noise))
    pp = LEARNERS["parallel"].make({"n_perceptrons": H}, studies_variants.COMMITTEE_EPOCHS, seed)
    categories = pp.fit(data.X, data.y).categorize(data.X, data.y)
    precision, _ = flag_precision_recall(categories, data.flipped)
    return int(np.sum(categories == "noisy")), precision


def test_lesson_10_try_this_flags_follow_the_noise_on_every_seed():
    for seed in SEEDS:
        # try this 2: at 0 % flipped "the committee raises none or almost none" (≤ 5 of 100)
        assert _flags(seed, 0.0)[0] <= 5, seed
        # try this 1: from 10 % to 30 % flipped "precision drops"
        assert _flags(seed, 0.3)[1] < _flags(seed, 0.1)[1], seed


@pytest.mark.parametrize(
    "H", [3, pytest.param(1, marks=pytest.mark.slow), pytest.param(7, marks=pytest.mark.slow)]
)
def test_lesson_10_alpha_question_at_the_error_floor_has_three_options_and_no_zero(H):
    """At 0 % flipped on seed 1 the first kept AdaBoost round makes no weighted error: its
    ε_t is the floor 1e-10, where ½ ln((1 − ε)/ε) and ½ ln(1/ε) read the same to three
    decimals. The question must still offer three different numbers with one right, and
    write ε_t as the number it is (1e-10), not 0.0000, in the question and in its reason."""
    first = _first_kept_adaboost_round(H, 0.0, 1)  # computed here, then read by the page
    assert first["ε_t"] == pytest.approx(1e-10)  # the case this test is about
    at = run_lesson("10_parallel_perceptrons")
    at.number_input(key="l10_seed").set_value(1).run()
    at.select_slider(key="l10_noise").set_value(0.0).run()
    at.select_slider(key="l10_H").set_value(H).run()
    assert_page_ok(at)
    radio = at.radio(key="l10_acheck")
    assert "0.0000" not in radio.label and "1e-10" in radio.label, radio.label
    right = f"{0.5 * math.log((1 - 1e-10) / 1e-10):.3f}"  # 11.513
    _answers_right(at, "l10_acheck", right)  # three distinct options, one right
    at.radio(key="l10_acheck").set_value(right).run()
    (why,) = [s.value for s in at.success if s.value.startswith("Right.")]
    assert "0.0000" not in why and "1e-10" in why, why
