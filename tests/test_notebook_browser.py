"""The notebook widget in a real JupyterLab, driven by chromium as a researcher uses it.

The test starts JupyterLab (tests/jupyter.py) with a notebook whose cell calls
``show(...)``, runs the cell, and checks that the replay's figure appears, that Step
advances the counter exactly and that Play advances it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

from perceptron_lab.app_logic.learners import LEARNERS
from tests.browser import launch
from tests.jupyter import (
    FRAME,
    jupyterlab,
    open_notebook,
    run_cell,
    run_replay_cell,
    write_notebook,
)

pytestmark = pytest.mark.browser

CELL = """
from perceptron_core.datasets import load
from perceptron_lab.widget import show
X, y, info = load("gaussians", n_samples=120, random_state=1)
show("{learner}", X, y, epochs=5)
"""


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    folder = tmp_path_factory.mktemp("lab")
    write_notebook(folder / "voted.ipynb", CELL.format(learner="voted"))
    with jupyterlab(folder) as (url, token):
        yield url, token, folder


def test_show_replays_in_jupyterlab(lab):
    url, token, _ = lab
    with sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        open_notebook(page, url, token, "voted.ipynb")
        frame, _ = run_replay_cell(page)
        steps = frame.evaluate("() => window.playback.lanes[0].E")
        assert steps == 120 * 5
        assert frame.locator(".readout").inner_text() == f"step 0 of {steps}"
        frame.locator(".btn-step").click()
        frame.wait_for_function("() => window.playback.painted === 1")
        assert frame.locator(".readout").inner_text() == f"step 1 of {steps}"
        frame.locator(".btn-step").click()
        frame.wait_for_function("() => window.playback.painted === 2")
        assert frame.locator(".readout").inner_text() == f"step 2 of {steps}"
        frame.locator(".btn-play").click()
        frame.wait_for_function("() => window.playback.painted > 4", timeout=10_000)
        frame.locator(".btn-play").click()
        assert frame.evaluate("() => window.playback.painted") > 4
        browser.close()


SETUP = """
from perceptron_core.datasets import load
from perceptron_lab.widget import show
X2, y2, _ = load("gaussians", n_samples=60, random_state=1)
Xkw, ykw, _ = load("kw", n_features=50, n_samples=100, random_state=2)
"""
#: (learner, data): every learner of the menu on 2-D data and on a KW set with 50 features.
CASES = [(key, data) for key in LEARNERS for data in ("2-D", "KW 50 features")]
CASE_CELL = {
    "2-D": 'show("{}", X2, y2, epochs=3)',
    "KW 50 features": 'show("{}", Xkw, ykw, epochs=2)',
}


def test_show_replays_every_learner_on_2d_and_on_50_features(lab):
    url, token, _ = lab
    cells = [CASE_CELL[data].format(key) for key, data in CASES]
    write_notebook(Path(lab[2]) / "every.ipynb", SETUP, *cells)
    seen = []
    with sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        open_notebook(page, url, token, "every.ipynb")
        run_cell(page, 1)
        for i, (key, data) in enumerate(CASES):
            frame, _ = run_replay_cell(page, prompt=i + 2)
            steps = frame.evaluate("() => window.playback.lanes[0].E")
            drawn = frame.evaluate("""() => {
                const lane = window.playback.lanes[0].meta, scene = window.playback.scene;
                const figure = !!document.querySelector('.figure-box .js-plotly-plot');
                const notice = !!document.querySelector('.notice');
                return {view: scene.view, projects: lane.hypotheses === 'projection',
                        figure, notice, title: lane.title};
            }""")
            frame.locator(".btn-step").click()
            frame.wait_for_function("() => window.playback.painted === 1")
            frame.locator(".btn-step").click()
            frame.wait_for_function("() => window.playback.painted === 2")
            counter = frame.locator(".readout").inner_text()
            seen.append((key, data, drawn, counter, steps))
            # done with it: its frame leaves the page (32 replays at once would fill memory)
            page.evaluate(f"() => document.querySelector('{FRAME}').remove()")
        browser.close()
    assert [(key, data) for key, data, *_ in seen] == CASES
    for key, data, drawn, counter, steps in seen:
        assert drawn["title"] == LEARNERS[key].title
        assert counter == f"step 2 of {steps:,}", (key, data)
        if data == "2-D":
            assert drawn["view"] == "plane" and drawn["figure"], (key, drawn)
        elif drawn["projects"]:
            assert drawn["view"] == "projection" and drawn["figure"], (key, drawn)
        else:  # a curved boundary or a committee: the page says to use 2-D data
            assert drawn["notice"] and not drawn["figure"], (key, drawn)
    # every linear learner projects its weight vector
    assert {k for k, d, drawn, *_ in seen if d != "2-D" and drawn["projects"]} == {
        k for k, learner in LEARNERS.items() if learner.boundary == "line"
    }
