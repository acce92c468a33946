"""The exported page in chromium, opened from ``file://`` with every other request blocked.

As a teacher's reader would open it: no server, no network. The figure draws, Step, Back,
the keys, Play and the scrubber move the counter exactly, and the page asked for nothing
outside its own file (every request is recorded, and any that is not ``file://`` fails).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import sync_playwright

from perceptron_lab.app_logic.datasource import DataRequest, make_dataset
from perceptron_lab.ui.standalone_page import run_page
from tests.chromium import launch
from tests.pages import page_run

pytestmark = pytest.mark.browser

#: (data request, learner, epochs): the playground's first view, and 50 features projected.
RUNS = {
    "default": (DataRequest("separable"), "perceptron", 20),
    "kw-50-features": (
        DataRequest("kw", (("n_features", 50), ("n_samples", 200)), seed=3),
        "kw",
        5,
    ),
    # no weight vector to project: the page says so, and the math panel still steps
    "kernel-50-features": (
        DataRequest("kw", (("n_features", 50), ("n_samples", 100)), seed=3),
        "kernel",
        2,
    ),
}


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as p:
        b = launch(p)
        yield b
        b.close()


def _page_file(tmp_path_factory, name):
    request, learner, epochs = RUNS[name]
    data = make_dataset(request)
    run = page_run(learner, {}, epochs, request.seed, data)
    path = tmp_path_factory.mktemp("pages") / f"{name}.html"
    path.write_text(run_page(run, data, request, epochs), encoding="utf-8")
    return path, run.timeline.n_events


@pytest.fixture(params=list(RUNS))
def opened(request, browser, tmp_path_factory):
    """The page open from file://, its number of steps and every request it made."""
    path, steps = _page_file(tmp_path_factory, request.param)
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    requested, errors = [], []

    def only_the_file(route):
        requested.append(route.request.url)
        if route.request.url.startswith(("file://", "blob:", "data:")):
            return route.continue_()
        return route.abort()

    context.route("**/*", only_the_file)
    page = context.new_page()
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(path.as_uri())
    page.wait_for_function("() => window.playback && window.playback.settled", timeout=30_000)
    yield page, steps, requested, path
    assert errors == []
    context.close()


def _counter(page) -> str:
    return page.locator(".readout").inner_text()


def _painted(page, t: int) -> None:
    page.wait_for_function("(t) => window.playback.painted === t", arg=t, timeout=10_000)


def test_the_page_plays_offline_with_every_control(opened):
    page, steps, requested, path = opened
    # the figure drew: a Plotly plot with its traces (or the notice of a learner without one)
    if page.evaluate("() => window.playback.scene.view") == "none":
        assert page.locator(".notice").is_visible()
        assert page.locator(".figure-box .js-plotly-plot").count() == 0
    else:
        assert page.locator(".figure-box .js-plotly-plot").first.is_visible()
        assert page.evaluate("() => document.querySelector('.js-plotly-plot').data.length") > 0
    assert _counter(page) == f"step 0 of {steps:,}"
    page.locator(".btn-step").click()
    _painted(page, 1)
    assert _counter(page) == f"step 1 of {steps:,}"
    for _ in range(4):
        page.locator(".btn-step").click()
    _painted(page, 5)
    page.locator(".btn-back").click()
    _painted(page, 4)
    page.keyboard.press("ArrowRight")
    _painted(page, 5)
    assert _counter(page) == f"step 5 of {steps:,}"
    assert "Epoch 1, example #" in page.locator(".math").inner_text()
    # the scrubber: a step in the middle of the run
    middle = steps // 2
    page.locator(".scrubber").evaluate(
        "(s, t) => { s.value = t; s.dispatchEvent(new Event('input')); }", middle
    )
    _painted(page, middle)
    assert _counter(page) == f"step {middle:,} of {steps:,}"
    # play: the counter moves on by itself, pause stops it
    page.locator(".speed").select_option("100")
    page.locator(".btn-play").click()
    page.wait_for_function("(t) => window.playback.painted > t + 10", arg=middle, timeout=10_000)
    page.locator(".btn-play").click()
    stopped = page.evaluate("() => window.playback.painted")
    page.wait_for_timeout(300)
    assert page.evaluate("() => window.playback.painted") == stopped > middle
    assert _counter(page) == f"step {stopped:,} of {steps:,}"
    page.locator(".btn-end").click()
    _painted(page, steps)
    # nothing was asked of anything but the file itself (and the blobs it made)
    assert requested[0] == path.as_uri()
    assert [url for url in requested if not url.startswith(("file://", "blob:", "data:"))] == []


def test_the_page_downloads_the_run_as_json_offline(opened):
    page, steps, _, _ = opened
    if page.evaluate("() => window.playback.scene.view") == "none":
        # as in the app: the exports belong to a figure, and this view has none
        assert page.locator("summary", has_text="Export").count() == 0
        return
    page.locator("summary", has_text="Export").click()
    with page.expect_download() as download:
        page.locator(".btn-json").click()
    assert download.value.suggested_filename == "perceptron-run.json"
