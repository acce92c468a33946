"""Debian's chromium for the browser tests, the playback frontend served without a server, and
the wait until a Streamlit page has settled.

Playwright's own browser download does not work here; ``.ci/run`` installs
Debian's chromium and its headless shell. Without them the tests that need them are
skipped, or fail under CI (:func:`tests.programs.program`).
"""

from __future__ import annotations

import base64
import json
import mimetypes
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import sync_playwright

from tests.programs import program

ROOT = Path(__file__).resolve().parents[1]
#: Where browser tests leave their screenshots (a folder the repository ignores).
ARTIFACTS = ROOT / "test-artifacts"
PLAYBACK = ROOT / "ui" / "playback"
#: Where Debian's package puts chromium (the benchmarks launch it from there).
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
#: The origin under which :func:`serve_playback` answers with the frontend's files.
ORIGIN = "http://playback.test"


def launch(playwright, *, full: bool = False):
    """Chromium from Debian, headless.

    The tests take chromium's headless shell (Debian's ``chromium-headless-shell``): the same
    Blink as chromium, without the browser's own windows and services, so a page costs less
    CPU (docs/benchmarks.md#browser-tests-headless-shell). ``full``: the whole chromium a
    person runs, for a benchmark of what they feel.
    """
    name = "chromium" if full else "chromium-headless-shell"
    return playwright.chromium.launch(executable_path=program(name), args=CHROMIUM_ARGS)


def serve_playback(page) -> None:
    """Answer requests to :data:`ORIGIN` with the files of ``ui/playback`` (and a blank page).

    ES modules load only over http(s); routing them in Playwright needs no server.
    """

    def handle(route):
        name = route.request.url.removeprefix(ORIGIN + "/").split("?")[0]
        if name in ("", "blank.html"):
            return route.fulfill(
                body="<!doctype html><html><body></body></html>", content_type="text/html"
            )
        path = (PLAYBACK / name).resolve()
        if PLAYBACK not in path.parents or not path.is_file():
            return route.fulfill(status=404, body="not found")
        kind = "text/javascript" if path.suffix == ".js" else mimetypes.guess_type(path.name)[0]
        return route.fulfill(path=str(path), content_type=kind or "application/octet-stream")

    page.route(ORIGIN + "/**", handle)
    page.goto(ORIGIN + "/blank.html")


@contextmanager
def playback_page(plotly: bool = False):
    """A chromium page with the frontend's modules served (and Plotly loaded, if asked)."""
    with sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page()
        serve_playback(page)
        if plotly:
            page.add_script_tag(url=f"{ORIGIN}/vendor/plotly-basic.min.js")
        yield page
        browser.close()


#: Streamlit's stand-ins for an element whose code is still loading (widgets, components).
SKELETONS = "[data-testid^='stSkeleton'], [data-testid='stAppSkeleton']"


def find_replay(page, timeout_s: float = 120):
    """The replay's frame of ``page`` (the playback component's, not the lessons' progress
    panel's, which is a component too), waiting up to ``timeout_s`` for it to appear."""
    for _ in range(int(timeout_s * 10)):
        frame = next(
            (f for f in page.frames if "/component/" in f.url and "playback" in f.url), None
        )
        if frame is not None:
            return frame
        page.wait_for_timeout(100)
    raise AssertionError(f"no replay frame among {[f.url for f in page.frames]}")


#: JavaScript: whether the page's first script run is over (Streamlit's root element names the
#: run's state, "initial" before the first run ends) and no element is still loading its code.
FIRST_RUN_OVER_JS = f"""() => document.querySelector(
    "[data-testid='stApp'][data-test-script-state='notRunning']") !== null
  && document.querySelector("[data-testid='stStatusWidget'], {SKELETONS}") === null"""


def settle(page, *, opened: bool = False) -> None:
    """Wait until Streamlit's script has finished and every playback component on the page has
    painted.

    ``opened``: the page was just opened (``goto``, ``reload``), and its root element says
    when the first run is over. Otherwise (after a click or a key) the page shows nothing until
    the server has started the rerun, so the wait is for a second with no running indicator and
    no element still loading its code.
    """
    page.wait_for_selector("[data-testid='stMainBlockContainer']", timeout=180_000)
    # at most about 5 minutes, for a study computed without the cache
    if opened:
        page.wait_for_function(FIRST_RUN_OVER_JS, timeout=300_000)
    else:
        quiet = 0
        for _ in range(1200):
            running = page.locator(f"[data-testid='stStatusWidget'], {SKELETONS}").count()
            quiet = 0 if running else quiet + 1
            if quiet >= 4:
                break
            page.wait_for_timeout(250)
    for frame in page.frames:
        if "/component/" in frame.url:
            frame.wait_for_function(
                "() => !window.playback || window.playback.settled", timeout=120_000
            )
    page.wait_for_timeout(500)  # charts resize once after the last paint


#: A script for ``evaluate`` with ``[x, y]``: where the data point (x, y) is on the replay's
#: 2-D plot, in the coordinates of the plot's document.
PLOT_POINT_JS = """([x, y]) => {
    const plot = document.querySelector('.figure-box .js-plotly-plot');
    const L = plot._fullLayout, box = plot.getBoundingClientRect();
    return [box.left + L.xaxis._offset + L.xaxis.d2p(x),
            box.top + L.yaxis._offset + L.yaxis.d2p(y)];
}"""

#: The replay component's frame in the app (main.js names it "... playback").
REPLAY_FRAME = "iframe[title$='playback']"


def replay_frame(page, url: str):
    """Open ``url`` of the app in ``page``; the replay's frame, once its every part is drawn."""
    page.goto(url)
    page.wait_for_selector(REPLAY_FRAME, timeout=90_000)
    frame = find_replay(page)
    frame.wait_for_function("() => window.playback && window.playback.settled", timeout=90_000)
    return frame


def show_all(page, width: int) -> None:
    """Make the window as tall as the page (Streamlit scrolls inside its main block), so
    every element is on screen when axe measures its colours."""
    tall = page.evaluate(
        "() => (document.querySelector('[data-testid=stMain]') || document.body).scrollHeight"
    )
    page.set_viewport_size({"width": width, "height": min(tall + 100, 12_000)})
    page.wait_for_timeout(800)


def payload_arg(payload) -> dict:
    """A payload as JSON-safe arguments for ``page.evaluate`` (the blob in base64)."""
    return {
        "header": payload.header,
        "blob": base64.b64encode(payload.blob).decode(),
        "meta": json.loads(json.dumps(payload.meta)),
    }


#: JavaScript: decode ``{header, blob, meta}`` (see :func:`payload_arg`) into lanes and a scene.
DECODE_JS = """async ({header, blob, meta}) => {
    const {decode} = await import('/payload.js');
    const {Lane} = await import('/timeline.js');
    const bytes = Uint8Array.from(atob(blob), c => c.charCodeAt(0));
    const {arrays} = decode(header, bytes);
    const scene = {...meta.scene, arrays: Object.fromEntries(
        Object.entries(meta.scene.arrays).map(([k, n]) => [k, arrays[n]]))};
    return {arrays, scene, lanes: meta.lanes.map(m => new Lane(m, arrays))};
}"""


#: Steps a lane's math panel through ``times`` in a bare page (:func:`playback_page`): the
#: panel's text at each.
MATH_JS = """async ({payload, texts, times}) => {
    const d = await (DECODE)(payload);
    const {MathPanel} = await import('/mathpanel.js');
    const node = document.createElement('div');
    document.body.append(node);
    const panel = new MathPanel(node, {lane: d.lanes[0], scene: d.scene, texts});
    return times.map(t => { panel.update(t); return node.innerText; });
}""".replace("DECODE", DECODE_JS)

#: Draws a lane's 2-D figure at step ``t`` in a bare page (:func:`playback_page`): its traces
#: (name, x, y, visible), shapes, its "+1 side" / "−1 side" labels, status line and its description
#: in words (``texts``, the component's words, are optional: without them an outcome is "?").
FIGURE_JS = """async ({payload, show, style, t, texts}) => {
    const d = await (DECODE)(payload);
    const {PlaneFigure} = await import('/plane.js');
    const node = document.createElement('div');
    node.style.width = '700px';
    document.body.append(node);
    const figure = new PlaneFigure(node, {lane: d.lanes[0], scene: d.scene, show, style,
        config: {}, box: d.scene.box, height: 600, clickable: false, title: null,
        texts: texts || {spoken: {}, why: {}}});
    figure.update(t);
    // the words are written after the step is painted
    await new Promise(done => requestAnimationFrame(() => setTimeout(done, 0)));
    const plot = node.querySelector('.plot');
    return {traces: plot.data.map(tr => ({name: tr.name, x: Array.from(tr.x || []),
                                          y: Array.from(tr.y || []), visible: tr.visible})),
            shapes: plot.layout.shapes,
            sides: Array.from(node.querySelectorAll('.side-label'), label => label.textContent),
            status: node.querySelector('.status').textContent,
            words: node.querySelector('.figure-text').textContent};
}""".replace("DECODE", DECODE_JS)


def figure_at(page, run, data, show, t: int, texts: dict | None = None) -> dict:
    """:data:`FIGURE_JS` of ``run`` on ``data`` at step ``t`` in the app's style, drawing
    ``show`` (an ``app_logic.style.Show``); ``texts`` are the component's words."""
    from perceptron_lab.app_logic.payload import build_payload
    from perceptron_lab.app_logic.style import STYLE

    return page.evaluate(
        FIGURE_JS,
        {
            "payload": payload_arg(build_payload(data, [run])),
            "show": show.to_json(),
            "style": STYLE,
            "t": int(t),
            "texts": texts,
        },
    )
