"""The replay for a student who cannot see it, or uses only a keyboard, a finger or their voice.

In chromium: the live region's sentence after a move and the figure's description in words,
each against the Python timeline of the same step, for every kind of learner (a line, a
committee, a kernel, Winnow, compare mode); the points table; the keys acting only inside the
replay and only while the reader wants them; Escape closing a point's tooltip; the names
and states of the controls; Play with reduced motion. Most run on the exported page (the same
modules, no server); the frame's name, a key typed in the app's sidebar and compare mode at
390 px wide run in the app. axe-core's checks of the markup are the pages' CI test.
"""

from __future__ import annotations

import numpy as np
import pytest

from perceptron_lab.app_logic.datasource import DataRequest, make_dataset
from perceptron_lab.app_logic.math_panel import SPOKEN
from perceptron_lab.app_logic.payload import build_payload
from perceptron_lab.app_logic.playback_args import texts
from perceptron_lab.app_logic.style import Show
from perceptron_lab.ui.standalone_page import run_page
from tests.chromium import (
    ARTIFACTS,
    DECODE_JS,
    ORIGIN,
    REPLAY_FRAME,
    figure_at,
    payload_arg,
    replay_frame,
    serve_playback,
)
from tests.pages import page_run

pytestmark = pytest.mark.browser

#: The live region's sentence at each of ``times`` (speech.js), for one or more lanes.
SPEECH_JS = """async ({payload, texts, times}) => {
    const d = await (DECODE)(payload);
    const {stepSentence} = await import('/speech.js');
    return times.map(t => stepSentence(d.lanes, d.scene, texts, t));
}""".replace("DECODE", DECODE_JS)

LIVE = "[role=status][aria-live=polite]"


def n(x: float, digits: int = 4) -> str:
    """A number as the replay writes it (Python's g format, a real minus sign)."""
    return f"{0.0 if abs(x) < 1e-12 else x:.{digits}g}".replace("-", "−")


def label(y) -> str:
    return "+1" if y > 0 else "−1"


def verdict(run, data, t: int, has_modes: bool) -> str:
    """What speech.js says of the current example at t, from the Python timeline."""
    tl = run.timeline
    i = t - 1
    j = int(tl.index[i])
    head = f"example {j + 1}, label {label(data.y[j])}"
    if data.flipped[j]:
        head += " (flipped by noise)"
    score = float(tl.score[0, i])
    if has_modes:  # the KW family's test is y(s − θ)
        score -= tl.previous_hypothesis(t)[1]
    return f"{head}, score {n(score)}, {SPOKEN[int(tl.kind[0, i])]}"


@pytest.fixture(scope="module")
def bare(browser):
    """A page of the module's chromium with the frontend's modules and Plotly, no server."""
    page = browser.new_page()
    serve_playback(page)
    page.add_script_tag(url=f"{ORIGIN}/vendor/plotly-basic.min.js")
    yield page
    page.close()


@pytest.fixture(scope="module")
def noisy():
    return make_dataset(
        DataRequest("gaussians", (("n_samples", 120),), "uniform", 0.1, 0.2, seed=4)
    )


@pytest.mark.parametrize("key", ["perceptron", "kw", "balanced_winnow", "kernel", "pa"])
def test_the_sentence_names_the_step_the_example_and_the_verdict(bare, noisy, key):
    run = page_run(key, {}, 4, 0, noisy)
    payload = build_payload(noisy, [run])
    has_modes = payload.meta["lanes"][0]["has_modes"]
    tl = run.timeline
    times = [1, tl.next_update(1), tl.n_events]
    said = bare.evaluate(
        SPEECH_JS, {"payload": payload_arg(payload), "texts": texts(run, noisy), "times": times}
    )
    for t, sentence in zip(times, said):
        end = " (the end)" if t == tl.n_events else ""
        assert sentence == (
            f"Step {t:,} of {tl.n_events:,}{end}, epoch {tl.epoch_at(t) + 1}: "
            f"{verdict(run, noisy, t, has_modes)}."
        )
    assert "update" in said[1].split(": ")[1]


def test_a_committee_says_its_vote_and_how_many_members_update(bare, noisy):
    run = page_run("parallel", {}, 3, 0, noisy)
    tl = run.timeline
    t = tl.next_update(0)
    (sentence,) = bare.evaluate(
        SPEECH_JS,
        {
            "payload": payload_arg(build_payload(noisy, [run])),
            "texts": texts(run, noisy),
            "times": [t],
        },
    )
    acts = tl.score[:, t - 1]
    plus = int((acts > 0).sum())
    members = len(acts)
    vote = 1 if plus > members - plus else -1
    updated = int(np.isin(tl.kind[:, t - 1], [1, 2]).sum())
    assert f"committee vote {label(vote)} ({plus} of {members} members say +1)" in sentence
    assert f"{updated} of {members} members update" in sentence


def test_compare_mode_says_which_run_did_what(bare, noisy):
    runs = [page_run(key, {}, 3, 0, noisy) for key in ("perceptron", "pa")]
    t = 7
    (sentence,) = bare.evaluate(
        SPEECH_JS,
        {
            "payload": payload_arg(build_payload(noisy, runs)),
            "texts": texts(runs[0], noisy),
            "times": [t],
        },
    )
    assert sentence.startswith(f"Step {t} of {runs[0].timeline.n_events:,}, epoch 1. ")
    for run in runs:
        assert f"{run.learner.title}: example {int(run.timeline.index[t - 1]) + 1}," in sentence


def _words(page, run, data, show, t):
    return figure_at(page, run, data, show, t, texts(run, data))


@pytest.mark.parametrize(
    "key, mode, boundary",
    [
        ("perceptron", "last", "The boundary (last) is the line "),
        ("voted", "voted", "The boundary is the curve where the vote"),
        ("kernel", "last", "The boundary is the curve where the kernel score f(x) is 0."),
        ("parallel", "last", "member lines are member 1: "),
    ],
)
def test_the_figure_in_words_follows_the_step(bare, noisy, key, mode, boundary):
    run = page_run(key, {}, 4, 0, noisy)
    tl = run.timeline
    t = tl.next_update(20)
    figure = _words(bare, run, noisy, Show(), t)
    words = figure["words"]
    assert boundary in words
    scores = tl.scores(noisy.X, t, mode)
    wrong = int((np.where(scores > 0, 1, -1) != noisy.y).sum())
    assert f"{wrong} of {len(noisy.y)} training points are on the wrong side." in words
    j = int(tl.index[t - 1])
    assert f"The current example, ringed, is at ({n(noisy.X[j, 0], 3)}, " in words
    assert f"example {j + 1}, label {label(noisy.y[j])}" in words
    # the sides are written on the tints (the same grey in greyscale)
    assert sorted(figure["sides"]) == ["+1 side", "−1 side"]


def test_a_line_is_said_as_its_equation_with_its_plus_side(bare, noisy):
    run = page_run("perceptron", {}, 4, 0, noisy)
    tl = run.timeline
    t = tl.next_update(30)
    (w1, w2), theta = tl.hypothesis(t)
    words = _words(bare, run, noisy, Show(), t)["words"]
    sign = "−" if w2 < 0 else "+"
    assert f"{n(w1, 3)} × x1 {sign} {n(abs(w2), 3)} × x2 = {n(theta)}" in words
    compass = ["right", "upper right", "top", "upper left"]
    compass += ["left", "lower left", "bottom", "lower right"]
    towards = compass[round(np.degrees(np.arctan2(w2, w1)) / 45) % 8]
    assert f"+1 side (tinted orange) lies towards the {towards}" in words


# -- the exported page: the whole replay, from file:// -------------------------------------


@pytest.fixture(scope="module")
def exported(tmp_path_factory, noisy):
    """The exported page of a perceptron on the noisy data, and its run."""
    request = DataRequest("gaussians", (("n_samples", 120),), "uniform", 0.1, 0.2, seed=4)
    run = page_run("perceptron", {}, 20, request.seed, noisy)
    path = tmp_path_factory.mktemp("a11y") / "replay.html"
    path.write_text(run_page(run, noisy, request, 20), encoding="utf-8")
    return path, run


@pytest.fixture
def replay(browser, exported):
    path, run = exported
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(path.as_uri())
    page.wait_for_function("() => window.playback && window.playback.settled", timeout=30_000)
    yield page, run
    assert errors == []
    context.close()


def _painted(page) -> int:
    return page.evaluate("() => window.playback.painted")


def _wait(page, t: int) -> None:
    """Until step t is painted and the words written after it (describe.js)."""
    page.wait_for_function("(t) => window.playback.painted === t", arg=t, timeout=10_000)
    page.evaluate("() => new Promise(done => requestAnimationFrame(() => setTimeout(done, 0)))")


def test_each_move_is_announced_once_in_one_polite_region(replay, noisy):
    page, run = replay
    tl = run.timeline
    live = page.locator(LIVE)
    assert live.count() == 1 and live.get_attribute("aria-atomic") == "true"
    assert live.inner_text() == ""  # opening the page says nothing
    said = []
    for t in (1, 2, 3):
        page.locator(".btn-step").click()
        _wait(page, t)
        said.append(live.text_content())
        assert said[-1] == (
            f"Step {t} of {tl.n_events:,}, epoch 1: {verdict(run, noisy, t, True)}."
        )
    assert len(set(said)) == 3
    page.locator(".btn-update").click()
    t = tl.next_update(3)
    _wait(page, t)
    assert live.text_content().startswith(f"Step {t} of ")
    # the arithmetic too: the math panel's lines, in words
    page.locator(".level").select_option("arithmetic")
    page.locator(".btn-back").click()
    page.locator(".btn-update").click()
    _wait(page, t)
    spoken = live.text_content()
    assert "w becomes w + η y x equals" in spoken and "θ becomes" in spoken
    page.locator(".level").select_option("off")
    page.locator(".btn-step").click()
    _wait(page, t + 1)
    assert live.text_content() == spoken  # nothing said
    page.locator(".level").select_option("verdict")
    # a scrub is said when let go; a pause says where it stopped
    page.locator(".scrubber").evaluate(
        "(s) => { s.value = 60; s.dispatchEvent(new Event('input'));"
        " s.dispatchEvent(new Event('change')); }"
    )
    _wait(page, 60)
    assert live.text_content().startswith("Step 60 of ")
    assert page.locator(".scrubber").get_attribute("aria-valuetext") == (
        f"step 60 of {tl.n_events:,}, epoch 1"
    )
    page.locator(".speed").select_option("20")
    page.locator(".btn-play").click()
    page.wait_for_function("() => window.playback.painted > 65", timeout=10_000)
    page.locator(".btn-play").click()
    stopped = _painted(page)
    assert live.text_content().startswith(f"Paused at step {stopped:,} of ")


def test_the_figure_is_described_and_its_points_are_a_table(replay, noisy):
    page, run = replay
    tl = run.timeline
    plot = page.locator(".figure-box .js-plotly-plot")
    # an application for a screen reader: its arrow keys reach the figure's walk (figurekeys.js)
    assert plot.get_attribute("role") == "application"
    assert plot.get_attribute("aria-roledescription") == "interactive figure"
    # described by its words, then by its keys
    words, keys = plot.get_attribute("aria-describedby").split()
    text = page.locator(f"#{words}")
    assert page.locator(f"#{keys}").text_content().startswith("With the figure focused, keys walk")
    assert "No example has been visited yet." in text.text_content()
    page.locator(".btn-step").click()
    _wait(page, 1)
    j = int(tl.index[0])
    assert f"example {j + 1}, label {label(noisy.y[j])}" in text.text_content()
    # the SVG's tick labels are not read; the toolbar is out of the Tab order
    assert plot.locator("svg.main-svg:not([aria-hidden=true])").count() == 0
    assert page.locator(".modebar-btn:not([tabindex='-1'])").count() == 0
    words = page.get_by_role("button", name="Figure in words")
    assert words.get_attribute("aria-expanded") == "false" and not text.is_visible()
    words.click()
    assert words.get_attribute("aria-expanded") == "true" and text.is_visible()
    points = page.get_by_role("button", name="Points at this step")
    points.click()
    table = page.locator(".points-panel table")
    assert "Training points at step 1" in table.locator("caption").inner_text()
    assert table.locator("thead th[scope=col]").count() == 8
    rows = table.locator("tbody tr")
    assert rows.count() == 50  # a page of the 120 points
    first = rows.nth(0).locator("th, td").all_inner_texts()
    w, theta = tl.hypothesis(1)
    score = float(noisy.X[0] @ w - theta)
    side = "right" if (1 if score > 0 else -1) == noisy.y[0] else "wrong"
    assert first[:7] == [
        "#1" + (" (current)" if j == 0 else ""),
        n(noisy.X[0, 0], 3),
        n(noisy.X[0, 1], 3),
        label(noisy.y[0]),
        n(score, 3),
        side,
        "yes" if noisy.flipped[0] else "no",
    ]
    page.get_by_role("button", name="Next 50").click()
    assert table.locator("tbody tr").nth(0).locator("th").inner_text().startswith("#51")
    page.get_by_role("button", name="Page of the current example").click()
    assert table.locator("tr.current th").inner_text() == f"#{j + 1} (current)"
    page.locator(".btn-step").click()  # the open table follows the step
    _wait(page, 2)
    assert "Training points at step 2" in table.locator("caption").inner_text()


def test_keys_act_only_in_the_replay_and_only_when_wanted(replay):
    page, _ = replay
    page.locator("header.about h1").click()  # the page around the replay has the focus
    for key in ("ArrowRight", "e", "u", "p"):
        page.keyboard.press(key)
    page.wait_for_timeout(300)
    assert _painted(page) == 0 and not page.evaluate("() => window.playback.playing")
    page.locator(".btn-step").focus()
    page.keyboard.press("ArrowRight")
    _wait(page, 1)
    assert page.locator(".btn-step").get_attribute("aria-keyshortcuts") == "ArrowRight"
    toggle = page.get_by_role("checkbox", name="Keyboard shortcuts")
    assert toggle.is_checked()
    toggle.uncheck()
    assert page.locator(".btn-step kbd").is_hidden()
    assert page.locator(".btn-step").get_attribute("aria-keyshortcuts") is None
    page.locator(".btn-step").focus()
    for key in ("ArrowRight", "e", "Home"):
        page.keyboard.press(key)
    page.wait_for_timeout(300)
    assert _painted(page) == 1
    page.keyboard.press("Enter")  # the buttons still work from the keyboard
    _wait(page, 2)
    page.reload()  # the reader's choice is kept
    page.wait_for_function("() => window.playback && window.playback.settled", timeout=30_000)
    assert not page.get_by_role("checkbox", name="Keyboard shortcuts").is_checked()
    page.get_by_role("checkbox", name="Keyboard shortcuts").check()


def test_a_points_tooltip_stays_under_the_pointer_and_escape_closes_it(replay):
    page, _ = replay
    where = page.evaluate("""() => {  // the training point farthest from every other mark
        const plot = document.querySelector('.figure-box .js-plotly-plot');
        const L = plot._fullLayout, box = plot.getBoundingClientRect();
        const at = (x, y) => [box.left + L.xaxis._offset + L.xaxis.d2p(x),
                              box.top + L.yaxis._offset + L.yaxis.d2p(y)];
        const marks = plot.data
            .flatMap(tr => (tr.x || []).map((x, k) => [tr.name, ...at(x, tr.y[k])]))
            .filter(([, x, y]) => Number.isFinite(x) && Number.isFinite(y));
        let best = null, far = -1;
        for (const [name, x, y] of marks) {
            if (!name.includes('train')) continue;
            const near = Math.min(...marks.filter(m => m[1] !== x || m[2] !== y)
                .map(([, a, b]) => Math.hypot(a - x, b - y)));
            if (near > far) { far = near; best = {x, y}; }
        }
        return best;
    }""")
    page.mouse.move(where["x"] - 30, where["y"] - 30)  # Plotly hovers on moves over its plot
    page.mouse.move(where["x"], where["y"], steps=5)
    tip = page.locator(".tooltip")
    tip.wait_for(state="visible")
    assert "example #" in tip.inner_text()
    box = tip.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, steps=4)
    page.wait_for_timeout(700)
    assert tip.is_visible()  # the pointer may rest on it (WCAG 1.4.13)
    page.keyboard.press("Escape")
    assert tip.is_hidden()


def test_play_by_buttons_say_which_is_on(replay):
    page, _ = replay
    units = page.get_by_role("group", name="Play by")
    assert units.get_by_role("button", name="example").get_attribute("aria-pressed") == "true"
    units.get_by_role("button", name="update").click()
    assert units.get_by_role("button", name="update").get_attribute("aria-pressed") == "true"
    assert units.get_by_role("button", name="example").get_attribute("aria-pressed") == "false"


PAINTS_JS = """(seconds) => new Promise((resolve) => {
    let last = window.playback.painted, shown = 0;
    const start = performance.now();
    const tick = (now) => {
        if (window.playback.painted !== last) { shown++; last = window.playback.painted; }
        if (now - start < seconds * 1000) requestAnimationFrame(tick);
        else resolve({shown, end: last});
    };
    requestAnimationFrame(tick);
})"""


def test_play_with_reduced_motion_jumps_instead_of_moving(replay):
    page, run = replay
    page.emulate_media(reduced_motion="reduce")
    page.locator(".speed").select_option("100")
    page.locator(".btn-play").click()
    calm = page.evaluate(PAINTS_JS, 2.5)
    page.locator(".btn-play").click()
    assert calm["end"] >= 100  # the speed holds: about 100 steps a second...
    assert calm["shown"] <= 4  # ...shown once a second, not at every frame
    page.emulate_media(reduced_motion="no-preference")
    page.locator(".btn-start").click()
    page.locator(".btn-play").click()
    moving = page.evaluate(PAINTS_JS, 2.5)
    page.locator(".btn-play").click()
    assert moving["shown"] > 2 * calm["shown"]


# -- in the app ----------------------------------------------------------------------------


def test_in_the_app_the_frame_has_a_name_and_the_sidebar_keeps_its_keys(server, page):
    frame = replay_frame(page, f"{server}/")
    title = page.locator(REPLAY_FRAME).get_attribute("title")
    assert title == "Training replay of Perceptron (classic): step-by-step playback"
    link = page.get_by_role("link", name="Experiments")
    link.focus()
    for key in ("e", "ArrowRight", "u", "Home"):
        page.keyboard.press(key)
    page.wait_for_timeout(500)
    assert frame.evaluate("() => window.playback.painted") == 0
    assert page.url.rstrip("/") == server  # and the link was not followed
    frame.locator(".btn-step").focus()
    page.keyboard.press("e")  # inside the replay the keys act
    frame.wait_for_function("() => window.playback.painted === 100", timeout=10_000)


def test_compare_mode_stacks_its_figures_on_a_phone(server, browser):
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    page = context.new_page()
    frame = replay_frame(page, f"{server}/?compare=voted,pa&data=xor&t=150")
    boxes = [
        frame.locator(".figure-box").nth(k).bounding_box()
        for k in range(frame.locator(".figure-box").count())
    ]
    assert len(boxes) == 3
    assert len({round(b["x"]) for b in boxes}) == 1  # one column
    assert all(b["width"] > 300 for b in boxes)
    assert boxes[0]["y"] + boxes[0]["height"] <= boxes[1]["y"] + 1
    width = frame.evaluate("() => document.documentElement.clientWidth")
    assert frame.evaluate("() => document.documentElement.scrollWidth") == width
    page.screenshot(path=ARTIFACTS / "compare-390x844.png")
    context.close()
