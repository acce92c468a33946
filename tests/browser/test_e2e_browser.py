"""The playground in a real browser: Streamlit on localhost, driven by Playwright on chromium.

Uses Debian's chromium (``.ci/run`` installs it); Playwright's own browser
download does not work here. Missing chromium fails this test, on purpose.
Screenshots go to ``test-artifacts/`` (git-ignored) for a person to look at,
each view at 1280x720 and 1024x768.
"""

from __future__ import annotations

import json
import re
from urllib.parse import parse_qs, urlparse

import pytest

from perceptron_lab.app_logic.datasource import DataRequest, make_dataset
from tests.accessibility import CUT_TEXT
from tests.chromium import ARTIFACTS, find_replay
from tests.pages import page_run

pytestmark = pytest.mark.browser

FRAME = "iframe[title$='playback']"
SIZES = {"1280x720": (1280, 720), "1024x768": (1024, 768)}


def _open(pg, url: str):
    """Go to ``url`` and wait until the component painted its first step and built the charts
    under it (they come after the first paint); returns its frame."""
    pg.goto(url)
    pg.wait_for_selector(FRAME, timeout=90_000)
    frame = pg.frame_locator(FRAME).first
    frame.locator(".js-plotly-plot").first.wait_for(timeout=90_000)
    handle = find_replay(pg)
    handle.wait_for_function("() => window.playback && window.playback.painted !== null")
    handle.wait_for_function("() => window.playback.settled")
    return handle


def test_the_page_fetches_nothing_from_outside_the_server(server, page):
    """Offline in a classroom: every request goes to the app's own server (the tab's icon too)."""
    requested = []
    page.on("request", lambda request: requested.append(request.url))
    frame = _open(page, f"{server}/?learner=voted")
    frame.locator(".btn-step").click()
    page.wait_for_timeout(500)
    own = urlparse(server).netloc
    outside = [
        url
        for url in requested
        if urlparse(url).scheme in ("http", "https", "ws", "wss") and urlparse(url).netloc != own
    ]
    assert requested and not outside


def _step(frame) -> int:
    return frame.evaluate("() => window.playback.painted")


def _title(frame, index: int = 0) -> str:
    """The status line above a figure (step, epoch, updates)."""
    return frame.locator(".status").nth(index).inner_text()


def _math(frame) -> str:
    return frame.locator(".math").inner_text()


def _wait_step(frame, t: int) -> None:
    frame.wait_for_function("(t) => window.playback.painted === t", arg=t, timeout=10_000)


def _shots(pg, name: str) -> None:
    """Screenshots of the page at both sizes (the page is scrolled to the component)."""
    for label, (w, h) in SIZES.items():
        pg.set_viewport_size({"width": w, "height": h})
        pg.wait_for_timeout(700)
        pg.locator(FRAME).first.scroll_into_view_if_needed()
        pg.screenshot(path=ARTIFACTS / f"{name}-{label}.png")
    pg.set_viewport_size({"width": 1280, "height": 720})


def _python_run(request: DataRequest, key: str = "perceptron", epochs: int = 20, **values):
    data = make_dataset(request)
    run = page_run(key, values, epochs, request.seed, data)
    return data, run


def test_stepping_playing_scrubbing_and_keys(server, page):
    frame = _open(page, f"{server}/?noise=uniform&noise_rate=0.1&test=0.2&flips=1")
    assert _step(frame) == 0 and "step 0 of" in _title(frame)
    assert "Before the first example" in _math(frame)
    _shots(page, "playground-start")

    frame.locator(".btn-step").click()
    _wait_step(frame, 1)
    assert "step 1 of" in _title(frame) and "Epoch 1" in _math(frame)

    frame.locator(".btn-update").click()
    data, run = _python_run(
        DataRequest("separable", noise_kind="uniform", noise_rate=0.1, test_fraction=0.2)
    )
    tl = run.timeline
    t = tl.next_update(1)
    _wait_step(frame, t)
    math = _math(frame)
    assert "update" in math.lower()
    # a number of the math panel against the Python computation of the same step
    j = int(tl.index[t - 1])
    w_old, _ = tl.previous_hypothesis(t)
    raw = float(w_old @ data.X[j])
    assert f"⟨w, x⟩ = {raw:.4g}".replace("-", "−") in math
    theta_new = tl.hypothesis(t)[1]
    assert f"= {theta_new:.4g}".replace("-", "−") in math.split("θ ← θ")[1]
    _shots(page, "playground-update")

    page.keyboard.press("e")  # the focus is in the replay (its button): end of the epoch
    _wait_step(frame, tl.end_of_epoch(t))
    page.keyboard.press("ArrowLeft")
    _wait_step(frame, tl.end_of_epoch(t) - 1)
    page.keyboard.press("u")
    _wait_step(frame, tl.next_update(tl.end_of_epoch(t) - 1))
    page.keyboard.press("Home")
    _wait_step(frame, 0)
    page.keyboard.press("ArrowRight")
    _wait_step(frame, 1)

    frame.locator(".scrubber").evaluate(
        "(el) => { el.value = 137; el.dispatchEvent(new Event('input')); }"
    )
    _wait_step(frame, 137)
    assert "step 137 of" in _title(frame)
    page.wait_for_function("() => window.location.search.includes('t=137')", timeout=5_000)

    page.keyboard.press("p")  # play, then pause after a second
    page.wait_for_timeout(1_000)
    page.keyboard.press("p")
    played = _step(frame)
    assert played > 137 and not frame.evaluate("() => window.playback.playing")
    page.wait_for_timeout(500)
    assert _step(frame) == played  # paused: no step painted since

    # a rerun (a view setting) keeps the browser's step and the step in the address
    page.get_by_text("True boundary").click()
    page.wait_for_function(
        "() => [...document.querySelectorAll('iframe')].length > 0", timeout=10_000
    )
    page.wait_for_timeout(2_000)
    assert _step(frame) == played
    query = parse_qs(urlparse(page.url).query)
    assert query["t"] == [str(played)] and query["target"] == ["1"]


def test_a_shared_link_restores_the_step_and_the_voted_view(server, page):
    frame = _open(
        page,
        f"{server}/?learner=voted&data=gaussians&ensemble=1&averaged=1&longest=1&target=1&t=2500",
    )
    assert _step(frame) == 2500 and "step 2,500 of" in _title(frame)
    names = frame.evaluate("() => document.querySelector('.plot').data.map(d => d.name)")
    assert "averaged" in names and "longest survivor" in names
    assert "stored hypotheses (the 40 with most votes)" in names
    assert "hypotheses vote, the 40 with most votes drawn" in _title(frame)
    link = frame.locator(".link").input_value()
    assert "t=2500" in link and "learner=voted" in link
    _shots(page, "playground-voted")
    # the exports happen in the browser: the figure as PNG, the run with this step's numbers
    frame.locator("summary", has_text="Share and export").click()
    with page.expect_download() as image:
        frame.locator(".btn-image").click()
    assert image.value.suggested_filename == "perceptron-lab.png"
    assert image.value.path().read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with page.expect_download() as record:
        frame.locator(".btn-json").click()
    run = json.loads(record.value.path().read_text())
    assert run["time_step"] == 2500 and run["learner"]["key"] == "voted"
    assert set(run["accuracy_at_step"]["train"]) == {"last", "longest", "voted", "averaged"}


BOUNDARY_JS = """() => {
    const layout = document.querySelector('.plot').layout;
    const line = layout.shapes.find(s => s.name === 'boundary');
    return {segments: line ? line.path.split('M').length - 1 : 0,
            images: (layout.images || [])
                .filter(i => i.source.startsWith('data:image/png')).length};
}"""


def test_a_kernel_learner_draws_its_zero_level_over_its_region(server, page):
    frame = _open(page, f"{server}/?learner=kernel&data=circles&t=400")
    drawn = frame.evaluate(BOUNDARY_JS)
    assert drawn["segments"] > 10  # the level f(x) = 0 runs through the view
    assert drawn["images"] == 1  # the tinted region, one image
    _shots(page, "playground-kernel")


def test_the_voted_perceptron_draws_its_voted_boundary(server, page):
    frame = _open(page, f"{server}/?learner=voted&data=xor&t=300")
    assert frame.evaluate(BOUNDARY_JS)["segments"] > 10


LEGEND_CUT_JS = """() => [...document.querySelectorAll('.plot .legendtext')].filter((text) =>
    text.getBoundingClientRect().right > text.closest('svg').getBoundingClientRect().right + 1)
    .map((text) => text.textContent)"""


def test_compare_mode_steps_together(server, page):
    frame = _open(page, f"{server}/?compare=voted,pa&data=xor")
    assert frame.locator(".plot").count() == 3
    for _ in range(3):
        frame.locator(".btn-step").click()
    _wait_step(frame, 3)
    for i in range(3):
        assert "step 3 of" in _title(frame, i)
    _shots(page, "playground-compare")
    for width, height in SIZES.values():  # narrow panels wrap their legend entries, never cut them
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(700)
        assert frame.evaluate(LEGEND_CUT_JS) == [], (width, height)


#: JavaScript: the cells of the projection's pair of charts (the angle and the margins), each
#: with its charts, its "Play as sound" buttons and its place.
PAIR_JS = """() => [...document.querySelectorAll('.pair > *')].map((cell) => {
    const r = cell.getBoundingClientRect();
    return {charts: cell.querySelectorAll('.js-plotly-plot').length, left: Math.round(r.left),
            top: Math.round(r.top), buttons: cell.querySelectorAll('.words-btn').length}; })"""


def test_the_high_dimensional_view(server, page):
    frame = _open(page, f"{server}/?data=kw&t=300")
    assert "Projection on the plane of w* and the final w" in _title(frame)
    hist = frame.evaluate(
        "() => document.querySelectorAll('.pair .js-plotly-plot')[1].layout.title.text"
    )
    assert hist.startswith("Margins") and "at update" in hist
    _shots(page, "playground-projection")
    # side by side in a wide window, one over the other in a narrow one; a chart's words
    # stay under their chart, and nothing in the replay is cut short (its charts' titles too)
    for width, beside in ((1280, True), (700, False)):
        page.set_viewport_size({"width": width, "height": 720})
        page.wait_for_timeout(700)
        cells = frame.evaluate(PAIR_JS)
        assert [(c["charts"], c["buttons"]) for c in cells] == [(1, 1), (1, 1)], cells
        assert (cells[0]["top"] == cells[1]["top"]) == beside, (width, cells)
        assert (cells[0]["left"] == cells[1]["left"]) != beside, (width, cells)
        assert frame.evaluate(CUT_TEXT) == [], width


def _count_text(pg) -> str:
    return pg.locator(".st-key-pg_point_count").inner_text()


def _click_plot(pg, fx: float, fy: float) -> None:
    """Click at a fraction of the plot area (0, 0 is the top left corner)."""
    plot = pg.frame_locator(FRAME).first.locator(".nsewdrag").first
    plot.scroll_into_view_if_needed()  # the click modes sit under the figure
    area = plot.bounding_box()
    pg.mouse.click(area["x"] + fx * area["width"], area["y"] + fy * area["height"])


def _click_point(pg, frame, row: int) -> None:
    """Click on training point ``row`` where the plot draws it."""
    x, y = frame.evaluate(
        """(j) => { const p = document.querySelector('.plot'), L = p._fullLayout,
                    X = window.playback.scene.arrays.X, r = p.getBoundingClientRect();
                    return [L.xaxis.d2p(X[2 * j]) + L.xaxis._offset,
                            L.yaxis.d2p(X[2 * j + 1]) + L.yaxis._offset]; }""",
        row,
    )
    pg.frame_locator(FRAME).first.locator(".nsewdrag").first.scroll_into_view_if_needed()
    box = pg.locator(FRAME).first.bounding_box()
    plot = frame.evaluate("() => document.querySelector('.plot').getBoundingClientRect().toJSON()")
    pg.mouse.click(box["x"] + plot["x"] + x, box["y"] + plot["y"] + y)


def test_a_click_on_the_plot_adds_a_point_and_another_removes_it(server, page):
    frame = _open(page, f"{server}/?seed=5")
    assert _count_text(page).startswith("100 training points")
    page.locator(".st-key-pg_click button", has_text="adds a +1").click()
    frame.wait_for_function("() => window.playback.args.options.click === '+1'", timeout=30_000)
    _click_plot(page, 0.03, 0.03)  # the padded corner: empty space
    page.wait_for_function(
        "() => (document.querySelector('.st-key-pg_point_count')?.innerText || "
        "'').includes('1 added')",
        timeout=30_000,
    )
    assert _count_text(page).startswith("101 training points")
    # the address is rewritten by the same rerun, in a message of its own
    page.wait_for_function("() => window.location.search.includes('edits=')", timeout=10_000)
    frame.wait_for_function("() => window.playback.scene.n_train === 101", timeout=30_000)
    _shots(page, "playground-click-added")
    page.locator(".st-key-pg_click button", has_text="removes nearest").click()
    frame.wait_for_function(
        "() => window.playback.args.options.click === 'remove'", timeout=30_000
    )
    page.wait_for_timeout(500)
    _click_point(page, frame, 100)  # the added point is the last row
    page.wait_for_function(
        "() => (document.querySelector('.st-key-pg_point_count')?.innerText || "
        "'').startsWith('100 ')",
        timeout=30_000,
    )
    assert _count_text(page).startswith("100 training points")
    page.wait_for_function("() => !window.location.search.includes('edits=')", timeout=10_000)


@pytest.mark.parametrize(
    "path",
    ["the_perceptron_rule", "from_online_to_batch", "rare_positives", "parallel_perceptrons"],
)
def test_lessons_draw_their_panels(server, page, path):
    frame = _open(page, f"{server}/{path}")
    frame.wait_for_selector(".extras .panel", timeout=30_000)
    titles = frame.locator(".extras .panel-title").all_inner_texts()
    assert titles and all(titles)
    assert frame.evaluate("() => window.playback.painted") == frame.evaluate(
        "() => window.playback.args.options.initial_t"
    )
    _shots(page, f"lesson-{path}")


def test_a_teacher_builds_a_student_link_that_keeps_playback(server, page):
    frame = _open(page, f"{server}/?seed=2&t=7")
    frame.locator("summary", has_text="Share and export").click()
    frame.locator("summary", has_text="A link for students").click()
    for group in ("data", "link"):
        frame.locator(f"input[type=checkbox][value={group}]").uncheck()
    link = frame.locator("input.link").input_value()
    assert "seed=2" in link and "t=7" in link and "hide=data%2Clink" in link
    student = _open(page, link)
    assert _step(student) == 7
    assert student.locator(".btn-step").is_visible()  # playback stays
    summaries = student.locator("summary").all_inner_texts()
    assert "Export" in summaries and not any(s.startswith("Share") for s in summaries)
    assert page.get_by_text("Data set").count() == 0  # the data group is hidden
    _shots(page, "playground-student-link")


CHART_JS = """() => {
    const chart = document.querySelector('.diagnostics .js-plotly-plot');
    return {names: chart.data.map(d => d.name), rangemode: chart.layout.yaxis.rangemode,
            axes: chart.data.map(d => d.yaxis || 'y'),
            notes: (chart.layout.annotations || []).map(a => a.text),
            updates: window.playback.lanes[0].meta.mistakes_per_epoch};
}"""


def test_the_epoch_chart_counts_from_zero_and_marks_convergence(server, page):
    chart = _open(page, f"{server}/?seed=1&test=0.2").evaluate(CHART_JS)
    assert chart["rangemode"] == "tozero"
    assert chart["names"][0] == "mistakes = updates (train)"  # the classic rule: the same
    assert chart["axes"][-1] == "y2"  # the test error rate has its own axis
    first_quiet = chart["updates"].index(0) + 1
    assert chart["notes"] == [f"converged: no update in epoch {first_quiet}"]
    margin = _open(page, f"{server}/?learner=margin&data=gaussians&test=0.2").evaluate(CHART_JS)
    assert margin["names"][:2] == ["updates (train)", "mistakes (train)"]


def test_compare_mode_has_a_scoreboard_and_one_chart(server, page):
    frame = _open(page, f"{server}/?compare=voted,pa&data=xor&test=0.2&t=150")
    rows = frame.locator("table.scoreboard tbody tr").all_inner_texts()
    assert len(rows) == 3 and rows[0].startswith("Perceptron (classic)")
    learners = frame.evaluate("() => window.playback.lanes.map(l => l.meta.title)")
    assert [r.split("\t")[0] for r in rows] == learners
    names = frame.evaluate(
        "() => document.querySelector('.diagnostics .js-plotly-plot').data.map(d => d.name)"
    )
    assert names == learners  # one chart, every learner's updates per epoch
    _shots(page, "playground-compare-scoreboard")


WEIGHTS_JS = """async () => {
    // the mark moves after paint
    await new Promise(done => requestAnimationFrame(() => setTimeout(done, 250)));
    const chart = [...document.querySelectorAll('.diagnostics .js-plotly-plot')]
        .find(c => c.layout.title.text.startsWith('The weights'));
    const lane = window.playback.lanes[0];
    const last = chart.data[0].x.length - 1;
    const [w1, w2, th] = lane.hypothesis(lane.H - 1);
    return {names: chart.data.map(d => d.name), end: chart.data[0].x[last], E: lane.E,
            norm: chart.data[0].y[last], expected: Math.hypot(w1, w2),
            theta: chart.data[3].y[last], th,
            mark: chart.layout.shapes[0].x0, painted: window.playback.painted};
}"""


def test_the_weights_view_follows_the_steps(server, page):
    frame = _open(page, f"{server}/?seed=4&test=0.25&t=120")
    view = frame.evaluate(WEIGHTS_JS)
    assert view["names"] == ["‖w‖", "w1", "w2", "θ", "test accuracy %"]
    assert view["end"] == view["E"]  # through the last step, with the last hypothesis
    assert view["norm"] == pytest.approx(view["expected"]) and view["theta"] == pytest.approx(
        view["th"]
    )
    assert view["mark"] == view["painted"] == 120  # the mark sits at the current step


def test_the_updates_fill_novikoffs_bound_beside_the_figure(server, page):
    frame = _open(page, f"{server}/?seed=2&t=300")
    meter = frame.evaluate("""() => {
        const lane = window.playback.lanes[0], bound = window.playback.args.texts.novikoff_bound;
        return {width: parseFloat(document.querySelector('.bound .meter-fill').style.width),
                expected: 100 * lane.row(window.playback.painted) / bound, bound,
                text: document.querySelector('.bound .caption').innerText};
    }""")
    assert meter["bound"] > 0 and meter["width"] == pytest.approx(min(100, meter["expected"]))
    assert f"at most {int(meter['bound']):,}" in meter["text"]
    noisy = _open(page, f"{server}/?data=gaussians&noise=uniform")  # no bound: no meter
    assert noisy.locator(".bound").count() == 0


def _page_step(download) -> int:
    """The step a downloaded web page opens at."""
    text = download.value.path().read_text()
    found = re.search(r'id="playback-args">(.*?)</script>', text, re.S)
    assert found, "no playback-args in the page"
    return json.loads(found.group(1))["options"]["initial_t"]


def _settled_server(page, frame) -> None:
    """Wait until the server knows the step on screen (the component's report came back in
    its next render) and that rerun has ended."""
    frame.wait_for_function(
        "() => window.playback.serverStep === window.playback.painted", timeout=60_000
    )
    page.wait_for_timeout(1_000)  # the download buttons come after the figure in that run
    page.locator("[data-testid=stStatusWidget]").wait_for(state="hidden", timeout=60_000)


def test_the_downloaded_web_page_opens_at_the_step_on_screen(server, page):
    frame = _open(page, f"{server}/?epochs=5&t=57")
    for _ in range(7):
        frame.locator(".btn-step").click()
    frame.locator(".btn-epoch").click()
    on_screen = _step(frame)
    assert on_screen > 64  # 57, seven steps and an epoch on
    page.get_by_text("Download the trace, the points or a web page").click()
    _settled_server(page, frame)
    with page.expect_download() as download:
        page.get_by_role("button", name="Download as web page").click()
    assert _page_step(download) == on_screen
    # while the downloads are open, steps that rest reach the server too
    frame.locator(".btn-step").click()
    frame.locator(".btn-step").click()
    _settled_server(page, frame)
    with page.expect_download() as download:
        page.get_by_role("button", name="Download as web page").click()
    assert _page_step(download) == on_screen + 2
