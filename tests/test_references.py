"""The about page lists every work a lesson cites.

The citations are collected from the lessons' source: every author-and-year
mention in their prose ("Kearns et al. (1987)", "Block and Levin, 1970",
"ICML 2002") and every entry of their research boxes' references (split at
";"). Each must match one entry of ``lessons._references.REFERENCES`` (which
the about page renders) by a name and the year.
"""

from __future__ import annotations

import ast
import re
import unicodedata
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from perceptron_lab.lessons._references import REFERENCES

ROOT = Path(__file__).resolve().parents[1]
LESSONS = sorted((ROOT / "lessons").glob("[0-9]*.py"))

# "Kearns et al. (1987", "Block and Levin, 1970", "Burgsteiner & Maass (ICANN 2002", "Kohavi (1995"
PROSE_CITATION = re.compile(
    r"([A-Z][\w'\-]+)(?: et al\.| (?:&|and) [A-Z][\w'\-]+)?,? \(?(?:[A-Z]+ )?((?:19|20)\d\d)\b"
)
YEAR = re.compile(r"\b((?:19|20)\d\d)\b")
NAME = re.compile(r"\b([A-Z][a-z][\w'\-]*)")
NOT_NAMES = {"In", "On", "The", "Proc", "Proceedings", "Outside", "Theoretical"}


def _plain(text: str) -> str:
    """Accents dropped, so 'Mézard' in a lesson matches 'Mezard' and the other way round."""
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()


def _strings(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
    ]


def _research_references(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    refs = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "research":
            refs += ast.literal_eval(node.args[1]).replace("outside those papers:", ";").split(";")
    return [r.strip() for r in refs if r.strip()]


def citations(path: Path) -> set[tuple[str, str]]:
    """(a name, the year) for every work the lesson cites."""
    found = set()
    for text in _strings(path):
        flat = " ".join(text.split())
        found |= {(m.group(1), m.group(2)) for m in PROSE_CITATION.finditer(flat)}
    for ref in _research_references(path):
        year = YEAR.findall(ref)[-1]
        name = next(n for n in NAME.findall(ref) if n not in NOT_NAMES)
        found.add((name, year))
    return found


def listed(name: str, year: str) -> bool:
    return any(_plain(name) in _plain(e) and year in e for e in REFERENCES)


def test_the_collector_finds_the_citations_it_is_meant_to():
    # the pattern and the research boxes, checked on citations we know are there
    assert ("Kearns", "1987") in citations(ROOT / "lessons" / "03_when_data_are_not_separable.py")
    assert ("Block", "1970") in citations(ROOT / "lessons" / "03_when_data_are_not_separable.py")
    assert ("Varma", "2006") in citations(ROOT / "lessons" / "11_choosing_parameters.py")
    assert ("Aizerman", "1964") in citations(ROOT / "lessons" / "08_kernels.py")
    assert not listed("Nobody", "1999")


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem[:2])
def test_every_work_a_lesson_cites_is_in_the_references(lesson):
    missing = sorted(c for c in citations(lesson) if not listed(*c))
    assert not missing, f"{lesson.name} cites works the about page does not list: {missing}"


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem[:2])
def test_the_course_notes_are_listed_when_a_lesson_cites_them(lesson):
    if any("course notes" in s for s in _strings(lesson)):
        assert any("CS 446" in e and "course notes" in e for e in REFERENCES)


def test_the_about_page_shows_every_reference_and_the_whole_learner_table():
    at = AppTest.from_file(str(ROOT / "app_pages" / "about.py"), default_timeout=120)
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    shown = " ".join(m.value for m in at.markdown)
    for entry in REFERENCES:
        assert entry in shown
    assert not at.dataframe or len(at.dataframe) == 1  # only the warm-up table is a frame
    assert "| Perceptron (classic) |" in shown
