"""The notebook widget in a real JupyterLab, driven by chromium as a researcher uses it.

The test starts JupyterLab (tests/jupyter.py) with a notebook whose cell calls
``show(...)``, runs the cell, and checks that the replay's figure appears, that Step
advances the counter exactly and that Play advances it.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import sync_playwright

from tests.browser import launch
from tests.jupyter import jupyterlab, open_notebook, run_first_cell, write_notebook

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
        yield url, token


def test_show_replays_in_jupyterlab(lab):
    url, token = lab
    with sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        open_notebook(page, url, token, "voted.ipynb")
        frame, _ = run_first_cell(page)
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
