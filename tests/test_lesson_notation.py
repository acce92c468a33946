"""One notation across the course: every lesson shows its rows of the one table, the about
page shows the whole table, and a symbol means one thing (γ: a margin of lessons 2-4 and 6;
the thick separator's slab is κ, the kernel width β, the parallel perceptron's margin ρ),
with the papers' symbols named where ours differ."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from perceptron_lab.lessons._notation import NOTATION, notation_table
from tests.lessons import LESSON_DIR

ROOT = Path(__file__).resolve().parents[1]
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


def _text(stem: str) -> str:
    return (LESSON_DIR / f"{stem}.py").read_text()


@pytest.mark.parametrize(
    "stem, ours, note",
    [
        ("05_margins", r"\kappa", "(they write it $\\gamma$, as does the\nplayground's"),
        ("08_kernels", r"\beta", "scikit-learn and the\nplayground's setting call it `gamma`"),
        ("10_parallel_perceptrons", r"\rho", "Cantador & Dorronsoro call it\n$\\gamma$"),
    ],
)
def test_gamma_is_a_margin_only_and_the_papers_symbol_is_named_once(stem, ours, note):
    text = _text(stem)
    assert ours in text and note in text
    # the only γ left is in the note and in the notes' rule, quoted: no formula, label or
    # sentence of ours uses it
    named = ("call it", "write it", "keep", "kept for", "Promote if", "Demote if")
    for line in text.splitlines():
        if "γ" in line or r"\gamma" in line:
            assert any(w in line for w in named), (stem, line)


def test_lesson_6_relates_its_margins_units_to_lesson_5s():
    text = _text("06_rare_positives")
    assert r"lesson 5's $\tau = t R^2/\theta_{init}$ asks" in text
    assert "Li et\nal.'s bias $b$ is the other lessons' $-\\theta$" in text


def test_the_about_page_shows_the_whole_table():
    at = AppTest.from_file(str(ROOT / "app_pages" / "about.py"), default_timeout=120)
    at.run()
    assert not at.exception
    shown = "\n".join(m.value for m in at.markdown)
    assert notation_table() in shown
    assert any(h.value == "Notation" for h in at.header)
