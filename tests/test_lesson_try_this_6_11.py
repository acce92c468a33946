"""Lessons 6, 8, 10 and 11: what a "try this" sentence says the live figure does, it does.

Each test recomputes the figure with the page's own data request, learner
settings and epochs (the run through ``fit_run``, the box beside it through
the lesson's own ``extras`` function, lesson 11's chart through its study)
and checks one sentence, quoted in the test's docstring with the criterion
that turns its words into numbers. The pages' seed control offers seeds 0 to
9,999: the tests check seeds 0-9, in the fast suite where that is quick
(lessons 6, 8 and 10), else the page's opening seed there and seeds 0-9 in
the same test marked ``slow`` (lesson 11).

Sentences tested elsewhere are not repeated here: lesson 6's second (the
line under τ₋₁ = −0.5) and lesson 11's truth line against the 10-fold mean in
``tests/test_lesson_live_sentences.py``; lesson 8's first (the linear kernel
on XOR) and lesson 10's first two (the flags against the noise) in
``tests/test_lessons_theory_7_11.py``.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from scipy import ndimage

from perceptron_core.experiments import t_interval
from perceptron_lab.app_logic.datasource import make_dataset
from perceptron_lab.app_logic.lesson_studies import STUDIES, result
from perceptron_lab.app_logic.payload.extras import Value
from perceptron_lab.app_logic.payload.scene import axis_box
from perceptron_lab.app_logic.studies_honest import N_DATA
from perceptron_lab.app_logic.style import STYLE
from tests.lessons import TEN_SEEDS, lesson_module, opening_then_ten_seeds, page_run

LESSON_6 = lesson_module("06_rare_positives")
LESSON_8 = lesson_module("08_kernels")
LESSON_10 = lesson_module("10_parallel_perceptrons")
LESSON_11 = lesson_module("11_choosing_parameters")


def _box(panels) -> dict:
    """The numbers of a lesson's one ``extras`` panel, by label (one value per step or run)."""
    (panel,) = panels
    return {item.label: np.asarray(item.values) for item in panel.items if isinstance(item, Value)}


# --- lesson 6: PAUM on rare positives ---------------------------------------------------------

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


def test_lesson_6_try_this_1_without_the_positive_margin_the_line_moves_towards_the_positives():
    """Try this 1: "The figure opens at the end of training with τ₊₁ = 1. Note recall and
    precision, then set **τ₊₁** to 0 (the classic perceptron with a bias) and press **End**:
    on most seeds, the opening one among them, the line moves towards the positives, recall
    drops and precision rises."

    Criterion for one seed (1 : 20 and τ₋₁ = 0, the page's opening settings): at τ₊₁ = 0
    fewer test points lie on the line's positive side (f(x) > 0) than at τ₊₁ = 1 (the line
    moved towards the positives), the box's recall is lower and its precision higher.
    "Most seeds": on more than half of seeds 0-9, seed 0 among them.

    Measured: it holds on 8 of seeds 0-9 (seed 0: 20 → 7 points on the positive side, recall
    80 % → 47 %, precision 60 % → 100 %). It fails on seed 5 (6 → 7 points, recall 40 % →
    40 %, precision 100 % → 86 %) and seed 8 (14 → 31 points, recall 80 % → 87 %, precision
    86 % → 42 %): PAUM never stops updating on these clouds (try this 2), so the end is
    wherever the last update left the line. The sentence said it of every seed before.
    """
    holds = {}
    for seed in TEN_SEEDS:
        (margin, above_margin, _), (plain, above_plain, _) = (
            _lesson_6_end(seed, "1 : 20", tau_pos) for tau_pos in (1.0, 0.0)
        )
        holds[seed] = bool(
            above_plain < above_margin
            and plain["recall"][-1] < margin["recall"][-1]
            and plain["precision"][-1] > margin["precision"][-1]
        )
    assert holds[0], holds  # "the opening one among them"
    assert sum(holds.values()) > len(TEN_SEEDS) / 2, holds  # "on most seeds"


def test_lesson_6_try_this_3_at_1_to_40_one_positive_moves_recall_by_more_than_10_points():
    """Try this 3: "Set **positives : negatives** to 1 : 40: with about eight positives in the
    test half, one positive more or less found moves recall by more than 10 points."

    Criterion on every seed 0-9 (τ₊₁ = 1, τ₋₁ = 0, the page's opening margins): the test
    half has 7 to 9 positives ("about eight"; below 10, so one positive is more than 10
    points of recall), and every change of the box's recall along the run is a whole number
    of positives, the smallest more than 10 points.

    Measured: 8 positives among the 316 test points on every seed, 12.5 points each; along
    the runs the box's recall changes by 1 to 8 positives at a step.
    """
    for seed in TEN_SEEDS:
        box, _, positives = _lesson_6_end(seed, "1 : 40", 1.0)
        assert 7 <= positives <= 9, (seed, positives)
        steps = np.abs(np.diff(box["recall"]))
        steps = steps[steps > 0] * positives  # in positives found
        assert len(steps) and np.allclose(steps, np.round(steps)), (seed, steps)
        assert steps.min() / positives > 0.10, (seed, steps)


# --- lesson 8: the kernel perceptron's region on the figure's grid ------------------------------

#: The figure's grid: STYLE's kernel resolution per axis over the box of the points
#: (ui/playback/plane.js: ``Points.grid(box, res, res)``).
GRID_N = STYLE["grid"]["kernel"]
#: A grid point is tinted when |f| is at least this share of the largest |f| on the grid:
#: plane.js gives the deepest tint to half the largest |f|, so this is a tenth of it.
TINTED = 0.05


@cache
def _lesson_8_end(seed: int, data_label: str, kernel_label: str, **setting):
    """Lesson 8's figure at the end: (f on the figure's grid, shape (GRID_N, GRID_N), row j
    at the j-th y; the grid's points; the ringed support points)."""
    request = LESSON_8.DataRequest(
        LESSON_8.DATA[data_label], (("n_samples", 200),), test_fraction=0.5, seed=seed
    )
    data = make_dataset(request)
    values = {"kernel": LESSON_8.KERNELS[kernel_label], "gamma": 1.0, "degree": 2, **setting}
    run = page_run("kernel", values, LESSON_8.EPOCHS, seed, data)
    x0, x1, y0, y1 = axis_box(data.X, data.X_test)
    gx, gy = np.meshgrid(np.linspace(x0, x1, GRID_N), np.linspace(y0, y1, GRID_N))
    points = np.c_[gx.ravel(), gy.ravel()]
    f = run.timeline.scores(points, run.timeline.n_events)
    return f.reshape(GRID_N, GRID_N), points, data.X[run.estimator.support_]


def _pieces(mask: np.ndarray) -> list[int]:
    """Sizes of the 4-connected pieces of ``mask`` on the grid."""
    labels, n = ndimage.label(mask)
    return [int(np.sum(labels == i)) for i in range(1, n + 1)]


def _tinted_pieces(f: np.ndarray) -> tuple[np.ndarray, list[int]]:
    """The tinted grid points and the sizes of their pieces, each of one sign."""
    tinted = np.abs(f) >= TINTED * np.abs(f).max()
    return tinted, _pieces(tinted & (f > 0)) + _pieces(tinted & (f < 0))


def _crossings(f: np.ndarray) -> int:
    """The most times the sign of f changes along one grid row or column."""
    positive = (f > 0).astype(int)
    along_rows = np.abs(np.diff(positive, axis=1)).sum(axis=1)
    along_columns = np.abs(np.diff(positive, axis=0)).sum(axis=0)
    return int(max(along_rows.max(), along_columns.max()))


def test_lesson_8_try_this_2_narrow_gaussians_make_islands_wide_ones_smooth_regions():
    """Try this 2: "Back on the Gaussian kernel, set **γ** to 100: each support point is now a
    narrow bump; the region breaks into islands around the ringed points. Then try 0.1: wide
    regions with smooth boundaries and no islands."

    Criterion on every seed 0-9 (XOR, the figure's 60 × 60 grid at the end of training; a
    grid point is tinted when |f| ≥ 5 % of the largest |f| on the grid, a tenth of the
    deepest tint): at γ = 100 the tinted points cover under 10 % of the grid, in at least 5
    pieces of one sign (islands) and more than at γ = 0.1, and none lies farther than 0.2 from
    a ringed point (2.8 bump widths 1/√(2γ)); at γ = 0.1 they cover at least 70 % of the grid
    in at most 4 pieces (XOR's quadrants), each at least 5 % of the grid, and the sign of f
    changes at most twice along any grid row or column (smooth).

    Measured: γ = 100: 3.4-7.7 % of the grid tinted, in 5-12 islands (10-18 ringed points),
    the farthest 0.16-0.18 from a ringed point; γ = 0.1: 75.8-87.3 % tinted in 3-4 pieces,
    the smallest 354 of 3,600 grid points, at most 2 sign changes per line. The sentence
    said "one wide, smooth boundary" before; the zero level at γ = 0.1 has 2-3 separate
    branches on every seed (XOR's boundary is two curves).
    """
    for seed in TEN_SEEDS:
        narrow, points, ringed = _lesson_8_end(seed, "XOR", "Gaussian (rbf)", gamma=100.0)
        wide, _, _ = _lesson_8_end(seed, "XOR", "Gaussian (rbf)", gamma=0.1)
        tinted, islands = _tinted_pieces(narrow)
        wide_tinted, regions = _tinted_pieces(wide)
        assert tinted.mean() < 0.10 and len(islands) >= 5, (seed, tinted.mean(), islands)
        assert len(islands) > len(regions), (seed, islands, regions)
        tinted_points = points[tinted.ravel()]
        nearest = np.min(np.linalg.norm(tinted_points[:, None] - ringed[None], axis=2), axis=1)
        assert nearest.max() <= 0.2, (seed, nearest.max())  # "around the ringed points"
        assert wide_tinted.mean() >= 0.70, (seed, wide_tinted.mean())  # "wide regions"
        assert len(regions) <= 4 and min(regions) >= 0.05 * GRID_N**2, (seed, regions)
        assert _crossings(wide) <= 2, seed  # "smooth boundaries"


def test_lesson_8_try_this_3_degree_1_is_a_line_degree_2_a_closed_curve_around_the_circle():
    """Try this 3: "Switch the **data** to two circles and the kernel to polynomial, then move
    the **degree** from 1 to 2: at d = 1 it is a line again (on some seeds outside the
    figure, which then shows one side only); at d = 2 the boundary becomes a closed curve,
    because x₁² + x₂² is one of the features."

    Criterion on every seed 0-9 (the figure's grid at the end of training): at d = 1, f on
    the grid is affine in the coordinates (the least-squares plane through it misses no grid
    point by more than 10⁻⁹ of the largest |f|), so its zero level is a line, and on at least
    one seed one sign covers the whole grid; at d = 2 the grid points with f > 0 form one
    4-connected piece that touches no edge of the grid and those with f < 0 one piece around
    it: the boundary between them is a closed curve.

    Measured: at d = 1 the plane misses by at most 7.7·10⁻¹⁴ of the largest |f|; the line
    lies outside the figure on seeds 2, 5 and 6 (the sentence did not say so before); at
    d = 2 the positive piece has 1,004-1,290 of the 3,600 grid points.
    """
    off_the_figure = 0
    for seed in TEN_SEEDS:
        line, points, _ = _lesson_8_end(seed, "Two circles", "Polynomial", degree=1)
        affine = np.c_[points, np.ones(len(points))]
        coefficients, *_ = np.linalg.lstsq(affine, line.ravel(), rcond=None)
        miss = np.abs(affine @ coefficients - line.ravel()).max()
        assert miss <= 1e-9 * np.abs(line).max(), (seed, miss)
        off_the_figure += bool(np.all(line > 0) or np.all(line <= 0))
        curve, _, _ = _lesson_8_end(seed, "Two circles", "Polynomial", degree=2)
        inside, n_inside = ndimage.label(curve > 0)
        edge = np.r_[inside[0], inside[-1], inside[:, 0], inside[:, -1]]
        assert n_inside == 1 and not edge.any(), (seed, n_inside)
        assert len(_pieces(curve <= 0)) == 1, seed
    assert off_the_figure >= 1  # "on some seeds outside the figure"


# --- lesson 10: the committee's borderline patterns ---------------------------------------------

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


# --- lesson 11: the chart of estimates --------------------------------------------------------

OPENING_11 = STUDIES["l11_estimates"].defaults


def _estimates(seed: int, test_share: float | None = None, k: int | None = None) -> dict:
    """Lesson 11's chart (``app_logic.studies_honest.estimates`` through the lesson's study,
    kept in the test session's cache folder); the page's opening share and k by default."""
    settings = {
        "test_share": OPENING_11["test_share"] if test_share is None else test_share,
        "k": OPENING_11["k"] if k is None else k,
        "seed": seed,
    }
    return result("l11_estimates", settings)


def _top_row_spread(seed: int, test_share: float) -> float:
    """Sample standard deviation of the top row's dots (one split each, τ = 0.5)."""
    return float(np.std(_estimates(seed, test_share)["single_fixed"], ddof=1))


@pytest.mark.parametrize("seeds", opening_then_ten_seeds(OPENING_11["seed"]))
def test_lesson_11_try_this_1_a_small_test_share_spreads_the_single_splits(seeds):
    """Try this 1: "Set the **test share** to 10 % (30 test examples): the dots spread
    further; at 50 % they tighten on most seeds, but each model now trains on only half the
    data."

    Criterion: the spread of the top row is the sample standard deviation of its 40 dots. On
    every seed it is larger at 10 % than at the opening 20 %, and smaller at 50 % than at
    10 %; "they tighten on most seeds": smaller at 50 % than at 20 % on more than half of
    the seeds, seed 0 (the opening one) among them.

    Measured on seeds 0-9: 5.3-8.5 points at 10 %, 3.9-5.6 at 20 %, 3.1-4.6 at 50 %; smaller
    at 50 % than at 20 % on 9 seeds, not on seed 1 (4.60 against 4.54 points). The sentence
    said "at 50 % they tighten" of every seed before.
    """
    assert round(N_DATA * 0.1) == 30
    tighter = 0
    for seed in seeds:
        spread = {share: _top_row_spread(seed, share) for share in (0.1, 0.2, 0.5)}
        assert spread[0.1] > spread[0.2] and spread[0.5] < spread[0.1], (seed, spread)
        tighter += spread[0.5] < spread[0.2]
        if seed == OPENING_11["seed"]:
            assert spread[0.5] < spread[0.2], spread
    assert tighter > len(seeds) / 2, tighter


def _double_cv_lower(seed: int, k: int) -> bool:
    """The green diamond (double CV's mean) left of the red × (the search's best)."""
    est = _estimates(seed, k=k)
    return t_interval(est["double_folds"])[0] < est["search_best"] - 1e-9


@pytest.mark.parametrize("seeds", opening_then_ten_seeds(OPENING_11["seed"]))
def test_lesson_11_try_this_2_selecting_on_the_test_part_lifts_the_reported_numbers(seeds):
    """Try this 2: "Compare the purple row with the blue one: they use the same splits, yet
    picking τ on each test part lifts the reported numbers (the research box gives both
    means) without any model getting better. The red × is the same selection with
    cross-validation; the green diamond of double CV does not select on its own test data
    and usually sits lower."

    Criterion: "lifts": the purple row's mean is above the blue row's at every test share the
    page offers; "usually sits lower": the green diamond (double CV's mean) lies left of the
    red × on at least 7 of seeds 0-9 at each k the page offers, and on the opening seed at
    the opening k = 10.

    Measured on seeds 0-9: purple above blue by 1.9-4.7 points at every share; green left of
    red on 8 seeds at k = 5, 7 at k = 10 and 7 at k = 20 (level with it or right of it:
    seeds 1 and 2 at k = 5; 2, 3 and 7 at k = 10; 0, 2 and 7 at k = 20).
    """
    for seed in seeds:
        for share in LESSON_11.TEST_SHARES:
            est = _estimates(seed, share)
            lift = est["single_best"].mean() - est["single_fixed"].mean()
            assert lift > 0, (seed, share, lift)
    if len(seeds) == 1:
        assert _double_cv_lower(seeds[0], OPENING_11["k"]), seeds
        return
    for k in LESSON_11.FOLDS:
        lower = [seed for seed in seeds if _double_cv_lower(seed, k)]
        assert len(lower) >= 0.7 * len(seeds), (k, lower)


@pytest.mark.parametrize("seeds", opening_then_ten_seeds(OPENING_11["seed"]))
def test_lesson_11_try_this_3_the_interval_changes_width_and_mostly_covers_the_truth(seeds):
    """Try this 3: "Set **folds k** to 5, then 20: the t-interval changes width, and it should
    cover the dotted line in most data draws. Change the **data seed** a few times to see
    how often."

    Criterion: at k = 5 and at k = 20 the orange bar's half-width differs from the opening
    k = 10's by at least 0.1 points on every seed; "in most data draws": at each of k = 5
    and 20 the bar (the 10-fold case is in ``tests/test_lesson_live_sentences.py``) covers
    the truth for τ = 0.5 on more than half of the seeds, and on the opening seed.

    Measured on seeds 0-9: half-widths 1.9-9.9 points at k = 5, 3.9-7.2 at k = 10, 4.2-6.1
    at k = 20, differing from k = 10's by 0.16 points or more; the bar covers the truth on 8
    seeds at k = 5 (not 3, 4) and 9 at k = 20 (not 4).
    """
    covered = {k: [] for k in (5, 20)}
    for seed in seeds:
        opening_half = t_interval(_estimates(seed)["cv_folds"])[1]
        for k in covered:
            est = _estimates(seed, k=k)
            mean, half = t_interval(est["cv_folds"])
            assert abs(half - opening_half) >= 0.001, (seed, k, half, opening_half)
            if abs(est["fresh_fixed"] - mean) <= half:
                covered[k].append(seed)
    for k, seeds_covered in covered.items():
        assert len(seeds_covered) > len(seeds) / 2, (k, seeds_covered)
        assert OPENING_11["seed"] not in seeds or OPENING_11["seed"] in seeds_covered, k
