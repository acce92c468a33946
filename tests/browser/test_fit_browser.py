"""The playground fits a projector: figure and playback above the fold, nothing cut sideways.

At 1024 x 768 (a classroom projector) and 1280 x 720, in presentation mode
(``present=1``) and in the default view, for every learner of the menu: the
playback buttons show their words inside the window, the figure's
bottom is inside the window, and neither the page nor the component scrolls
sideways. Screenshots go to ``test-artifacts/fit-*.png``.
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


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("present", [True, False], ids=["present", "default"])
@pytest.mark.parametrize("learner", list(LINKS))
def test_figure_and_playback_fit_the_window(server, looking_page, size, present, learner):
    page = looking_page
    width, height = SIZES[size]
    page.set_viewport_size({"width": width, "height": height})
    frame = _open(page, server + LINKS[learner] + ("&present=1" if present else ""))
    page.wait_for_timeout(500)
    outer, inner = page.evaluate(PAGE_JS), frame.evaluate(FRAME_JS)
    page.screenshot(
        path=ARTIFACTS / f"fit-{learner}-{'present' if present else 'default'}-{size}.png"
    )
    assert outer["pageWidth"] <= width and outer["frameRight"] <= width  # no sideways scroll
    assert inner["scrollWidth"] <= inner["width"]  # nothing in the component runs past its edge
    assert inner["side"] <= inner["width"] and not inner["tableCut"]  # the math panel is whole
    words = [b["text"].split("\n")[0] for b in inner["buttons"]]
    assert words[:4] == ["Start", "Back", "Step", "Next update"] and "End" in words
    for button in inner["buttons"]:
        assert not button["cut"] and button["right"] <= inner["width"], button
        assert (
            outer["frameTop"] + button["top"] >= outer["headerBottom"] - 1
        )  # not under the header
    assert outer["frameTop"] + inner["plotBottom"] <= height  # the whole figure above the fold
