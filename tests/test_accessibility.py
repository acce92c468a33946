"""What the pages do for people with disabilities, checked without a browser (WCAG 2.1 AA):
every page has its own title, headings do not skip a level, and every chart of the lessons
and the experiments page has its text alternative. The browser's checks (axe-core, focus,
small screens) are in ``tests/test_accessibility_browser.py``.
"""

from __future__ import annotations

import re
from pathlib import Path

import plotly.graph_objects as go
import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from perceptron_lab.ui.charts import describe, numbers
from perceptron_lab.ui.lesson import document_title, lessons
from tests.accessibility import skipped_levels, written_headings

ROOT = Path(__file__).resolve().parents[1]
ROUTER = str(ROOT / "router.py")


def test_every_page_has_its_own_title():
    """WCAG 2.4.2: a tab, a bookmark and a screen reader's first words name the page."""
    titles = [
        document_title(name, lesson=False) for name in ("Playground", "Experiments", "About")
    ]
    titles += [document_title(title, lesson=True) for _, title in lessons(ROOT / "lessons")]
    assert len(set(titles)) == len(titles) == 15
    assert "Lesson 3 · When data are not separable — Perceptron Lab" in titles


def test_the_router_gives_the_page_its_title(monkeypatch):
    given = []
    real = st.set_page_config
    monkeypatch.setattr(
        st, "set_page_config", lambda **kw: (given.append(kw["page_title"]), real(**kw))
    )
    at = AppTest.from_file(ROUTER, default_timeout=120)
    at.run()
    at.switch_page("app_pages/about.py").run()
    assert not at.exception, [e.message for e in at.exception]
    assert given == ["Playground — Perceptron Lab", "About — Perceptron Lab"]


@pytest.mark.parametrize("page", ["app_pages/about.py", "app_pages/experiments.py"])
def test_headings_do_not_skip_a_level(page):
    at = AppTest.from_file(str(ROOT / page), default_timeout=120)
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    found = written_headings(at.main)
    assert found[0][0] == 1 and skipped_levels(found) == [], found


def test_the_playgrounds_headings_do_not_skip_a_level():
    """The page's title is its h1; the sidebar's sections (Live class, Data, Learner, View)
    are h2."""
    at = AppTest.from_file(ROUTER, default_timeout=120)
    at.run()
    main, sidebar = written_headings(at.main), written_headings(at.sidebar)
    assert main[0] == (1, "Playground") and skipped_levels(main) == []
    assert [h for h, _ in sidebar] == [2, 2, 2, 2], sidebar
    assert skipped_levels(sidebar, above=1) == []


def test_every_chart_of_the_pages_has_its_text_alternative():
    """WCAG 1.1.1: the lessons and the experiments page draw their Plotly charts through
    ui.charts.chart, which adds the caption and the table of numbers (and leaves out Plotly's
    toolbar, a dozen Tab stops per chart)."""
    direct = [
        f"{path.relative_to(ROOT)}:{n}"
        for folder in ("lessons", "app_pages", "ui")
        for path in sorted((ROOT / folder).glob("*.py"))
        if path.name != "charts.py"
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"\.plotly_chart\(", line)
    ]
    assert direct == []


def test_a_charts_numbers_and_caption_say_what_it_draws():
    """Two series on two y axes (lesson 10's p-delta chart): every point in the table, each
    series' first and last point in the caption."""
    fig = go.Figure()
    fig.add_scatter(x=[1, 2, 3], y=[22, 15, 13], name="committee mistakes")
    fig.add_scatter(x=[1, 2, 3], y=[0.0675, 0.5, 0.819], name="margin γ", yaxis="y2")
    fig.update_layout(
        xaxis_title="epoch", yaxis_title="mistakes", yaxis2={"title": "γ", "overlaying": "y"}
    )
    table = numbers(fig)  # one row per epoch, a column per series naming its axis
    assert table.columns.tolist() == ["epoch", "committee mistakes (mistakes)", "margin γ (γ)"]
    assert table.values.tolist()[2] == ["3", "13", "0.819"]
    assert describe(fig).startswith(
        "Chart of mistakes against epoch. committee mistakes: from 22 at 1 to 13 at 3. "
        "margin γ: from 0.0675 at 1 to 0.819 at 3."
    )


def test_a_chart_whose_rows_are_named_reads_by_row():
    """Dots spread over named rows (lesson 9's weights, lesson 11's estimates): the table names
    the row, not the jittered height; the caption gives each row's count and range."""
    fig = go.Figure()
    for row, values in enumerate(([0.8, 0.9, 0.7], [0.6, 0.65])):
        fig.add_scatter(x=values, y=[row + 0.1, row - 0.1, row][: len(values)], name="split")
    fig.add_scatter(x=[0.75, 0.75], y=[-0.5, 1.5], mode="lines", name="truth: 75.0%")
    fig.update_layout(
        xaxis={"title": "accuracy", "tickformat": ".0%"},
        yaxis={"tickvals": [0, 1], "ticktext": ["one split", "CV"]},
    )
    assert numbers(fig)["y"].tolist() == ["one split"] * 3 + ["CV"] * 2 + ["one split", "CV"]
    assert numbers(fig)["accuracy"].tolist()[:3] == ["80.0%", "90.0%", "70.0%"]
    assert describe(fig) == (
        "Chart of accuracy, in rows: one split; CV. split, one split: 3 values from 70.0% to "
        "90.0%. split, CV: 2 values from 60.0% to 65.0%. truth: 75.0%. Every value is in the "
        'table "The numbers" below.'
    )


def test_a_heat_maps_numbers_are_its_grid():
    fig = go.Figure(go.Heatmap(z=[[80.5, 81.0], [79.25, None]], x=["0.1", "∞"], y=["0", "1"]))
    fig.update_layout(xaxis_title="λ", yaxis_title="τ", title="τ × λ")
    assert numbers(fig).values.tolist() == [["0", "80.5", "81"], ["1", "79.25", ""]]
    assert describe(fig).startswith("Heat map “τ × λ” of a value for each τ and λ.")


def _words(text: str) -> str:
    """Markdown's words: no quote markers, no emphasis, one space between words."""
    return " ".join(re.sub(r"^> ?", "", text, flags=re.MULTILINE).replace("**", "").split())


def test_the_statement_says_the_same_on_the_about_page_and_in_the_docs():
    """The accessibility statement's date, status and exception are one in both places."""
    at = AppTest.from_file(str(ROOT / "app_pages" / "about.py"), default_timeout=120)
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    page = _words("\n".join(str(m.value) for m in at.markdown))
    docs = _words((ROOT / "docs" / "accessibility.md").read_text(encoding="utf-8"))
    (reviewed,) = re.findall(r"reviewed on (\d+ \w+ \d{4})", page)
    exception = re.search(r"The exception: (.*?) From the keyboard", page).group(1)
    for said in (f"reviewed on {reviewed}", "Status: partially conformant.", exception):
        assert said in page and said in docs, said
    assert "2.1.1 Keyboard" in exception
