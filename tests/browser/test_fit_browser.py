"""The playground fits a projector: figure and playback above the fold, nothing cut sideways.

At 1024 x 768 (a classroom projector) and 1280 x 720, in presentation mode
(``present=1``) and in the default view, for every learner of the menu: the
playback buttons show their words inside the window, the figure's
bottom is inside the window, and neither the page nor the component scrolls
sideways. Screenshots go to ``test-artifacts/fit-*.png``.

In presentation mode the figure takes its height from the window the page opens in (a
window resized later keeps it), so that view is opened at each size. The default view lays
itself out again when the window is resized: it is opened once and resized, which was
checked to measure the same as a page opened at that size, for every link, both ways
(docs/benchmarks.md, "browser-tests-resized").
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


@pytest.mark.parametrize("present", [True, False], ids=["present", "default"])
@pytest.mark.parametrize("learner", list(LINKS))
def test_figure_and_playback_fit_the_window(server, looking_page, present, learner):
    page, frame = looking_page, None
    url = server + LINKS[learner] + ("&present=1" if present else "")
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        if present or frame is None:
            frame = _open(page, url)
        page.wait_for_timeout(500)
        page.screenshot(
            path=ARTIFACTS / f"fit-{learner}-{'present' if present else 'default'}-{size}.png"
        )
        _assert_fits(page.evaluate(PAGE_JS), frame.evaluate(FRAME_JS), size)


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
