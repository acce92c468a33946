"""The playground in a real browser: Streamlit on localhost, driven by Playwright on chromium.

Uses Debian's chromium (``.ci/run`` installs it); Playwright's own browser
download does not work here. Missing chromium fails this test, on purpose.
Screenshots go to ``test-artifacts/`` (git-ignored) for a person to look at.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from live import CHROMIUM, CHROMIUM_ARGS
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "test-artifacts"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server():
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            "app.py",
            "--server.headless",
            "true",
            "--server.port",
            str(port),
            "--server.address",
            "127.0.0.1",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                if r.status == 200:
                    break
        except OSError:
            time.sleep(0.3)
    else:
        proc.kill()
        pytest.fail(f"streamlit did not start: {proc.stdout.read().decode()[-2000:]}")
    yield url
    proc.terminate()
    proc.wait(timeout=20)


@pytest.fixture(scope="module")
def page():
    assert shutil.which("chromium") or Path(CHROMIUM).exists(), (
        "Debian's chromium is missing: apt-get install -y chromium (CI's .ci/run does this)"
    )
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        # tall enough that a screenshot shows the figure's legend and the diagnostics
        pg = browser.new_page(viewport={"width": 1500, "height": 1900})
        yield pg
        browser.close()


def _figure_state(pg) -> dict:
    """The main figure's title and point count, read from Plotly in the page."""
    return pg.evaluate("""() => {
        const el = document.querySelector('.st-key-pg_figure .js-plotly-plot');
        return {title: el.layout.title.text, traces: el.data.length,
                shapes: JSON.stringify(el.data.filter(d => d.mode === 'lines').map(d => d.x))};
    }""")


def _math_text(pg) -> str:
    return pg.locator(".st-key-pg_math").inner_text()


def _wait_for_step(pg, previous_title: str) -> dict:
    pg.wait_for_function(
        """(old) => {
            const el = document.querySelector('.st-key-pg_figure .js-plotly-plot');
            return el && el.layout && el.layout.title.text !== old;
        }""",
        arg=previous_title,
        timeout=30_000,
    )
    pg.wait_for_timeout(300)
    return _figure_state(pg)


def test_stepping_through_training_changes_figure_and_math(server, page):
    page.goto(f"{server}/?noise=uniform&noise_rate=0.1&test=0.2&flips=1")
    page.wait_for_selector(".st-key-pg_figure .js-plotly-plot", timeout=90_000)
    page.wait_for_timeout(1000)
    start = _figure_state(page)
    assert "step 0 of" in start["title"]
    math_before = _math_text(page)
    assert "Before the first example" in math_before
    page.screenshot(path=ARTIFACTS / "playground-start.png", full_page=True)

    page.locator(".st-key-pg_step button").first.click()
    one = _wait_for_step(page, start["title"])
    assert "step 1 of" in one["title"]
    math_one = _math_text(page)
    assert math_one != math_before and "Epoch 1" in math_one

    page.locator(".st-key-pg_next_update button").first.click()
    upd = _wait_for_step(page, one["title"])
    math_upd = _math_text(page)
    assert math_upd != math_one
    assert "update" in math_upd.lower()
    page.screenshot(path=ARTIFACTS / "playground-update.png", full_page=True)

    page.keyboard.press("e")  # keyboard shortcut: to the end of the epoch
    epoch = _wait_for_step(page, upd["title"])
    assert epoch["shapes"] != start["shapes"]  # the line has moved since the start
    page.screenshot(path=ARTIFACTS / "playground-epoch.png", full_page=True)

    page.locator(".st-key-pg_back button").first.click()
    back = _wait_for_step(page, epoch["title"])
    assert back["title"] != epoch["title"]
    assert "t=" in page.url  # the step is in the link


def test_voted_view_and_link(server, page):
    page.goto(
        f"{server}/?learner=voted&data=gaussians&ensemble=1&averaged=1&longest=1&target=1&t=2500"
    )
    page.wait_for_selector(".st-key-pg_figure .js-plotly-plot", timeout=90_000)
    page.wait_for_timeout(1500)
    state = _figure_state(page)
    assert "step 2,500 of" in state["title"]
    names = page.evaluate("""() => document.querySelector('.st-key-pg_figure .js-plotly-plot')
                                     .data.map(d => d.name)""")
    assert "averaged" in names and "longest survivor" in names
    page.screenshot(path=ARTIFACTS / "playground-voted.png", full_page=True)


#: Plotly's own count of the points it drew in the "... train" traces (arrays arrive encoded).
TRAIN_POINTS_JS = """document.querySelector('.st-key-pg_figure .js-plotly-plot')._fullData
    .filter(d => (d.name || '').endsWith(' train')).reduce((n, d) => n + d._length, 0)"""


def _train_points(pg) -> int:
    """Training points drawn in the main figure (the markers of the "... train" traces)."""
    return pg.evaluate(f"() => {TRAIN_POINTS_JS}")


def _count_text(pg) -> str:
    return pg.locator(".st-key-pg_point_count").inner_text()


def _click_plot(pg, fx: float, fy: float) -> None:
    """Click at a fraction of the plot area (0, 0 is the top left corner)."""
    area = pg.locator(".st-key-pg_figure .nsewdrag").first.bounding_box()
    pg.mouse.click(area["x"] + fx * area["width"], area["y"] + fy * area["height"])


def test_a_click_on_the_plot_adds_a_point_and_another_removes_it(server, page):
    page.goto(f"{server}/?seed=5")
    page.wait_for_selector(".st-key-pg_figure .js-plotly-plot", timeout=90_000)
    page.wait_for_timeout(1000)
    assert _count_text(page).startswith("100 training points")
    assert _train_points(page) == 100

    _click_plot(page, 0.03, 0.03)  # the padded corner: empty space
    page.wait_for_function(
        "() => document.querySelector('.st-key-pg_point_count').innerText.includes('1 added')",
        timeout=30_000,
    )
    page.wait_for_timeout(500)
    assert _count_text(page).startswith("101 training points")
    assert "edits=" in page.url
    page.wait_for_function(f"() => {TRAIN_POINTS_JS} === 101", timeout=30_000)
    page.screenshot(path=ARTIFACTS / "playground-click-added.png", full_page=True)

    page.locator(".st-key-pg_click button", has_text="removes nearest").click()
    page.wait_for_timeout(1500)
    _click_plot(page, 0.03, 0.03)
    page.wait_for_function(
        "() => !document.querySelector('.st-key-pg_point_count').innerText.includes('added')",
        timeout=30_000,
    )
    assert _count_text(page).startswith("100 training points")
    assert "edits=" not in page.url
