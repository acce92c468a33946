"""The checks that run over every lesson (pages, notation, questions), and the one on the
learner menu's KW line; how each kind of claim is checked: tests/lessons/helpers.py.
"""

from __future__ import annotations

import math
import random
import re

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from perceptron_core import MarginPerceptron
from perceptron_core.modes import MODES
from perceptron_lab.app_logic.datasource import DataRequest, make_dataset
from perceptron_lab.app_logic.learners import LEARNERS
from perceptron_lab.lessons import _questions
from perceptron_lab.lessons._basics import noisy_line
from perceptron_lab.lessons._notation import NOTATION, notation_table
from perceptron_lab.lessons._questions import numeric_options
from perceptron_lab.ui.lesson import SECTIONS
from tests.accessibility import skipped_levels, written_headings
from tests.lessons.helpers import _separable, _text
from tests.pages import (
    LESSON_DIR,
    ROOT,
    TEN_SEEDS,
    assert_page_ok,
    run_lesson,
)


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


STEMS = sorted(p.stem for p in LESSON_DIR.glob("[0-9]*.py"))


CALL = re.compile(r"^notation\((\(.*?\))\)$", re.M | re.S)


def _symbols(stem: str) -> tuple[str, ...]:
    match = CALL.search((LESSON_DIR / f"{stem}.py").read_text())
    assert match, f"{stem} does not call notation(...) at top level"
    return eval(match.group(1))  # a literal tuple of strings  # noqa: S307


@pytest.mark.parametrize("stem", STEMS)
def test_every_lesson_shows_its_rows_of_the_one_table(stem):
    symbols = _symbols(stem)
    assert {"x, y", "w, θ"} <= set(symbols)
    table = notation_table(symbols)  # raises on a symbol the table does not have
    assert table.count("\n") == len(symbols) + 1


def test_the_table_knows_no_symbol_twice_and_rejects_unknown_ones():
    names = [row[0] for row in NOTATION]
    assert len(names) == len(set(names))
    with pytest.raises(ValueError, match="not in the course's notation"):
        notation_table(("γ_kernel",))


#: Per lesson: the section (from its heading to the next call) where γ is a margin again.
MARGIN_SECTIONS = {"08_kernels": ("The kernel perceptron's bound, in feature space", "research(")}


@pytest.mark.parametrize(
    "stem, ours, note",
    [
        ("05_margins", r"\kappa", "(they write it $\\gamma$, which the lessons\nkeep"),
        ("08_kernels", r"\beta", "scikit-learn names it `gamma`, and the lessons\nkeep γ"),
        ("10_parallel_perceptrons", r"\rho", "Cantador & Dorronsoro call it\n$\\gamma$"),
    ],
)
def test_gamma_is_a_margin_only_and_the_papers_symbol_is_named_once(stem, ours, note):
    text = _text(stem)
    assert ours in text and note in text
    # a section where the lesson itself uses γ as lessons 2-4 do, a margin (lesson 8: Novikoff's
    # bound in the kernel's feature space), its notation box showing the row "u, γ"
    if stem in MARGIN_SECTIONS:
        assert "u, γ" in _symbols(stem)
        start, end = MARGIN_SECTIONS[stem]
        first = text.index(start)
        text = text[:first] + text[text.index(end, first) :]
    # the only γ left is in the note and in the notes' rule, quoted: no formula, label or
    # sentence of ours uses it
    named = ("call it", "write it", "keep", "kept for", "Promote if", "Demote if")
    for line in text.splitlines():
        if line.startswith("notation("):  # the box names the rows it shows
            continue
        if "γ" in line or r"\gamma" in line:
            assert any(w in line for w in named), (stem, line)


def _lessons_column(where: str) -> set[int]:
    """The notation table's "lessons" column as lesson numbers: "all", "1–5, 7", "8,
    playground" (the playground is not a lesson)."""
    if where == "all":
        return {int(stem[:2]) for stem in STEMS}
    numbers = set()
    for part in (p.strip() for p in where.split(",")):
        if part == "playground":
            continue
        first, _, last = part.partition("–")
        numbers |= set(range(int(first), int(last or first) + 1))
    return numbers


@pytest.mark.parametrize("row", NOTATION, ids=[row[0] for row in NOTATION])
def test_the_tables_lessons_are_the_lessons_that_show_the_symbol(row):
    """A row's "lessons" are exactly the lessons whose notation box shows it (the C row once
    left out lesson 8, whose dual update moves θ by η y C)."""
    symbol, _, where, _ = row
    showing = {int(stem[:2]) for stem in STEMS if symbol in _symbols(stem)}
    assert _lessons_column(where) == showing, (symbol, where, sorted(showing))


def test_a_lesson_that_writes_theta_init_shows_its_row():
    """θ_init is the one symbol of the table a lesson may write in passing (lesson 6 relates
    its margins to lesson 5's τ θ_init): where a lesson writes it, its box shows the row."""
    for stem in STEMS:
        text = _text(stem)
        if "θ_init" in text or r"\theta_{init}" in text:
            assert "θ_init" in _symbols(stem), stem


def test_the_table_gives_the_course_notes_own_symbols():
    """The course notes write the threshold θ (Θ for Winnow), never a bias b, and Winnow's
    promotion factor 2 ("w_i ← 2w_i"); the table must not credit them with b or α."""
    papers = {row[0]: row[3] for row in NOTATION}
    for clause in papers["w, θ"].split(";"):
        if "bias b" in clause:
            assert "course notes" not in clause, clause
    assert "course notes" not in papers["2"] or "α" not in papers["2"], papers["2"]


def _try_this(stem: str) -> tuple[list[str], str]:
    """The lesson's "try this" steps, and the rest of its source (without that call)."""
    import ast

    source = _text(stem)
    tree = ast.parse(source)
    calls = [
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.Call) and getattr(n.func, "id", None) == "try_this"
    ]
    rest = source
    for call in calls:
        rest = rest.replace(ast.get_source_segment(source, call), "")
    return [ast.literal_eval(arg) for call in calls for arg in call.args], rest


#: Words of a step that only the eyes follow: colours, marks, lines, regions.
SEEN = re.compile(
    r"\b(red|orange|blue|green|purple|black|grey|dotted|dashed|tint|arrow|ringed|square|"
    r"squares|diamond|dots|curves?|islands|band|view)\b|×"
)
#: Where what a screen-reader user hears and reads comes from: the replay's narration,
#: figure words, controls and panels, the math panel's words, the charts' words and
#: tables.
HEARD = [ROOT / "ui" / "playback" / f"{name}.js" for name in ("speech", "describe", "controls")]
HEARD += [ROOT / "ui" / "playback" / f"{name}.js" for name in ("extras", "chartwords")]
HEARD += [ROOT / "app_logic" / "math_panel.py", ROOT / "ui" / "charts.py"]


@pytest.mark.parametrize("stem", STEMS)
def test_every_try_this_step_for_the_eyes_says_what_a_screen_reader_gives(stem):
    """A "try this" step that points at a colour, a mark or a region also says what a
    screen-reader user hears or reads instead ("With a screen reader: ..."), and every
    phrase it quotes, every control it names in bold, is one the replay, its charts or the
    page really say (in their sources, or in the lesson's own labels)."""
    steps, rest = _try_this(stem)
    heard = "\n".join(path.read_text() for path in HEARD) + rest
    for step in steps:
        if not SEEN.search(step):
            continue
        assert "With a screen reader:" in step, (stem, step)
        clause = step.split("With a screen reader:", 1)[1]
        for quoted in re.findall(r'"([^"]+)"', clause) + re.findall(r"\*\*([^*]+)\*\*", clause):
            assert quoted.rstrip(".") in heard, (stem, quoted)


#: Per lesson: the playground's learner and setting whose symbol the lesson names.
PLAYGROUND_SYMBOLS = {
    "05_margins": ("thick", "gamma", r"\kappa"),
    "08_kernels": ("kernel", "gamma", r"\beta"),
}


@pytest.mark.parametrize("stem", sorted(PLAYGROUND_SYMBOLS))
def test_what_a_lesson_says_the_playground_writes_is_what_it_writes(stem):
    """The playground labels the thick separator's slab "Slab half-width κ" and the kernel
    width "Kernel width β" (its setting's parameter is still scikit-learn's ``gamma``): a
    lesson that names the playground's symbol names that one, and none of its sentences
    about the playground gives it γ."""
    learner, name, latex = PLAYGROUND_SYMBOLS[stem]
    label = next(s.label for s in LEARNERS[learner].settings if s.name == name)
    symbol = label.split()[-1]
    assert symbol in ("κ", "β"), label
    flat = " ".join(_text(stem).split())
    about = [s for s in re.split(r"(?<=[.;])\s", flat) if "playground" in s]
    assert about, stem
    for sentence in about:
        assert "γ" not in sentence and r"\gamma" not in sentence, sentence
        assert "`gamma`" not in sentence, sentence
    assert any(symbol in s or latex in s for s in about), about


def test_the_about_page_shows_the_whole_table():
    at = AppTest.from_file(str(ROOT / "app_pages" / "about.py"), default_timeout=120)
    at.run()
    assert not at.exception
    shown = "\n".join(m.value for m in at.markdown)
    assert notation_table() in shown
    assert any(h.value == "Notation" for h in at.header)


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
    "12_more_than_two_classes": (
        ("l12_calc_check",),
        0,
        [
            {"l12_margin": 0.01},  # an end, and try this 2
            {"l12_margin": 0.3},  # the other end
            {"l12_noise": 0.2},  # an end
            {"l12_noise": 0.1, "l12_mode": "averaged"},  # try this 3
            {"l12_mode": "voted"},
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


@pytest.fixture
def drawn(monkeypatch) -> dict:
    """What each computation question of the page's last run drew: ``{prefix: (options,
    seed)}``, spied on :func:`numeric_options`."""
    found = {}
    draw = _questions.numeric_options

    def spied(values, right, fmt, seed, prefix=""):
        options, answer, keys = draw(values, right, fmt, seed, prefix)
        found[prefix] = (options, seed)
        return options, answer, keys

    monkeypatch.setattr(_questions, "numeric_options", spied)
    return found


def _walked(stem: str, sampled: bool) -> list[dict]:
    """The settings a walk of ``stem`` visits: the opening state and every setting of
    :data:`WALKS`, or, ``sampled``, one of those settings drawn with a seed of its own (the
    same one on every run; most of them are a control's end)."""
    walks = WALKS[stem][2]
    return [random.Random(stem).choice(walks)] if sampled else [{}, *walks]


@pytest.mark.parametrize(
    "stem, sampled",
    [
        param
        for stem in WALKS
        for param in (
            pytest.param(stem, True, id=f"{stem}-sampled"),
            pytest.param(stem, False, id=f"{stem}-every", marks=pytest.mark.slow),
        )
    ],
)
def test_every_computation_question_has_one_right_option_at_every_control_value(
    stem, sampled, drawn
):
    """The fast suite walks one drawn setting per lesson; the test marked slow walks all.

    :func:`numeric_options` keeps the right option once and leaves out a slip that reads
    like an earlier option, so exactly one option is right by construction; what a setting
    can break is the choice: at least three options, the ones the page's radio offers.
    (Picking each option and reading the verdict: the check question's own test.)"""
    keys, opening, _ = WALKS[stem]
    for settings in _walked(stem, sampled):
        drawn.clear()
        at = _open(stem, opening, settings)
        where = f"{stem} seed {opening} {settings}"
        for key in keys:
            options, _ = drawn[key.removesuffix("check")]
            assert len(options) >= 3, (where, options)
            assert list(at.radio(key=key).options) == options, where


@pytest.mark.slow
@pytest.mark.parametrize("stem", list(WALKS))
def test_the_page_draws_the_options_order_from_its_seed_control(stem, drawn):
    """The page hands its seed control's value to :func:`numeric_options`, whose order
    changes with the seed (the test below): so the right option's place varies with the
    seed, without walking every option at ten seeds."""
    keys, opening, _ = WALKS[stem]
    for seed in (opening, opening + 1):
        drawn.clear()
        _open(stem, seed, {})
        for key in keys:
            assert drawn[key.removesuffix("check")][1] == seed, (key, drawn)


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


LESSONS = sorted(LESSON_DIR.glob("[0-9]*.py"))


def test_there_are_lessons():
    assert LESSONS, "no lessons/[0-9]*.py found"


@pytest.mark.parametrize("path", LESSONS, ids=[p.stem for p in LESSONS])
def test_lesson_runs_without_errors(path):
    # generous: the first numba compile of a learner takes seconds
    at = AppTest.from_file(str(path), default_timeout=300)
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    assert at.title, "a lesson starts with its title"
    # headings in order (WCAG 1.3.1): the sections are h2 under the title, none skips a level
    assert skipped_levels(written_headings(at.main)) == []
    # a table of contents whose every link has its section, and the code shown on request
    toc = next(m.value for m in at.markdown if m.value.startswith("On this page"))
    headings = {h.proto.anchor for h in at.header}
    for name, anchor in SECTIONS:
        assert f"[{name}](#{anchor})" in toc and anchor in headings
    switches = [t for t in at.toggle if t.label.startswith("`")]
    assert switches and not any(t.value for t in switches) and not at.code
    switches[0].set_value(True).run()
    name = switches[0].label.strip("`").rsplit(".", 1)[-1]
    assert len(at.code) == 1
    assert f"def {name}(" in at.code[0].value or f"class {name}" in at.code[0].value


def test_research_tables_show_a_dash_where_a_number_is_undefined():
    """st.dataframe writes "None" for a missing number whatever a Styler says (lesson 10's flag
    precision at 0 % noise did): such a column is shown as text with a dash."""
    import pandas as pd

    from perceptron_lab.lessons._charts import one_decimal

    shown = one_decimal(
        pd.DataFrame({"PP": [97.3, 88.25], "flag precision": [float("nan"), 85.14]})
    )
    assert shown.data["flag precision"].tolist() == ["—", "85.1"]
    assert shown.data["PP"].dtype.kind == "f"  # complete columns stay numbers (sortable)


#: lesson file stem -> (session prefix, index of the right answer of its check question)
CHECKS = {
    "01_the_perceptron_rule": ("l01_", 0),
    "02_convergence": ("l02_", 1),
    "03_when_data_are_not_separable": ("l03_", 1),
    "04_from_online_to_batch": ("l04_", 0),
    "05_margins": ("l05_", 1),
    "06_rare_positives": ("l06_", 0),
    "07_soft_margins": ("l07_", 1),
    "08_kernels": ("l08_", 1),
    "09_winnow": ("l09_", 1),
    "10_parallel_perceptrons": ("l10_", 0),
    "11_choosing_parameters": ("l11_", 1),
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
    for wrong in (i for i in range(len(radio.options)) if i != answer):
        at.radio(key=f"{prefix}check").set_value(radio.options[wrong]).run()
        assert any(e.value.startswith("Not quite.") for e in at.error)
        assert not at.success


def _lesson_2_answer(seed):
    from perceptron_lab.app_logic.diagnostics import novikoff_bound

    data = make_dataset(DataRequest("separable", (("margin", 0.1), ("n_samples", 60)), seed=seed))
    C = float(np.mean((data.X**2).sum(axis=1)))
    _, R, gamma = novikoff_bound(data.X, data.y, data.w_star, data.theta_star, 1.0, C, 0.0)
    return f"{(R / gamma) ** 2:,.0f}"


def _lesson_3_answer(seed):
    from perceptron_lab.lessons._bounds import noisy_mistake_bound

    data = make_dataset(noisy_line(seed, 0.1))
    C = float(np.mean((data.X**2).sum(axis=1)))
    _, gamma, D, R = noisy_mistake_bound(data.X, data.y, data.w_star, data.theta_star, C)
    return f"{(R / gamma) ** 2:,.1f}"  # the bound with D = 0: lesson 2's (R/γ)²


def _lesson_4_answer(seed):

    data = make_dataset(noisy_line(seed, 0.15))
    C = float(np.mean((data.X**2).sum(axis=1)))
    # clean labels: every point of the square within √(2 + C), at least 0.05 from the line
    u = np.r_[data.w_star, data.theta_star / np.sqrt(C)]
    bound = (np.sqrt(2 + C) / (0.05 / np.linalg.norm(u))) ** 2
    return f"{20 * bound - 1:,.0f}"  # the m with 2/(m + 1) × (R/γ)² = 0.1


def _lesson_5_answer(seed):
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


#: Per lesson, two seeds whose right answers differ (a question left from the first seed
#: fails at the second) and at which the lesson's own tests open its page too: its research
#: study is computed once per seed (seconds), then read by every test that opens it there.
CALC_SEEDS = {
    "02_convergence": (1, 3),
    "03_when_data_are_not_separable": (2, 5),  # 1.4 and 1.7 (at seeds 1 and 3: both 1.8)
    "04_from_online_to_batch": (1, 2),
    "05_margins": (3, 0),
    "06_rare_positives": (3, 0),
}


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
    for seed in CALC_SEEDS[stem]:
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


# ------------------------------------------------------------------ the lessons' exercises

#: The walk's widget keys as the facts a page hands its exercises name them, with the
#: widget's value turned into the fact's where they differ (ui/exercises.py, the lessons' ends).
EXERCISE_FACTS = {
    "l05_learner": ("learner", {"Thick separator": "thick"}),
    "l06_ratio": ("rate", {"1 : 10": 1 / 11, "1 : 20": 1 / 21, "1 : 40": 1 / 41}),
    "l07_lam": ("strength", {}),
    "l07_alpha": ("strength", {}),
    "l07_form": ("form", {"λ-trick, kernel form (PAUM)": "paum_lam", "α-bound": "alpha"}),
    "l08_kernel": ("kernel", {"Linear": "linear", "Polynomial": "poly"}),
    "l08_data": ("data_name", {"Two circles": "circles"}),
    "l09_side": (
        "side",
        {"Few active features per example (the perceptron's side)": "perceptron"},
    ),
    "l11_share": ("test_share", {}),
}


def _exercise_controls(settings: dict) -> dict:
    """A walk's widget settings as the facts of the page's exercises."""
    controls = {}
    for key, value in settings.items():
        name, values = EXERCISE_FACTS.get(key, (key.split("_", 1)[1], {}))
        controls[name] = values.get(value, value)
    if controls.get("form") == "alpha" and "strength" not in controls:
        controls["strength"] = 3  # the α slider's opening value
    return controls


def _every_exercise_has_a_right_answer(lesson: int, lesson_facts: dict, where) -> None:
    from perceptron_lab.app_logic.exercises import for_lesson
    from perceptron_lab.app_logic.exercises.model import check
    from tests.exercise_facts import right_response

    for exercise in for_lesson(lesson):
        # a setting to find, or the figure's questions, are the same at every attempt
        for variant in (0,) if exercise.kind in ("setting", "replay") else (0, 1):
            q = exercise.question(lesson_facts, variant)
            if q.form == "number":
                assert math.isfinite(q.answer), (exercise.id, where)
            elif q.form == "choice":
                assert 1 <= len(q.answer) < len(q.options), (exercise.id, where)
            elif q.form == "setting":
                assert q.answer and set(q.answer) <= set(q.values), (exercise.id, where)
                assert lesson_facts[q.control] in q.values, (exercise.id, where)
            elif q.form == "replay":  # the figure asks enough questions to reach the goal
                assert len(q.answer) >= q.needed[0] >= q.needed[1] > 0, (exercise.id, where)
            assert check(q, right_response(q)).right, (exercise.id, where, variant)


@pytest.mark.parametrize("stem", list(WALKS))
def test_every_exercise_keeps_a_right_answer_at_the_walks_control_values(stem):
    """The walk above, on the exercises' facts (no page: seconds cheaper); the study tables
    are of the studies' shape (tests/exercise_facts.py), the real ones are walked below."""
    from tests.exercise_facts import facts, tables

    lesson = int(stem[:2])
    for settings in [{}, *WALKS[stem][2]]:
        controls = _exercise_controls(settings)
        own = {**facts(lesson, studies=False, **controls), **tables(len(controls))}
        _every_exercise_has_a_right_answer(lesson, own, (stem, settings))


def _every_value(lesson: int) -> list[dict]:
    """Each control of a lesson's page at each of its values (the others at their opening),
    and the opening controls at data seeds 0-9."""
    from perceptron_lab.app_logic.exercises import lesson_03

    values = {
        1: {"eta": (0.05, 0.1, 0.2, 0.5, 1.0, 2.0)},
        2: {"margin": (0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.4)},
        3: {"noise": (0.0, 0.05, 0.1, 0.2, 0.3), "epochs": tuple(lesson_03.EPOCHS)},
        4: {"noise": (0.0, 0.05, 0.1, 0.15, 0.2, 0.3)},
        5: {"tau": (0.0, 0.125, 0.25, 0.5, 1.0, 2.0)},
        6: {"tau_pos": (0.0, 0.1, 0.25, 0.5, 1.0, 2.0), "tau_neg": (-0.5, -0.25, 0.0, 0.1),
            "rate": (1 / 11, 1 / 21, 1 / 41)},
        7: {"strength": (0.0, 0.125, 0.25, 0.5, 1.0, 2.0, 4.0),
            "form": ("kw_lam", "paum_lam")},
        8: {"kernel": ("rbf", "poly", "linear"), "gamma": (0.1, 0.3, 1.0, 3.0, 10.0, 30.0, 100.0),
            "degree": (1, 2, 3, 4, 6), "data_name": ("xor", "circles")},
        9: {"k": (1, 2, 3, 5, 8), "m": (500, 1000, 2000, 4000), "side": ("winnow", "perceptron")},
        10: {"noise": (0.0, 0.05, 0.1, 0.2, 0.3), "H": (1, 3, 5, 7)},
        11: {"test_share": (0.1, 0.2, 0.3, 0.5), "k": (5, 10, 20)},
        12: {"margin": (0.01, 0.02, 0.05, 0.1, 0.2, 0.3), "noise": (0.0, 0.05, 0.1, 0.2),
             "mode": MODES},
    }[lesson]  # fmt: skip
    walk = [{name: v} for name, options in values.items() for v in options]
    if lesson == 5:
        walk += [{"learner": "thick", "gamma": g} for g in (0.0, 0.25, 0.5, 1.0, 2.0, 4.0)]
    if lesson == 7:
        walk += [{"form": "alpha", "strength": a} for a in (0, 1, 2, 3, 5, 10, 20)]
    if lesson == 8:  # the degree slider is shown with the polynomial kernel
        walk = [c if "degree" not in c else {**c, "kernel": "poly"} for c in walk]
    return walk + [{"seed": seed} for seed in TEN_SEEDS]


@pytest.mark.slow
@pytest.mark.parametrize("stem", list(WALKS))
def test_every_exercise_keeps_a_right_answer_at_every_control_value(stem):
    """Every value of every control, one at a time, and ten data seeds, with the lab's real
    studies for the table exercises (minutes: each study at settings no page opened)."""
    from tests.exercise_facts import facts

    lesson = int(stem[:2])
    for controls in _every_value(lesson):
        _every_exercise_has_a_right_answer(lesson, facts(lesson, **controls), (stem, controls))
