"""A view waiting in the server's queue, in a real browser: its place said by the page's live
region, axe, and the keyboard alone to leave the queue and join it again.

The server is the app with its views gate held full (:mod:`tests.held_queue`): two views being
made and one waiting, until the test deletes the release file; then the page's view is made.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.accessibility import SERIOUS, audit
from tests.chromium import ARTIFACTS, ROOT
from tests.live import free_port, stop, wait_for_health

pytestmark = pytest.mark.browser

#: Every text the page's live region (``#pl-live``, ui/pages.js) was given, in order.
WATCH = """
window.saidOnPage = [];
new MutationObserver(() => {
  const region = document.getElementById('pl-live');
  const text = region && region.textContent.trim();
  if (text && text !== window.saidOnPage[window.saidOnPage.length - 1]) {
    window.saidOnPage.push(text);
  }
}).observe(document, {subtree: true, childList: true, characterData: true});
"""
PLACE = "1 view ahead of yours in the queue (2 being made now)."
FOCUSED = "() => document.activeElement && document.activeElement.innerText.trim()"


@pytest.fixture(scope="module")
def held(tmp_path_factory):
    """The held server's address, and the file whose deletion lets its queue move."""
    folder = tmp_path_factory.mktemp("held")
    release = folder / "release"
    release.touch()
    port = free_port()
    env = {
        **os.environ,
        "PERCEPTRON_LAB_VIEWS_AT_ONCE": "1",
        "PERCEPTRON_LAB_CLASS_DB": str(folder / "class.sqlite3"),
    }
    command = [sys.executable, "-m", "tests.held_queue", str(release), "--server.headless"]
    command += ["true", "--server.port", str(port), "--server.address", "127.0.0.1"]
    proc = subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_for_health(f"{url}/_stcore/health", proc)
        yield url, release
    finally:
        release.unlink(missing_ok=True)
        stop(proc)


def _serious(page) -> list:
    return [(v["id"], v["help"]) for v in audit(page) if v["impact"] in SERIOUS]


def _tab_to(page, name: str, most: int) -> None:
    """Press Tab until the focus is on ``name``, at most ``most`` times."""
    for _ in range(most):
        page.keyboard.press("Tab")
        if page.evaluate(FOCUSED) == name:
            return
    pytest.fail(f"{name!r} not reached in {most} Tab presses")


def test_a_waiting_view_by_screen_reader_and_keyboard(held, browser):
    url, release = held
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    page.add_init_script(WATCH)
    page.goto(url)
    page.locator(".queue-place", has_text=PLACE).wait_for(timeout=90_000)
    page.screenshot(path=str(ARTIFACTS / "waiting-1280.png"))

    # the page's live region (there since the page loaded) said the place
    page.wait_for_function(f"() => window.saidOnPage.some(t => t.endsWith({PLACE!r}))")
    region = page.locator("#pl-live")
    assert region.get_attribute("role") == "status"
    assert region.get_attribute("aria-live") == "polite"
    assert page.locator(".queue-place[role], .queue-place [role]").count() == 0  # said once
    assert _serious(page) == []

    # by the keyboard: past the menu and the sidebar with the skip link, to the queue's button
    page.keyboard.press("Tab")
    assert page.evaluate(FOCUSED) == "Skip to main content"
    page.keyboard.press("Enter")
    _tab_to(page, "Leave the queue", 3)
    page.keyboard.press("Enter")
    page.locator("[data-testid=stAlert]", has_text="You left the queue").wait_for(timeout=30_000)
    page.wait_for_function("() => window.saidOnPage.some(t => t.startsWith('You left the queue'))")
    assert page.locator(".queue-place").count() == 0
    assert _serious(page) == []
    page.screenshot(path=str(ARTIFACTS / "waiting-left-1280.png"))
    _tab_to(page, "Queue again", 3)  # the rerun left the focus at the page's start
    page.keyboard.press("Enter")
    page.locator(".queue-place", has_text=PLACE).wait_for(timeout=30_000)

    # a second visitor, on a phone, waits behind the first
    phone = browser.new_page(viewport={"width": 390, "height": 844})
    phone.goto(url)
    behind = "2 views ahead of yours in the queue (2 being made now)."
    phone.locator(".queue-place", has_text=behind).wait_for(timeout=90_000)
    phone.screenshot(path=str(ARTIFACTS / "waiting-390.png"))
    edge = phone.evaluate("() => document.querySelector('.queue-place').getBoundingClientRect()")
    assert edge["right"] <= 390, edge
    assert _serious(phone) == []

    # the queue moves: the held views end, each page's view is made and its region goes
    release.unlink()
    for each in (page, phone):
        each.wait_for_selector("iframe[title$='playback']", timeout=120_000)
        each.locator(".queue-place").wait_for(state="detached", timeout=30_000)
        each.close()
