"""The sentences a lesson writes next to live numbers agree with those numbers, seed by seed.

Each test recomputes what the page shows, with the page's own data request
and learner settings, over a range of the data seeds the page offers, and
checks the sentence's claim: lesson 6's second "try this" (uneven margins on
overlapping clouds) and lesson 11's truth lines against cross-validation.
The KW learner's one line in the menu quotes accuracies it measured; they are
recomputed too.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

from perceptron_core.experiments.stats import t_interval
from perceptron_lab.app_logic.datasource import make_dataset
from perceptron_lab.app_logic.learners import LEARNERS
from perceptron_lab.app_logic.studies_honest import estimates

ROOT = Path(__file__).resolve().parents[1]
SEEDS = range(30)


def _lesson(stem: str):
    """The lesson file as a module, for its data helpers (it renders nothing outside Streamlit)."""
    spec = importlib.util.spec_from_file_location(
        f"lesson_{stem}", ROOT / "lessons" / f"{stem}.py"
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


LESSON_6 = _lesson("06_rare_positives")
RARE_REQUEST, RATIOS = LESSON_6.rare_request, LESSON_6.RATIOS


def paum_end(seed: int, rate: float, tau_neg: float, tau_pos: float = 1.0):
    """Lesson 6's figure at the end: (converged, predicted positive, recall, precision)."""
    data = make_dataset(RARE_REQUEST(seed, rate))
    r2 = float(np.max(np.sum(data.X**2, axis=1)))
    settings = {"tau_pos": tau_pos * r2, "tau_neg": tau_neg * r2, "eta": 1.0, "lam": 0.0}
    est = LEARNERS["paum"].make(settings, 20, seed).fit(data.X, data.y)
    above = data.X_test @ est.coef_.ravel() + est.intercept_.ravel()[0] > 0
    hits = (above & (data.y_test > 0)).sum()
    precision = hits / above.sum() if above.any() else np.nan
    return est.converged_, int(above.sum()), hits / (data.y_test > 0).sum(), precision


@pytest.mark.parametrize("ratio", ["1 : 10", "1 : 20", "1 : 40"])
def test_lesson_6_tau_neg_moves_the_line_either_way_because_paum_never_converges(ratio):
    rate = RATIOS[ratio]
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
    _, n_even, recall_even, precision_even = paum_end(0, RATIOS["1 : 20"], 0.0)
    _, n_uneven, recall_uneven, precision_uneven = paum_end(0, RATIOS["1 : 20"], -0.5)
    assert n_uneven < n_even
    assert recall_uneven == recall_even and precision_uneven > precision_even


@pytest.mark.slow
def test_lesson_11_truth_sits_right_of_the_cv_mean_on_average_not_on_every_draw():
    # measured on seeds 0-19: 1.1 points to the right on average, on 16 of 20 draws
    seeds = range(12)
    gaps, covered = [], 0
    for seed in seeds:
        est = estimates(0.2, 10, seed)
        mean, half = t_interval(est["cv_folds"])
        gaps.append(est["fresh_fixed"] - mean)
        covered += abs(est["fresh_fixed"] - mean) <= half
    gaps = np.array(gaps)
    assert gaps.mean() > 0  # "averaged over data draws the truth sits a little to the right"
    assert (gaps < 0).any()  # "can put the mean on either side of it"
    assert gaps[5] < -0.02  # "seed 5 puts it well to the right"
    assert covered >= len(seeds) // 2  # try this 3: "cover the dotted line in most data draws"


def test_kw_learner_summary_quotes_the_accuracies_it_measured():
    """The KW entry's one line says what its switches did against the classic perceptron
    (mean test accuracy over seeds 0-4, 30 % test, 20 epochs, both learners' defaults), on
    the default data and on overlapping Gaussians: recomputed here, as the menu builds them."""
    import re

    from perceptron_lab.app_logic.datasource import DataRequest

    quoted = [float(x) for x in re.findall(r"(\d+(?:\.\d)?) %", LEARNERS["kw"].summary)[:4]]
    measured = []
    for name in ("separable", "gaussians"):
        for key in ("kw", "perceptron"):
            learner = LEARNERS[key]
            accuracy = []
            for seed in range(5):
                data = make_dataset(DataRequest(name, (), test_fraction=0.3, seed=seed))
                est = learner.make(learner.defaults(), 20, seed).fit(data.X, data.y)
                accuracy.append(est.score(data.X_test, data.y_test))
            measured.append(round(100 * float(np.mean(accuracy)), 1))
    assert quoted == measured  # 100, 98.7, 90.0, 76.0
