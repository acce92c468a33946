"""A real screen reader hears the replay: Orca, on a virtual display, listening to chromium
over the accessibility bus (:mod:`tests.screen_reader`).

The other tests read what chromium's accessibility tree holds (the live region's text, the
names and roles); this one checks that a screen reader says it: each step's sentence, the
figure's walk by arrow keys, and the button that moved. The exported page carries the replay
(the same modules as the app's); Playwright presses the keys over the DevTools protocol, so
they reach the page directly, not through Orca's own key handling.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import sync_playwright

from perceptron_lab.app_logic.datasource import DataRequest, make_dataset
from tests.accessibility import exported_page
from tests.pages import page_run
from tests.screen_reader import chromium_app, orca_session

pytestmark = pytest.mark.browser

LIVE = "[role=status][aria-live=polite]"


def test_orca_says_each_step_and_a_walked_point(tmp_path):
    request = DataRequest("separable")
    data = make_dataset(request)
    run = page_run("perceptron", {}, 20, request.seed, data)
    tl = run.timeline
    page_file = exported_page(tmp_path)
    with (
        orca_session(tmp_path / "session") as (env, spoken),
        chromium_app(page_file.as_uri(), env, tmp_path) as endpoint,
        sync_playwright() as p,
    ):
        browser = p.chromium.connect_over_cdp(endpoint)
        page = browser.contexts[0].pages[0]
        page.wait_for_function("() => window.playback && window.playback.settled", timeout=90_000)
        spoken.wait_for(f"Finished loading {page.title()}", timeout=90)
        page.locator(".btn-step").focus()
        spoken.wait_for("Step push button")
        live = page.locator(LIVE)
        for t in (1, 2, 3):
            page.keyboard.press("Enter")
            j = int(tl.index[t - 1])
            sentence = f"Step {t} of {tl.n_events:,}, epoch 1: example {j + 1}, "
            page.wait_for_function(
                "([sel, s]) => document.querySelector(sel).textContent.startsWith(s)",
                arg=[LIVE, sentence],
            )
            said = live.text_content()
            assert said in spoken.wait_for(sentence)  # Orca said the region's words, all of them
        page.locator(".figure-box .js-plotly-plot").focus()
        page.keyboard.press("ArrowUp")
        point = f"Point {int(tl.index[2]) + 1} of {len(data.y)}, "
        page.wait_for_function(
            "([sel, s]) => document.querySelector(sel).textContent.startsWith(s)",
            arg=[LIVE, point],
        )
        assert live.text_content().rstrip("\u00a0") in spoken.wait_for(point)
        browser.close()
