"""Lessons 1-5, 7, 9, 10: the sentences beside live numbers agree with them, seed by seed.

Each test recomputes what the page shows with the functions the page calls
(the figure's run through ``fit_run`` and the lesson's ``last_pass`` box, the
research tables through their studies, kept in the test session's cache
folder) and checks one sentence of the page,
quoted in the test's docstring. The pages' seed control offers seeds 0 to
9,999: a test checks seeds 0-9 where that is quick (lessons 1-5), else a
fast test checks the seed the page opens with and the same test marked
``slow`` checks seeds 0-9.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np
import pytest

from perceptron_lab.app_logic.datasource import DataRequest, make_dataset
from perceptron_lab.app_logic.diagnostics import novikoff_bound
from perceptron_lab.app_logic.learners import KW_SWITCHES_OFF, LEARNERS
from perceptron_lab.app_logic.lesson_studies import STUDIES, result
from perceptron_lab.app_logic.payload.extras import Accuracies
from perceptron_lab.app_logic.payload.scene import axis_box
from perceptron_lab.app_logic.studies_winnow import NS
from perceptron_lab.app_logic.timeline import BLOCKED, MARGIN, UPDATE_KINDS
from perceptron_lab.lessons._basics import noisy_line
from tests.lessons import TEN_SEEDS, lesson_module, opening_then_ten_seeds, page_run

ROOT = Path(__file__).resolve().parents[1]


LESSON_1 = lesson_module("01_the_perceptron_rule")
LESSON_2 = lesson_module("02_convergence")
LESSON_4 = lesson_module("04_from_online_to_batch")
LESSON_5 = lesson_module("05_margins")
LESSON_7 = lesson_module("07_soft_margins")
LESSON_9 = lesson_module("09_winnow")


# --- lessons 1, 3 and 4: what the figure's run does when a setting changes -----------------


def _fit(learner_key: str, values: dict, epochs: int, seed: int, data):
    learner = LEARNERS[learner_key]
    return learner.make({**learner.defaults(), **values}, epochs, seed).fit(data.X, data.y)


@cache
def _page_run(learner_key: str, values: tuple, epochs: int, request: DataRequest):
    """The figure's recorded run, as ``stage`` trains it: ``(run, data)``."""
    data = make_dataset(request)
    run = page_run(learner_key, dict(values), epochs, request.seed, data)
    return run, data


def _update_times(timeline) -> np.ndarray:
    """The time step just after each update of the run."""
    return np.flatnonzero(np.isin(timeline.kind[0], UPDATE_KINDS)) + 1


def _view_grid(data, side: int = 30) -> np.ndarray:
    """Points on a ``side`` × ``side`` grid over the figure's view (its axis box)."""
    x0, x1, y0, y1 = axis_box(data.X, data.X_test)
    gx, gy = np.meshgrid(np.linspace(x0, x1, side), np.linspace(y0, y1, side))
    return np.c_[gx.ravel(), gy.ravel()]


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


def test_lesson_3_try_this_2_without_flips_the_updates_stop():
    """Try this 2: "Set **flipped training labels** to 0%. The data are separable again: the
    updates stop, both curves end flat, and the step counter stops adding updates."

    Measured on seeds 0-9 (30 epochs, the slider's default): the last 3 epochs have no
    update; at the page's 10 % flipped every run still updates in its last epoch.
    """
    for seed in TEN_SEEDS:
        clean = _fit("perceptron", {}, 30, seed, make_dataset(noisy_line(seed, 0.0)))
        assert (clean.updates_per_epoch_[-3:] == 0).all(), (seed, clean.updates_per_epoch_)
        noisy = _fit("perceptron", {}, 30, seed, make_dataset(noisy_line(seed, 0.1)))
        assert noisy.updates_per_epoch_[-1] > 0, seed


def test_lesson_3_try_this_3_flipped_points_keep_dragging_the_line_across_the_true_one():
    """Try this 3: "With **flipped training labels** back at 10%, change the **data
    seed** and watch where the line ends up: the flipped points (×) keep dragging it
    across the true line."

    Criterion, on every seed (30 epochs, the page's run): in each of the last 15 epochs some
    update is on a flipped point ("keep"); the 6 flipped points (10 % of the data) make at
    least a quarter of all updates ("dragging"); and in the last 15 epochs at least 3
    updates on flipped points turn the line from one side of the true line's direction to
    the other (the sign of the angle from w* to w changes: "across"). Measured on seeds 0-9:
    flipped updates in all 15 late epochs on every seed; 31-44 % of the updates; 6-54 such
    crossings (seed 4: 6).
    """
    for seed in TEN_SEEDS:
        run, data = _page_run("perceptron", (), 30, noisy_line(seed, 0.1))
        tl = run.timeline
        events = _update_times(tl) - 1
        flipped = data.flipped[tl.index[events]]
        late = tl.epoch[events] >= 15
        assert set(tl.epoch[events][flipped & late]) == set(range(15, 30)), seed
        assert flipped.mean() >= 0.25, (seed, flipped.mean())
        W, w_star = tl.W[0], data.w_star
        side = np.sign(W[:, 0] * w_star[1] - W[:, 1] * w_star[0])  # which way w is turned
        crossed = (side[tl.before[events]] * side[tl.after[events]]) < 0
        assert (crossed & flipped & late).sum() >= 3, (seed, (crossed & flipped & late).sum())


def test_lesson_3_try_this_1_each_stop_gives_another_last_hypothesis():
    """Try this 1: "move **Stop after epoch** from 30 to 31, then 32, pressing **End** each
    time: a different last hypothesis each time, often a different test accuracy."

    Criterion: on every seed the last hypotheses after 30, 31 and 32 epochs (10 % flipped)
    are three different (w, θ); over seeds 0-9, at least half of the 20 steps (30 to 31,
    31 to 32) change the test accuracy. Measured: all three differ on every seed; 16 of the
    20 steps change it (none on seed 0, 73.3 % three times; seed 5, the opening one:
    95.0, 90.0, 68.3 %).
    """
    changed = 0
    for seed in TEN_SEEDS:
        data = make_dataset(noisy_line(seed, 0.1))
        fits = [_fit("perceptron", {}, epochs, seed, data) for epochs in (30, 31, 32)]
        lines = [np.r_[est.coef_.ravel(), est.intercept_] for est in fits]
        for a in range(3):
            for b in range(a + 1, 3):
                assert not np.allclose(lines[a], lines[b]), (seed, a, b)
        accuracy = [est.score(data.X_test, data.y_test) for est in fits]
        changed += sum(before != after for before, after in zip(accuracy, accuracy[1:]))
    assert changed >= len(TEN_SEEDS), changed  # "often": half of the 2 × 10 steps


def test_lesson_4_try_this_2_without_flips_the_vote_follows_the_last_line():
    """Try this 2: "Set **flipped training labels** to 0%. The data are separable: once
    training stops updating, the last hypothesis collects all later votes, and the voted
    predictor and the longest survivor agree with it; the averaged line still carries the
    early hypotheses in its mean and may label a test point or two differently."

    Measured on seeds 0-9 (20 epochs): every run stops updating by epoch 13; the voted
    predictor and the longest survivor label all 60 test points as the last line does; the
    averaged line differs on 1 point on seeds 0 and 2 (so "the four predictors agree", the
    sentence before, was false there: 100.0 % against 98.3 %), on none elsewhere.
    """
    differ = 0
    for seed in TEN_SEEDS:
        data = make_dataset(noisy_line(seed, 0.0))
        est = _fit("kw", KW_SWITCHES_OFF, 20, seed, data)
        assert est.updates_per_epoch_[-1] == 0, (seed, est.updates_per_epoch_)
        labels = est.predict_all(data.X_test)
        for mode in ("voted", "longest"):
            assert (labels[mode] == labels["last"]).all(), (seed, mode)
        averaged_off = int((labels["averaged"] != labels["last"]).sum())
        assert averaged_off <= 2, (seed, averaged_off)
        differ += averaged_off > 0
    assert differ >= 1  # "may": the averaged line does differ on some seed


def _turn(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Angles in degrees between the rows of ``a`` and ``b`` (2-D normals)."""
    turn = np.abs(np.arctan2(a[:, 1], a[:, 0]) - np.arctan2(b[:, 1], b[:, 0])) % (2 * np.pi)
    return np.degrees(np.minimum(turn, 2 * np.pi - turn))


def test_lesson_4_try_this_1_the_last_line_jumps_the_averaged_line_and_the_vote_barely_move():
    """Try this 1: "Press **Play** (or drag the time slider) and watch the black last line
    jump at every update while the dashed green averaged line and the voted tint barely
    move."

    Criterion, from one update to the next over the whole run (Play starts at step 0; 15 %
    flipped, 20 epochs): the last line turns by a median of at least 10°, the averaged line
    by at most a twentieth of the last line's median; and the voted tint changes on at most
    a twentieth of the share of the view (a 30 × 30 grid over the figure's box) that the
    last line's side changes on, on average. Measured on seeds 0-9: the last line turns by a
    median of 16.5-37.8°, the averaged line by 0.03-0.08° (1/924 to 1/349 of it); the last
    line's side changes on 20-36 % of the view per update, the vote's on 0.2-0.4 % (61-130
    times less).
    """
    for seed in TEN_SEEDS:
        run, data = _page_run("kw", tuple(KW_SWITCHES_OFF.items()), 20, noisy_line(seed, 0.15))
        tl = run.timeline
        times = _update_times(tl)
        last = np.array([tl.hypothesis(t)[0] for t in times])
        averaged = np.array([tl.averaged_hypothesis(t)[0] for t in times])
        last_turn = np.median(_turn(last[1:], last[:-1]))
        averaged_turn = np.median(_turn(averaged[1:], averaged[:-1]))
        assert last_turn >= 10, (seed, last_turn)
        assert averaged_turn <= last_turn / 20, (seed, last_turn, averaged_turn)
        grid = _view_grid(data)
        changed = {}
        for mode in ("last", "voted"):
            sides = np.array([tl.scores(grid, t, mode) > 0 for t in times])
            changed[mode] = float((sides[1:] != sides[:-1]).mean())
        assert changed["voted"] <= changed["last"] / 20, (seed, changed)


def test_lesson_4_try_this_3_the_table_has_a_test_row_last_with_all_four_predictors():
    """Try this 3 asks a question and claims nothing: "compare the last row of the table:
    which predictor is most often at the top on the test half?". Checked: the table it means
    is in the panel beside the figure (the ``Accuracies`` item of ``four_predictors``), it
    scores all four predictors (the run replays votes), and its last row is the test half
    (the page's data keep 60 test points; the browser adds the test row after the training
    row when there are any).
    """
    run, data = _page_run("kw", tuple(KW_SWITCHES_OFF.items()), 20, noisy_line(4, 0.15))
    (panel,) = LESSON_4.four_predictors(run, data)
    assert any(isinstance(item, Accuracies) for item in panel.items), panel
    assert run.learner.replays_votes
    assert len(data.y_test) == 60


# --- lesson 2: the bound beside the figure, and the sweep ------------------------------------


def _lesson_2_box(seed: int, gap: float) -> dict:
    """Lesson 2's figure at the end: R, γ and Novikoff's bound of its data, and the updates."""
    data = make_dataset(DataRequest("separable", (("margin", gap), ("n_samples", 60)), seed=seed))
    learner = LEARNERS["perceptron"]
    est = learner.make(learner.defaults(), LESSON_2.EPOCHS, seed).fit(data.X, data.y)
    bound, R, gamma = novikoff_bound(
        data.X, data.y, data.w_star, data.theta_star, est.eta, est.C_, est.theta_init_
    )
    return {"R": R, "γ": gamma, "bound": bound, "updates": est.n_updates_}


def test_lesson_2_try_this_the_run_uses_a_small_part_of_a_bound_set_by_one_point():
    """Try this 1: "The figure opens at the end of training: the box shows that the run used
    only a small part of the bound." Try this 2: "Set the **gap** to 0.01. γ shrinks, the
    bound grows with 1/γ²". Try this 3: "Change the **data seed** with the gap at 0.01: R
    hardly moves, but γ and the bound jump".

    Measured on seeds 0-9: at the opening gap 0.1 the runs use 3.5-7.0 % of the bound; at gap
    0.01 γ is 0.011-0.039 (0.096-0.136 at 0.1); over the ten seeds R varies by a factor 1.17,
    γ by 3.5 and the bound by 13.7.
    """
    opening, narrow = ([_lesson_2_box(seed, gap) for seed in TEN_SEEDS] for gap in (0.1, 0.01))
    for wide, tight in zip(opening, narrow):
        assert wide["updates"] <= 0.1 * wide["bound"], wide
        assert tight["γ"] < wide["γ"] and tight["bound"] > wide["bound"], (wide, tight)

    def spread(name):
        values = [box[name] for box in narrow]
        return max(values) / min(values)

    assert spread("R") < 1.25 and spread("γ") > 2 and spread("bound") > 4


def test_lesson_2_research_updates_tend_to_grow_as_the_margin_shrinks_far_below_the_bound():
    """Research box: "Being a guarantee for every order, it is far above what random data
    need; but the count the perceptron needs still tends to grow as the margin shrinks."

    Measured on seeds 0-9: the mean updates at gap 0.005 are 4.2-34.6 times those at 0.4;
    of the six steps to a larger gap, one goes up (seed 9, gap 0.005 to 0.01: 37.4 to 46.2),
    the others all down; no run uses more than 30.5 % of its bound.
    """
    for seed in TEN_SEEDS:
        table = result("l02_sweep", {"seed": seed}).sort_values("gap of the generator")
        updates = table["updates (mean)"].to_numpy()
        assert updates[0] > 3 * updates[-1], (seed, updates)
        assert (np.diff(updates) > 0).sum() <= 1, (seed, updates)
        assert (table["largest updates ÷ bound"] < 0.5).all(), (seed, table)


# --- lesson 5: the margin against none ------------------------------------------------------


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


# --- lesson 7: the figure and the box beside it ----------------------------------------------


@cache
def _lesson_7_run(seed: int, form: str, strength: float):
    """Lesson 7's figure for one setting: (box at the end, updates per pass, run, data)."""
    data = make_dataset(LESSON_7.noisy_line(seed, LESSON_7.NOISE))
    mean_sq_norm = float(np.mean(np.sum(data.X**2, axis=1)))
    key, values = LESSON_7.settings_for(form, strength, mean_sq_norm)
    run = page_run(key, values, LESSON_7.EPOCHS, seed, data)
    (panel,) = LESSON_7.last_pass(run, data)
    box = {value.label: np.asarray(value.values)[-1] for value in panel.items}
    tl = run.timeline
    updating = np.isin(tl.kind[0], UPDATE_KINDS)
    per_pass = np.bincount(tl.epoch[updating], minlength=int(tl.epoch.max()) + 1)
    return box, per_pass, run, data


FORCED = "…forced by flipped points"
OPENING_7 = STUDIES["l07_switches"].defaults["seed"]


@pytest.mark.parametrize("seeds", opening_then_ten_seeds(OPENING_7))
def test_lesson_7_try_this_1_without_lambda_every_pass_updates(seeds):
    """Try this 1: "The figure opens at the end of training with the KW λ-trick at λ = 1. Set
    **λ** to 0 and read the box again: without the trick every pass has updates again, several
    of them forced by flipped points, and the line never settles."

    Measured on seeds 0-9: at λ = 1 the last pass has 0-2 updates, at λ = 0 12-20, 4-8 of
    them forced by flipped points; every one of the 30 passes at λ = 0 has updates.
    """
    for seed in seeds:
        with_trick, _, _, _ = _lesson_7_run(seed, "kw_lam", 1.0)
        box, per_pass, _, _ = _lesson_7_run(seed, "kw_lam", 0.0)
        # "every pass has updates again ... the line never settles"
        assert len(per_pass) == LESSON_7.EPOCHS and (per_pass > 0).all(), (seed, per_pass)
        assert box[FORCED] >= 3, (seed, box)  # "several of them forced by flipped points"
        assert box["updates"] > with_trick["updates"], (seed, box, with_trick)  # "again"


@pytest.mark.parametrize("seeds", opening_then_ten_seeds(OPENING_7))
def test_lesson_7_try_this_2_kernel_form_pushes_until_rescues_replace_updates(seeds):
    """Try this 2: "Switch **soft margin** to the kernel form (PAUM) ...: the same flipped
    points come back, but each time with a larger push, until the box's *rescued* count takes
    over from their updates."

    Measured on seeds 0-9 (λ = 1, the slider's default): a flipped point updates 2 or more
    times; in the last pass 0 updates and 9-14 rescued visits.
    """
    for seed in seeds:
        box, _, run, data = _lesson_7_run(seed, "paum_lam", 1.0)
        tl = run.timeline
        updating = np.isin(tl.kind[0], UPDATE_KINDS)
        flipped_updates = np.bincount(tl.index[updating & data.flipped[tl.index]])
        assert flipped_updates.max() >= 2, seed  # "the same flipped points come back"
        assert box[FORCED] == 0 and box["rescued by the λ push"] > box[FORCED], (seed, box)


@pytest.mark.parametrize("seeds", opening_then_ten_seeds(OPENING_7))
def test_lesson_7_try_this_3_alpha_one_blocks_many_visits_and_updates_almost_none(seeds):
    """Try this 3: "Switch to the **α-bound** and set it to 1: every point may update once, so
    the last pass has almost no updates and many blocked visits."

    Measured on seeds 0-9: 0 updates and 8-11 blocked visits of 60 in the last pass.
    """
    for seed in seeds:
        box, _, run, _ = _lesson_7_run(seed, "alpha", 1)
        counts = np.bincount(run.timeline.index[np.isin(run.timeline.kind[0], UPDATE_KINDS)])
        assert counts.max() <= 1, seed  # "every point may update once"
        assert box["updates"] <= 1 and box["blocked by the α-bound"] >= 5, (seed, box)
        assert (run.timeline.kind[0] == BLOCKED).any(), seed


# --- lesson 7: the research table ------------------------------------------------------------


def _switch_beats_tau(table) -> bool:
    return bool(((table["best λ"] > table["best τ"]) | (table["best α"] > table["best τ"])).any())


@pytest.mark.parametrize("seeds", opening_then_ten_seeds(OPENING_7))
def test_lesson_7_research_table_can_put_a_switch_above_tau_in_a_row(seeds):
    """Research box: "That is a verdict over many data sets, not cell by cell: ... the live
    table below can put a switch above τ in a row too", after the switches "improved on the
    plain perceptron".

    Measured: the opening seed 1 puts λ above τ at 15 % noise (77.6 against 77.3); on seeds
    0-9, 7 tables have a switch above τ in some row, and every switch beats "nothing" in
    every row (by 2.9-10.9 points).
    """
    tables = [result("l07_switches", {"seed": seed}) for seed in seeds]
    assert sum(_switch_beats_tau(table) for table in tables) >= (len(tables) + 1) // 2
    for table in tables:
        for switch in ("best λ", "best α"):
            assert (table[switch] > table["nothing"]).all(), table


# --- lesson 9: mistakes against n ------------------------------------------------------------


def _mistakes(k: int, m: int, seed: int):
    """Lesson 9's chart: mean mistakes of (Winnow, perceptron) in one pass, for every n."""
    table = result("l09_mistakes", {"k": k, "m": m, "seed": seed})
    return table["Winnow mistakes"].to_numpy(), table["Perceptron mistakes"].to_numpy(), table


def _late_over_early(mistakes: np.ndarray) -> float:
    """Growth over the last three doublings (128 to 1024) over that of the first three."""
    return (mistakes[6] - mistakes[3]) / (mistakes[3] - mistakes[0])


def _off_the_straight_line(mistakes: np.ndarray) -> float:
    """How far the farthest point lies from the least-squares line in log2 n, in doublings'
    worth of that line's growth (0: on it)."""
    doublings = np.log2(NS)
    slope, intercept = np.polyfit(doublings, mistakes, 1)
    assert slope > 0
    return float(np.abs(mistakes - (slope * doublings + intercept)).max() / slope)


OPENING_9 = STUDIES["l09_mistakes"].defaults


@pytest.mark.parametrize("seeds", opening_then_ten_seeds(OPENING_9["seed"]))
def test_lesson_9_try_this_1_winnow_adds_a_constant_per_doubling_the_perceptron_multiplies(
    seeds,
):
    """Try this 1: "Read the two curves at n = 16 and at n = 1024: Winnow's mistakes grow by a
    constant for every doubling of n (a straight line on this log axis), the perceptron's
    multiply. Now set **k** to 8: Winnow's line moves up (its bound grows with k) but stays
    straight."

    Measured on seeds 0-9 (m = 2000): no Winnow point lies farther than 0.81 of one doubling's
    growth from its straight line (k = 3 and 8); the perceptron grows 1.89-2.49 times as much
    over 128-1024 as over 16-128 (a straight line: 1); Winnow at k = 8 lies above k = 3 at
    every n.
    """
    m = OPENING_9["m"]
    for seed in seeds:
        winnow, perceptron, _ = _mistakes(3, m, seed)
        winnow_8, _, _ = _mistakes(8, m, seed)
        assert _off_the_straight_line(winnow) < 1, (seed, winnow)
        assert _off_the_straight_line(winnow_8) < 1, (seed, winnow_8)
        assert _late_over_early(perceptron) > 1.75, (seed, perceptron)
        assert (winnow_8 > winnow).all(), (seed, winnow, winnow_8)


@pytest.mark.parametrize("seeds", opening_then_ten_seeds(OPENING_9["seed"]))
def test_lesson_9_try_this_2_short_pass_bends_the_perceptron_flat_without_learning(seeds):
    """Try this 2: "Set **m** to 500: the perceptron's curve bends flat at large n. It has not
    learned faster: it is still wrong on a large share of the pass when it runs out of
    examples (the research table gives its test accuracy)."

    Measured on seeds 0-9 at n = 1024: m = 500 grows 0.54-0.67 times as much over 128-1024 as
    over 16-128 (m = 2000: 1.89-2.49); 231-249 mistakes in the 500 examples; test accuracy
    49.9-59.8 % against 63.5-73.2 % after m = 2000.
    """
    for seed in seeds:
        _, short, short_table = _mistakes(OPENING_9["k"], 500, seed)
        _, full, full_table = _mistakes(OPENING_9["k"], OPENING_9["m"], seed)
        assert _late_over_early(short) < 1 < _late_over_early(full), (seed, short, full)
        assert short[-1] >= 0.4 * 500, (seed, short)  # "wrong on a large share of the pass"
        accuracy = [
            float(table["Perceptron test accuracy"].iloc[-1].rstrip("%"))
            for table in (short_table, full_table)
        ]
        assert accuracy[0] < accuracy[1], (seed, accuracy)  # "it has not learned faster"


@pytest.mark.parametrize("seeds", opening_then_ten_seeds(OPENING_9["seed"]))
def test_lesson_9_try_this_3_winnows_relevant_weights_stay_at_the_threshold(seeds):
    """Try this 3: "Move **weights after the pass** from n = 256 to 1024: Winnow's relevant
    weights stay at the threshold (one of them fires a positive alone) and the irrelevant
    ones near 0; the perceptron's relevant weights fall from above the threshold to below
    it, so it needs irrelevant features to help, and misfires."

    Criterion (k = 3, m = 2000, the page's defaults): at n = 256, 512 and 1024 every
    relevant Winnow weight is at least the threshold and below twice it, every irrelevant
    one at most an eighth of it; the perceptron's relevant weights are all at least its
    threshold at n = 256 and all below it at n = 1024; its test accuracy at n = 1024 (the
    chart's table) is below Winnow's ("misfires"). Measured on seeds 0-9: Winnow's relevant
    weights are exactly the threshold, its irrelevant ones 0.031-0.125 of it at most; the
    perceptron's relevant weights are 1.40-1.69 times its threshold at n = 256 and
    0.22-0.82 times it at n = 1024 (seed 8: 0.65-0.82); test accuracy at n = 1024: Winnow
    99.9-100.0 %, the perceptron 63.5-73.2 %.
    """
    k, m = OPENING_9["k"], OPENING_9["m"]
    for seed in seeds:
        weights = {
            n: result("l09_weights", {"n": n, "k": k, "m": m, "seed": seed})
            for n in (256, 512, 1024)
        }
        for n, shares in weights.items():
            relevant, winnow = shares["relevant"], shares["Winnow"]
            assert ((winnow[relevant] >= 1) & (winnow[relevant] < 2)).all(), (seed, n)
            assert winnow[~relevant].max() <= 1 / 8, (seed, n, winnow[~relevant].max())
        perceptron = {n: weights[n]["Perceptron"][weights[n]["relevant"]] for n in (256, 1024)}
        assert (perceptron[256] >= 1).all() and (perceptron[1024] < 1).all(), (seed, perceptron)
        _, _, table = _mistakes(k, m, seed)
        at_1024 = table.set_index("n features").loc[1024]
        accuracy = {
            name: float(at_1024[f"{name} test accuracy"].rstrip("%"))
            for name in ("Winnow", "Perceptron")
        }
        assert accuracy["Perceptron"] < accuracy["Winnow"], (seed, accuracy)


# --- lesson 10: the research table -----------------------------------------------------------


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
