"""The app and the replay in forced colours (Windows' contrast themes), emulated in chromium
(``forced-colors: active``): the browser paints every background in the theme's background
colour, so a control drawn with backgrounds alone vanished (a switch, a slider, a picked radio
button's dot, a chosen segment, the replay's chosen "Play by"). Each is compared here with
itself in the other state, and with the page's empty background beside it: pixels, not styles,
since what matters is what the reader sees. (axe-core's run over every view in forced colours
is ``test_accessibility_browser.py``'s, beside its run in the normal mode.)
"""

from __future__ import annotations

import pytest

from tests.accessibility import colours, exported_page, open_exported
from tests.chromium import settle

pytestmark = pytest.mark.browser


@pytest.fixture
def forced(browser):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.emulate_media(forced_colors="active")
    yield page
    page.close()


def _shot(page, locator) -> bytes:
    locator.scroll_into_view_if_needed()
    page.wait_for_timeout(150)
    return page.screenshot(clip=locator.bounding_box())


def _drawn(page, shot: bytes) -> bool:
    """Whether a screenshot shows anything (more than one colour)."""
    return colours(page, shot) > 1


#: A switch's drawn track (its input is hidden beside it) in the playground's View section.
SWITCH = "label:has(> span > input[role=switch]) > span + div"


def test_a_switch_shows_and_shows_its_state(server, forced):
    page = forced
    page.goto(f"{server}/")
    settle(page, opened=True)
    on = page.locator("[data-testid=stCheckbox]", has_text="Decision region").locator(SWITCH)
    off = page.locator("[data-testid=stCheckbox]", has_text="True boundary").locator(SWITCH)
    assert (
        page.locator("[data-testid=stCheckbox]", has_text="Decision region")
        .locator("input")
        .is_checked()
    )
    shot_on, shot_off = _shot(page, on), _shot(page, off)
    assert _drawn(page, shot_on) and _drawn(page, shot_off)
    assert shot_on != shot_off


def test_a_slider_and_a_chosen_segment_show(server, forced):
    page = forced
    page.goto(f"{server}/")
    settle(page, opened=True)
    thumb = page.locator("[data-testid=stSlider] [role=group] > div > div:has(input)").first
    assert _drawn(page, _shot(page, thumb))
    formats = page.locator("[data-testid=stButtonGroup]").filter(has_text="png")
    png = formats.get_by_role("radio", name="png")
    assert png.get_attribute("aria-checked") == "true"
    chosen = _shot(page, png)
    formats.get_by_role("radio", name="svg").click()
    settle(page)
    assert png.get_attribute("aria-checked") == "false"
    assert _shot(page, png) != chosen


def test_a_picked_answer_looks_picked(server, forced):
    page = forced
    page.goto(f"{server}/convergence")
    settle(page, opened=True)
    question = page.locator("[data-testid=stRadio]").last
    options = question.locator("[data-testid=stRadioOption]")
    dot = "span + div > div:first-child"  # the drawn circle of an option
    before = _shot(page, options.nth(0).locator(dot))
    assert before == _shot(page, options.nth(1).locator(dot))  # nothing picked: alike
    options.nth(0).click()
    settle(page)
    assert _shot(page, options.nth(0).locator(dot)) != _shot(page, options.nth(1).locator(dot))


def _inside(page, locator, inset: int = 3) -> bytes:
    """A screenshot of ``locator`` without its edges (a neighbour's border or focus ring)."""
    box = locator.bounding_box()
    return page.screenshot(
        clip={
            "x": box["x"] + inset,
            "y": box["y"] + inset,
            "width": box["width"] - 2 * inset,
            "height": box["height"] - 2 * inset,
        }
    )


def test_the_chosen_play_by_shows(forced, tmp_path):
    page = forced
    open_exported(page, exported_page(tmp_path))
    units = page.get_by_role("group", name="Play by")
    example = units.get_by_role("button", name="example")
    pressed = _inside(page, example)
    units.get_by_role("button", name="update").click()
    page.mouse.move(0, 0)
    page.evaluate("() => document.activeElement.blur()")
    page.wait_for_timeout(150)
    assert example.get_attribute("aria-pressed") == "false"
    assert _inside(page, example) != pressed
