"""Every lesson's computation question survives the page's own controls.

At every value of every control a page offers that changes the question (the
slider ends, each radio option, and every value a "try this" names), each
computation question has at least three distinct options and exactly one of
them is answered "Right.". The right option's place follows the seed, not the
formula: over seeds 0-9 it is not always in the same place.
"""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from perceptron_lab.lessons._questions import numeric_options
from tests.lessons import LESSON_DIR, TEN_SEEDS, assert_page_ok

#: Per lesson: the keys of its computation questions' radios, its seed control's opening
#: value, and the control settings walked (each from the opening state, set in order).
WALKS: dict[str, tuple[tuple[str, ...], int, list[dict]]] = {
    "01_the_perceptron_rule": (
        ("l01_calc_check",),
        0,
        [{"l01_eta": 0.05}, {"l01_eta": 2.0}, {"l01_eta": 0.1}],  # ends; try this 1
    ),
    "02_convergence": (("l02_calc_check",), 0, [{"l02_margin": 0.01}, {"l02_margin": 0.4}]),
    "03_when_data_are_not_separable": (
        ("l03_calc_check",),
        5,
        [
            {"l03_noise": 0.0},  # an end, and try this 2
            {"l03_noise": 0.3},
            {"l03_epochs": 5},
            {"l03_epochs": 60},
            {"l03_epochs": 31},  # try this 1
            {"l03_epochs": 32},
        ],
    ),
    "04_from_online_to_batch": (
        ("l04_calc_check",),
        4,
        [{"l04_noise": 0.0}, {"l04_noise": 0.3}],  # 0 %: an end and try this 2
    ),
    "05_margins": (
        ("l05_calc_check",),
        0,
        [
            {"l05_tau": 0.0},  # an end, and try this 1
            {"l05_tau": 2.0},  # an end, and try this 2
            {"l05_learner": "Thick separator"},  # try this 3
            {"l05_learner": "Thick separator", "l05_gamma": 0.0},
            {"l05_learner": "Thick separator", "l05_gamma": 4.0},
        ],
    ),
    "06_rare_positives": (
        ("l06_calc_check",),
        0,
        [
            {"l06_tau_pos": 0.0},  # an end, and try this 1
            {"l06_tau_pos": 2.0},
            {"l06_tau_neg": -0.5},  # an end, and try this 2
            {"l06_tau_neg": 0.1},
            {"l06_ratio": "1 : 10"},
            {"l06_ratio": "1 : 40"},  # try this 3
        ],
    ),
    "07_soft_margins": (
        ("l07_pcheck",),
        1,
        [
            {"l07_lam": 0.0},  # an end, and try this 1
            {"l07_lam": 4.0},
            {"l07_form": "λ-trick, kernel form (PAUM)"},  # try this 2
            {"l07_form": "λ-trick, kernel form (PAUM)", "l07_lam": 0.0},
            {"l07_form": "α-bound", "l07_alpha": 0},
            {"l07_form": "α-bound", "l07_alpha": 1},  # try this 3
            {"l07_form": "α-bound", "l07_alpha": 20},
        ],
    ),
    "08_kernels": (
        ("l08_kcheck",),
        0,
        [
            {"l08_gamma": 0.1},
            {"l08_gamma": 100.0},  # an end, and try this 2
            {"l08_kernel": "Linear"},  # try this 1
            {"l08_kernel": "Polynomial", "l08_degree": 1},
            {"l08_kernel": "Polynomial", "l08_degree": 6},
            {"l08_data": "Two circles", "l08_kernel": "Polynomial", "l08_degree": 2},  # try 3
            {"l08_data": "Two circles", "l08_gamma": 0.1},
            {"l08_data": "Two circles", "l08_gamma": 100.0},
        ],
    ),
    "09_winnow": (
        ("l09_bcheck",),
        0,
        [
            {"l09_k": 1},
            {"l09_k": 8},  # an end, and try this 1
            {"l09_m": 500},  # an end, and try this 2
            {"l09_m": 4000},
            {"l09_side": "Few active features per example (the perceptron's side)"},
        ],
    ),
    "10_parallel_perceptrons": (
        ("l10_acheck",),
        0,
        [
            {"l10_noise": 0.0},  # an end, and try this 2
            {"l10_noise": 0.3},  # an end, and try this 1
            {"l10_H": 1},  # an end, and try this 3
            {"l10_H": 7},
        ],
    ),
    "11_choosing_parameters": (
        ("l11_tcheck",),
        0,
        [
            {"l11_share": 0.1},  # an end, and try this 1
            {"l11_share": 0.5},
            {"l11_k": 5},  # the ends, and try this 2
            {"l11_k": 20},
        ],
    ),
}


def _widget(at: AppTest, key: str):
    """The widget with ``key``, whatever its kind."""
    for kind in ("select_slider", "slider", "radio", "number_input", "toggle"):
        try:
            return getattr(at, kind)(key=key)
        except KeyError:
            continue
    raise KeyError(f"no widget with key {key!r} on the page")


def _open(stem: str, seed: int, settings: dict) -> AppTest:
    """The page at ``seed`` with ``settings`` applied in order."""
    at = AppTest.from_file(str(LESSON_DIR / f"{stem}.py"), default_timeout=300)
    at.run()
    prefix = stem.split("_")[0]
    seed_key = f"l{prefix}_seed"
    if _widget(at, seed_key).value != seed:
        _widget(at, seed_key).set_value(seed).run()
    for key, value in settings.items():
        _widget(at, key).set_value(value).run()
    assert_page_ok(at)
    return at


def _right_option(at: AppTest, key: str, where: str) -> int:
    """Picks every option of the question ``key``: at least three distinct ones, exactly one
    answered "Right."; returns its index."""
    options = list(at.radio(key=key).options)
    assert len(options) >= 3 and len(set(options)) == len(options), (where, options)
    right = []
    for i, option in enumerate(options):
        at.radio(key=key).set_value(option).run()
        said = [s.value for s in at.success] + [e.value for e in at.error]
        verdicts = [s for s in said if s.startswith(("Right.", "Not quite."))]
        assert len(verdicts) == 1, (where, option, verdicts)
        if verdicts[0].startswith("Right."):
            right.append(i)
    at.radio(key=key).set_value(None).run()
    assert len(right) == 1, (where, options, right)
    return right[0]


@pytest.mark.parametrize("stem", list(WALKS))
def test_every_computation_question_has_one_right_option_at_every_control_value(stem):
    keys, opening, walks = WALKS[stem]
    for settings in [{}, *walks]:
        at = _open(stem, opening, settings)
        for key in keys:
            _right_option(at, key, f"{stem} seed {opening} {settings}")


@pytest.mark.slow
@pytest.mark.parametrize("stem", list(WALKS))
def test_the_right_options_place_varies_with_the_seed(stem):
    keys, _, _ = WALKS[stem]
    places = {key: set() for key in keys}
    for seed in TEN_SEEDS:
        at = _open(stem, seed, {})
        for key in keys:
            places[key].add(_right_option(at, key, f"{stem} seed {seed}"))
    assert all(len(p) > 1 for p in places.values()), places


@pytest.mark.parametrize("stem", list(WALKS))
def test_the_order_of_the_options_is_drawn_from_the_seed(stem):
    """Candidates that sort in the same order on every seed (the old pages sorted them by
    value, so a right answer between two slips always came second) land in several places."""
    keys, _, _ = WALKS[stem]
    values = {"right": 2.0, "half": 1.0, "double": 4.0, "squared": 16.0}
    for key in keys:
        prefix = key.removesuffix("check")
        places = {numeric_options(values, "right", ".1f", seed, prefix)[1] for seed in TEN_SEEDS}
        assert len(places) >= 3, (key, places)
