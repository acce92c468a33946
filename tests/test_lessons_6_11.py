"""Lessons 6–11: the check questions answer, and the numbers shown come from the code.

Each number test reads a number the page shows and recomputes it directly
with ``perceptron_core`` from the lesson's own data request or data draw;
most also change the lesson's seed and check that the number follows, so a
typed-in or stale figure fails.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from perceptron_core import KWPerceptron, Winnow
from perceptron_core.experiments import make_dataset as experiment_data
from perceptron_core.experiments import parameter_search, t_interval
from perceptron_core.kernel import KernelPerceptron
from perceptron_core.metrics import flag_precision_recall
from perceptron_core.parallel import ParallelPerceptron
from perceptron_core.rules.paum import PAUMPerceptron
from perceptron_lab.app_logic.datasource import make_dataset
from tests.lessons import assert_page_ok, lesson_module, metrics, percent, run_lesson
from tests.player_args import panel_value, player_args, shown

LESSON_DIR = Path(__file__).resolve().parents[1] / "lessons"
#: lesson file stem -> (session prefix, index of the right answer of its check question)
CHECKS = {
    "06_rare_positives": ("l06_", 0),
    "07_soft_margins": ("l07_", 1),
    "08_kernels": ("l08_", 1),
    "09_winnow": ("l09_", 1),
    "10_parallel_perceptrons": ("l10_", 0),
    "11_choosing_parameters": ("l11_", 1),
}


def _seed(at: AppTest, prefix: str, seed: int) -> None:
    """Set the lesson's seed."""
    at.number_input(key=f"{prefix}seed").set_value(seed).run()
    assert_page_ok(at)


def _at_end(at: AppTest, prefix: str, label: str, spec: str) -> str:
    """What the lesson's panel shows for ``label`` at the end of training (where it opens)."""
    args = player_args(at, f"{prefix}player")
    end = args["meta"]["lanes"][0]["n_events"]
    assert args["options"]["initial_t"] == end
    return shown(panel_value(args, label, end), spec)


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
    for wrong in (i for i in range(len(radio.options)) if i != answer):
        at.radio(key=f"{prefix}check").set_value(radio.options[wrong]).run()
        assert any(e.value.startswith("Not quite.") for e in at.error)
        assert not at.success


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


def test_lesson_7_test_accuracy_is_the_lambda_trick_runs():
    at = run_lesson("07_soft_margins")
    research = at.dataframe[0].value
    lesson = lesson_module("07_soft_margins")
    for seed in (1, 4):
        _seed(at, "l07_", seed)
        data = make_dataset(lesson.noisy_line(seed, lesson.NOISE))
        clf = KWPerceptron(lam=1.0, epochs=lesson.EPOCHS, random_state=seed).fit(data.X, data.y)
        assert _at_end(at, "l07_", "test accuracy of this line", ".1%") == (
            f"{clf.score(data.X_test, data.y_test):.1%}"
        )
    assert int(_at_end(at, "l07_", "rescued by the λ push", ".0f")) > 0
    at.select_slider(key="l07_lam").set_value(0.0).run()
    assert_page_ok(at)
    assert _at_end(at, "l07_", "rescued by the λ push", ".0f") == "0"  # no λ, no rescue
    assert not at.dataframe[0].value.equals(research)


def test_lesson_8_support_points_are_the_kernel_perceptrons():
    lesson = lesson_module("08_kernels")
    at = run_lesson("08_kernels")
    research = at.dataframe[0].value
    seen = set()
    for seed in (0, 2):
        _seed(at, "l08_", seed)
        request = lesson.DataRequest("xor", (("n_samples", 200),), test_fraction=0.5, seed=seed)
        data = make_dataset(request)
        clf = KernelPerceptron(kernel="rbf", gamma=1.0, epochs=lesson.EPOCHS, random_state=seed)
        clf.fit(data.X, data.y)
        numbers = (
            _at_end(at, "l08_", "support points (a_j > 0)", ".0f"),
            _at_end(at, "l08_", "sparsity (a_j = 0)", ".0f"),
            _at_end(at, "l08_", "test accuracy", ".1%"),
        )
        assert numbers == (
            str(len(clf.support_)),
            str(clf.sparsity_),
            f"{clf.score(data.X_test, data.y_test):.1%}",
        )
        seen.add(numbers)
    assert len(seen) == 2
    assert not at.dataframe[0].value.equals(research)  # the digits split follows the seed


def test_lesson_9_mistake_table_is_recomputed_from_the_draws():
    from perceptron_lab.app_logic import (
        studies_winnow as lesson,  # the lesson's draws and constants
    )

    at = run_lesson("09_winnow")
    table = at.dataframe[0].value
    n = lesson.NS[2]
    mistakes = []
    for r in range(lesson.DRAWS):
        X, y, *_ = lesson.draw(n, 3, 2000, 0, r)
        mistakes.append(Winnow(epochs=1, shuffle=False).fit(X, y).n_mistakes_)
    row = table[table["n features"] == n].iloc[0]
    assert row["Winnow mistakes"] == pytest.approx(np.mean(mistakes), abs=0.05)
    assert row["Winnow bound"] == pytest.approx(2 + 9 * (1 + np.log2(n)), abs=0.05)
    last = table.iloc[-1]
    assert last["Perceptron mistakes"] > 3 * last["Winnow mistakes"]  # the lesson's point
    at.number_input(key="l09_seed").set_value(1).run()
    assert_page_ok(at)
    assert not at.dataframe[0].value.equals(table)


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


def test_lesson_11_cv_interval_is_the_parameter_search():
    from perceptron_lab.app_logic import studies_honest as lesson  # the lesson's data and grid

    at = run_lesson("11_choosing_parameters")
    shown = {}
    for seed in (0, 5):
        _seed(at, "l11_", seed)
        X, y, _ = lesson.load(
            "kw", n_samples=lesson.N_DATA + lesson.N_FRESH, random_state=seed, **lesson.KW_DATA
        )
        data = [experiment_data(lesson.DATA_LABEL, X[: lesson.N_DATA], y[: lesson.N_DATA])]
        search = parameter_search(data, lesson.GRID, n_folds=10, seed=seed)
        folds = search.fold_accuracy[0, :, lesson.FIXED, -1, 0]
        shown[seed] = metrics(at)["10-fold CV, τ = 0.5"]
        assert shown[seed] == "{:.1%} ± {:.1%}".format(*t_interval(folds))
        fresh = KWPerceptron(tau=0.5, random_state=seed).fit(X[:300], y[:300])
        assert metrics(at)["Truth, τ = 0.5"] == f"{fresh.score(X[300:], y[300:]):.1%}"
    assert shown[0] != shown[5]
