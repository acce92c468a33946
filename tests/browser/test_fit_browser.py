"""The playground fits a projector: figure and playback above the fold, nothing cut sideways.

At 1024 x 768 (a classroom projector) and 1280 x 720, in presentation mode
(``present=1``) and in the default view, for every learner of the menu: the
playback buttons show their words inside the window, the figure's
bottom is inside the window, and neither the page nor the component scrolls
sideways. Screenshots go to ``test-artifacts/fit-*.png``.

Each view is opened once and resized, as a window already open is moved to the projector:
the page lays itself out again, and the figure takes its height from the window again
(:func:`test_a_resized_window_refits_the_figure`; docs/benchmarks.md,
"browser-tests-resized"), as it does when the page above it moves, and from where it is on
its page however far that is scrolled
(:func:`test_the_figure_fits_again_when_the_page_above_it_moves_and_not_when_it_scrolls`).
"""

from __future__ import annotations

import pytest

from perceptron_lab.app_logic.learners import LEARNERS
from tests.browser.test_e2e_browser import ARTIFACTS, SIZES, _open

pytestmark = pytest.mark.browser

#: Every learner of the menu; where the default data would hide what a learner
#: draws, a link that shows it.
LINKS = {
    **{key: f"/?learner={key}" for key in LEARNERS},
    "perceptron": "/?seed=1",
    "kw": "/?learner=kw&data=gaussians&noise=uniform&test=0.3",
    "voted": "/?learner=voted&data=xor",
    "kernel": "/?learner=kernel&data=circles",
    "parallel": "/?learner=parallel&data=gaussians&noise=uniform&t=400",  # the member table
}

PAGE_JS = """() => {
    const frame = document.querySelector("iframe[title$='playback']").getBoundingClientRect();
    const header = document.querySelector("[data-testid='stHeader']");
    return {frameTop: frame.top, frameRight: frame.right, width: innerWidth, height: innerHeight,
            pageWidth: document.documentElement.scrollWidth,
            headerBottom: header ? header.getBoundingClientRect().bottom : 0};
}"""
FRAME_JS = """() => {
    const box = (e) => e.getBoundingClientRect();
    return {width: document.documentElement.clientWidth,
            scrollWidth: document.documentElement.scrollWidth,
            plotBottom: box(document.querySelector('.plot .main-svg')).bottom,
            side: document.querySelector('.side') ? box(document.querySelector('.side')).right : 0,
            tableCut: [...document.querySelectorAll('.side table')]
                .some((t) => t.scrollWidth > t.clientWidth + 1),
            buttons: [...document.querySelectorAll('.buttons .btn')].map((b) => ({
                text: b.innerText.trim(), top: box(b).top, right: box(b).right,
                cut: b.scrollWidth > b.clientWidth + 1}))};
}"""


#: Milliseconds for a resized window's figure to be fitted again (the page waits 200 ms for the
#: window to stop changing, ``ui/playback/main.js``) and drawn; the figure fits the window
#: before its refit too (it only grows into a taller window).
REFIT_MS = 700
#: JavaScript: the main figure's height and bottom, its plot area's right and bottom edges and
#: its legend's left and top edges, in the frame.
FIGURE_JS = """() => {
    const plot = document.querySelector('.figure-box .js-plotly-plot'), L = plot._fullLayout;
    const figure = plot.querySelector('.main-svg').getBoundingClientRect();
    const legend = plot.querySelector('.legend').getBoundingClientRect();
    return {height: figure.height, bottom: figure.bottom,
            plotRight: figure.left + L.xaxis._offset + L.xaxis._length,
            plotBottom: figure.top + L.yaxis._offset + L.yaxis._length,
            legendLeft: legend.left, legendTop: legend.top};
}"""


@pytest.mark.parametrize("present", [True, False], ids=["present", "default"])
@pytest.mark.parametrize("learner", list(LINKS))
def test_figure_and_playback_fit_the_window(server, looking_page, present, learner):
    page, frame = looking_page, None
    url = server + LINKS[learner] + ("&present=1" if present else "")
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        if frame is None:
            frame = _open(page, url)
        page.wait_for_timeout(REFIT_MS)
        page.screenshot(
            path=ARTIFACTS / f"fit-{learner}-{'present' if present else 'default'}-{size}.png"
        )
        _assert_fits(page.evaluate(PAGE_JS), frame.evaluate(FRAME_JS), size)


def test_a_resized_window_refits_the_figure(server, looking_page):
    """Presentation mode opened at 1280x720, then the window made 1024x768 (taller, narrower):
    the figure grows into the taller window and its legend moves from beside the plot to under
    it, as in a page opened at 1024x768."""
    page = looking_page
    frame = _open(page, server + LINKS["perceptron"] + "&present=1")
    page.wait_for_timeout(REFIT_MS)
    before = frame.evaluate(FIGURE_JS)
    page.set_viewport_size({"width": 1024, "height": 768})
    # a loaded machine may run the page's timer late: wait for the new height, not a guess
    frame.wait_for_function(f"(h) => ({FIGURE_JS})().height > h", arg=before["height"] + 20)
    after = frame.evaluate(FIGURE_JS)
    assert before["legendLeft"] > before["plotRight"] - 1, before  # beside the plot
    assert after["legendTop"] > after["plotBottom"] - 1, after  # under it
    top = page.evaluate(PAGE_JS)["frameTop"]
    assert top + after["bottom"] <= 768


#: JavaScript: ``px`` pixels of page put above the playback's frame (0: taken away again), as
#: Streamlit's page may still be settling above the frame when the figure is built.
PUSH_DOWN_JS = """(px) => {
    const frame = document.querySelector("iframe[title$='playback']");
    let block = document.getElementById("pushed-down");
    if (!block) {
        block = document.createElement("div");
        block.id = "pushed-down";
        frame.before(block);
    }
    block.style.height = `${px}px`;
}"""
#: JavaScript: the page scrolled by ``px`` pixels (Streamlit scrolls a section of it, not the
#: window), then how far it went.
SCROLL_JS = """(px) => {
    let node = document.querySelector("iframe[title$='playback']");
    while (node && node.scrollHeight <= node.clientHeight + px) node = node.parentElement;
    node.scrollTop = px;
    return node.scrollTop;
}"""


def test_the_figure_fits_again_when_the_page_above_it_moves_and_not_when_it_scrolls(
    server, looking_page
):
    """Presentation mode at 1024x768: 40 px more page above the frame make the figure 40 px
    shorter, taken away again its first height; resized while the page is scrolled down, the
    figure takes the height it has unscrolled (not the room a frame scrolled up would have)."""
    page = looking_page
    page.set_viewport_size({"width": 1024, "height": 768})
    frame = _open(page, server + LINKS["perceptron"] + "&present=1")
    page.wait_for_timeout(REFIT_MS)
    first = frame.evaluate(FIGURE_JS)["height"]
    page.evaluate(PUSH_DOWN_JS, 40)
    frame.wait_for_function(f"(h) => ({FIGURE_JS})().height < h", arg=first - 1)
    assert frame.evaluate(FIGURE_JS)["height"] == pytest.approx(first - 40, abs=1)
    page.evaluate(PUSH_DOWN_JS, 0)
    frame.wait_for_function(f"(h) => ({FIGURE_JS})().height > h", arg=first - 1)
    assert frame.evaluate(FIGURE_JS)["height"] == pytest.approx(first, abs=1)
    assert page.evaluate(SCROLL_JS, 150) == 150
    for width, height in ((1280, 720), (1024, 768)):
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(REFIT_MS)
    assert frame.evaluate(FIGURE_JS)["height"] == pytest.approx(first, abs=1)


def _assert_fits(outer: dict, inner: dict, size: str) -> None:
    """What :data:`PAGE_JS` and :data:`FRAME_JS` measured fits a window of ``size``."""
    width, height = SIZES[size]
    assert outer["pageWidth"] <= width and outer["frameRight"] <= width, size  # no sideways
    assert inner["scrollWidth"] <= inner["width"], size  # nothing runs past the component's edge
    assert inner["side"] <= inner["width"] and not inner["tableCut"], size  # the math panel
    words = [b["text"].split("\n")[0] for b in inner["buttons"]]
    assert words[:4] == ["Start", "Back", "Step", "Next update"] and "End" in words, size
    for button in inner["buttons"]:
        assert not button["cut"] and button["right"] <= inner["width"], (size, button)
        # not under the header
        assert outer["frameTop"] + button["top"] >= outer["headerBottom"] - 1, (size, button)
    assert outer["frameTop"] + inner["plotBottom"] <= height, size  # the whole figure shows
