"""Every lesson page runs in Streamlit's AppTest without an exception or an error message.

Parametrised over the files the router lists (``lessons/[0-9]*.py``), so a
new lesson is tested as soon as it exists.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from perceptron_lab.ui.lesson import SECTIONS
from tests.accessibility import skipped_levels, written_headings

LESSONS = sorted((Path(__file__).resolve().parents[1] / "lessons").glob("[0-9]*.py"))


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
