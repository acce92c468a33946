"""The run heard, and the figure and the charts walked by the keyboard, in chromium.

The sounds are checked as numbers: every sound the replay schedules on its audio graph is
written into ``window.playback.sound.scheduled`` (kind, pitch, start; ``ui/playback/sound.js``),
and each is compared with what :mod:`tests.hearing` computes from the same run in Python. The
walk's words are compared with the run's numbers at the step, and each point's tone with its
place on the run's scale. The playground runs in the app (the issue's "playground"); playing,
compare mode and the charts of the diagnostics on the exported page (the same modules); the
lessons' charts in the app, on their own page.
"""

from __future__ import annotations

import numpy as np
import pytest

from perceptron_lab.app_logic.datasource import DataRequest, make_dataset
from perceptron_lab.app_logic.payload import build_payload
from perceptron_lab.ui.standalone_page import run_page
from tests.chromium import ARTIFACTS, replay_frame
from tests.hearing import (
    KNOCK_HZ,
    epoch_pitch,
    move_sounds,
    nearest_toward,
    pitch,
    point_words,
    turn_degrees,
)
from tests.pages import page_run

pytestmark = pytest.mark.browser

LIVE = "[role=status][aria-live=polite]"
#: Relative tolerance of a pitch: the browser and NumPy round 2^u in their last bits.
REL = 1e-9


@pytest.fixture(scope="module")
def playground():
    """The playground's first view: the perceptron on the separable set, 20 epochs."""
    request = DataRequest("separable")
    data = make_dataset(request)
    run = page_run("perceptron", {}, 20, request.seed, data)
    has_modes = build_payload(data, [run]).meta["lanes"][0]["has_modes"]
    return request, data, run, has_modes


def _wait(frame, t: int) -> None:
    frame.wait_for_function("(t) => window.playback.painted === t", arg=t, timeout=10_000)


def _scheduled(frame, since: int = 0) -> list[dict]:
    return frame.evaluate("(n) => window.playback.sound.scheduled.slice(n)", since)


def _said(frame, words: str, region: str = LIVE) -> None:
    """Until the live region ``region`` of ``frame`` (a page or a frame) holds ``words``."""
    frame.wait_for_function(
        "([sel, words]) => document.querySelector(sel).textContent.includes(words)",
        arg=[region, words],
        timeout=10_000,
    )


def _sound_on(frame) -> None:
    box = frame.get_by_role("checkbox", name="Sound")
    assert not box.is_checked()  # off until the reader turns it on
    box.check()


def test_sound_is_off_until_turned_on_and_then_each_step_is_heard(server, page, playground):
    """The first 20 steps of the playground, by the Step button: each step's tone at its pitch,
    a knock for each update and a glide for each turn of the line, as Python computes them."""
    _, data, run, has_modes = playground
    frame = replay_frame(page, f"{server}/")
    frame.locator(".btn-step").click()
    _wait(frame, 1)
    assert _scheduled(frame) == []  # off by default: nothing scheduled
    _sound_on(frame)
    frame.locator(".btn-start").click()
    _wait(frame, 0)
    heard, live = [], frame.locator(LIVE)
    for t in range(1, 21):
        before = len(frame.evaluate("() => window.playback.sound.scheduled"))
        frame.locator(".btn-step").click()
        _wait(frame, t)
        sounds = _scheduled(frame, before)
        expected = move_sounds(run, data, t, has_modes)
        assert [(s["kind"], s["step"]) for s in sounds] == [(kind, t) for kind, _, _ in expected]
        for got, (kind, hz, to) in zip(sounds, expected, strict=True):
            assert got["hz"] == pytest.approx(hz, rel=REL), (t, kind)
            assert (got["to"] is None) == (to is None)
            if to is not None:
                assert got["to"] == pytest.approx(to, rel=REL), (t, kind)
        heard.append((t, sounds, live.text_content()))
    kinds = {s["kind"] for _, sounds, _ in heard for s in sounds}
    assert kinds == {"step", "update", "turn"}  # the first 20 steps update and turn the line
    _write_heard(heard, run)


def _write_heard(heard, run) -> None:
    """What a student hears over the first 20 steps: the tones as numbers and the narration
    (test-artifacts/heard_first_20_steps.txt)."""
    lines = [
        "What a student hears over the first 20 steps of the playground (sound on):",
        "the tones the replay scheduled (kind, pitch in Hz, a glide's end) and the narration",
        f"of its live region. {run.learner.title}, {run.timeline.n_events:,} steps.",
        "",
    ]
    for t, sounds, said in heard:
        tones = "; ".join(
            f"{s['kind']} {s['hz']:.1f} Hz" + (f" gliding to {s['to']:.1f} Hz" if s["to"] else "")
            for s in sounds
        )
        lines += [f"step {t}: {tones}", f"    said: {said}"]
    (ARTIFACTS / "heard_first_20_steps.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")


#: The keys of the walk over ten points, and what each does from the point before.
WALK = ["ArrowUp", "ArrowUp", "ArrowUp", "ArrowRight", "ArrowUp"]
WALK += ["ArrowLeft", "PageDown", "m", "PageDown", "c"]
DIRECTIONS = {"ArrowRight": (1, 0), "ArrowLeft": (-1, 0), "ArrowUp": (0, 1), "ArrowDown": (0, -1)}


def _walked(data, scores, current: int, keys: list[str]) -> list[int]:
    """The points the walk reaches, by the rules of ``figurekeys.js`` (the first key starts at
    the current example)."""
    reached, at = [], None
    for key in keys:
        if at is None:
            at = current
        elif key in DIRECTIONS:
            at = nearest_toward(data.X, at, *DIRECTIONS[key])
            assert at >= 0, f"{key} finds no point: choose other keys"
        elif key == "PageDown":
            at += 1
        elif key == "m":
            wrong = [(at + k) % len(data.y) for k in range(1, len(data.y) + 1)]
            at = next(j for j in wrong if (1 if scores[j] > 0 else -1) != data.y[j])
        elif key == "c":
            at = current
        reached.append(at)
    return reached


def test_the_figure_walks_by_arrow_keys_over_ten_points(server, page, playground):
    """With the figure focused, ten keys walk ten points: each is said with its label,
    coordinates, score and side at the step (against the run's numbers) and heard at its
    place on the run's scale; the replay's step does not move."""
    _, data, run, has_modes = playground
    tl = run.timeline
    t = tl.next_update(tl.next_update(0))  # the second update: the line is in the view
    frame = replay_frame(page, f"{server}/?t={t}")
    _wait(frame, t)
    _sound_on(frame)
    scores = tl.scores(data.X, t, "last")
    current = int(tl.index[t - 1])
    S = np.abs(scores).max()
    assert any((1 if s > 0 else -1) != y for s, y in zip(scores, data.y))  # M has a point to find
    reached = _walked(data, scores, current, WALK)
    assert len(set(reached)) >= 8  # the walk goes somewhere
    plot = frame.locator(".figure-box .js-plotly-plot")
    assert plot.get_attribute("role") == "application"
    plot.focus()
    live = frame.locator(LIVE)
    for key, j in zip(WALK, reached, strict=True):
        before = len(frame.evaluate("() => window.playback.sound.scheduled"))
        page.keyboard.press(key)
        _said(frame, f"Point {j + 1} of ")
        assert live.text_content().rstrip("\u00a0") == point_words(data, scores, j, current)
        (tone,) = _scheduled(frame, before)
        assert (tone["kind"], tone["point"], tone["step"]) == ("point", j + 1, t)
        assert tone["hz"] == pytest.approx(pitch(data.y[j] * scores[j] / S), rel=REL)
    assert frame.evaluate("() => window.playback.painted") == t  # the arrows walked, not stepped
    frame_shape = frame.evaluate(
        "() => document.querySelector('.figure-box .js-plotly-plot').layout.shapes"
        ".filter(s => s.type === 'rect' && s.xsizemode === 'pixel')"
    )
    assert [(s["xanchor"], s["yanchor"]) for s in frame_shape] == [tuple(data.X[reached[-1]])]
    page.keyboard.press("b")  # the boundary in words
    _said(frame, "The boundary")
    assert "is the line " in live.text_content()
    page.keyboard.press("u")  # the replay's own keys still act with the figure focused
    _wait(frame, tl.next_update(t))


@pytest.fixture
def exported(browser, tmp_path, playground):
    """The playground's first view as the exported page, open in a new page of chromium."""
    request, data, run, _ = playground
    path = tmp_path / "run.html"
    path.write_text(run_page(run, data, request, 20), encoding="utf-8")
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(path.as_uri())
    page.wait_for_function("() => window.playback && window.playback.settled", timeout=60_000)
    yield page
    page.close()


def test_playing_sounds_each_epochs_error_and_the_lines_turns(exported, playground):
    """Playing by epoch on the exported page: each finished epoch's tone follows its error
    rate; each glide's turn is the angle the line turned since the glide before."""
    _, _, run, _ = playground
    page = exported
    page.get_by_role("checkbox", name="Sound").check()
    page.get_by_role("group", name="Play by").get_by_role("button", name="epoch").click()
    page.locator(".speed").select_option("2")
    page.locator(".btn-play").click()
    page.wait_for_function("() => window.playback.painted >= 6 * 100", timeout=15_000)
    page.locator(".btn-play").click()
    sounds = page.evaluate("() => window.playback.sound.scheduled")
    tl = run.timeline
    errors = tl.errors_per_epoch()
    epochs = [s for s in sounds if s["kind"] == "epoch"]
    heard = [s["epoch"] for s in epochs]
    # In order from the first; a page that fell behind (a loaded machine) paints the later
    # epoch at once, and only the epoch painted is heard: CI once heard 1, 2, 4, 5, 6.
    assert heard[0] == 1 and len(heard) >= 5 and heard == sorted(set(heard)), heard
    for s in epochs:
        rate = errors[s["epoch"] - 1] / tl.n_samples
        assert s["hz"] == pytest.approx(epoch_pitch(rate), rel=REL)
    falling = [s["hz"] for s in epochs]
    assert falling[0] > falling[-1]  # the error falls as the perceptron converges, the pitch too
    turns = [s for s in sounds if s["kind"] == "turn"]
    assert turns
    for s in turns:
        degrees = turn_degrees(tl.hypothesis(s["since"])[0], tl.hypothesis(s["step"])[0])
        assert s["degrees"] == pytest.approx(degrees, abs=1e-9)
        assert s["to"] == pytest.approx(pitch(degrees / 180, 2), rel=REL)
    knocks = [s for s in sounds if s["kind"] == "update"]
    assert knocks and all(s["hz"] == KNOCK_HZ and tl.is_update(s["step"]) for s in knocks)


def test_the_per_epoch_chart_is_walked_and_played(exported, playground):
    """The diagnostics' chart of updates per epoch: the arrow keys say its points (the run's
    counts), S plays the series as a contour, lowest value lowest, and the button does too."""
    _, _, run, _ = playground
    page = exported
    updates = run.timeline.mistakes_per_epoch()
    chart = page.get_by_role("application", name="Updates and mistakes per epoch")
    chart.focus()
    live = page.locator(LIVE)
    for k in range(3):
        page.keyboard.press("ArrowRight")
        _said(page, f"point {k + 1} of {len(updates)}: epoch {k + 1}, count in the epoch ")
        assert live.text_content().endswith(f" {updates[k]}.")
    assert live.text_content().startswith("mistakes = updates (train), point 3 of ")
    before = len(page.evaluate("() => window.playback.sound.scheduled"))
    page.keyboard.press("s")  # from the point walked to, to the end, even with the sound off
    contour = page.evaluate("(n) => window.playback.sound.scheduled.slice(n)", before)
    low, high = updates.min(), updates.max()
    expected = [pitch(2 * (v - low) / (high - low) - 1) for v in updates[2:]]
    assert [s["kind"] for s in contour] == ["chart"] * len(expected)
    assert [s["hz"] for s in contour] == pytest.approx(expected, rel=REL)
    assert np.all(np.diff([s["at"] for s in contour]) > 0)  # one after the other
    page.keyboard.press("s")  # again: stops
    button = page.get_by_role("button", name="Play as sound: Updates and mistakes per epoch")
    button.click()
    again = page.evaluate("() => window.playback.sound.scheduled.length")
    assert again == before + 2 * len(expected)


def test_a_lessons_chart_is_named_walked_and_played(server, page):
    """Lesson 2's chart on its page: named by its caption, its drawing hidden from a screen
    reader, its points said by the arrow keys (as the table "The numbers" writes them), and
    played by the button under it at the reader's volume."""
    page.goto(f"{server}/convergence")
    chart = page.locator("[data-testid=stPlotlyChart] .js-plotly-plot").first
    chart.wait_for(timeout=180_000)
    page.wait_for_function("() => document.querySelector('#pl-live') !== null")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=stPlotlyChart] .js-plotly-plot')"
        ".getAttribute('role') === 'application'",
        timeout=60_000,
    )
    caption = page.locator("[data-testid=stCaptionContainer]").filter(has_text="Chart “").first
    assert chart.get_attribute("aria-label") == caption.inner_text().split(". ")[0].rstrip(".")
    assert chart.locator("svg.main-svg:not([aria-hidden=true])").count() == 0
    numbers = page.locator("[data-testid=stExpander]").filter(
        has=page.locator("summary", has_text="The numbers")
    )
    numbers.first.locator("summary").click()
    table = numbers.first.locator("table")
    header = table.locator("thead th").all_inner_texts()
    first = table.locator("tbody tr").first.locator("th, td").all_inner_texts()
    series = chart.evaluate("(p) => p._fullData.filter(t => t.visible !== false).map(t => t.name)")
    chart.focus()
    page.keyboard.press("ArrowRight")
    live = page.locator("#pl-live")
    _said(page, "point 1 of", "#pl-live")
    said = live.text_content()
    # the table's first row: the x value, then each series' value (the cells may be blank)
    value = first[header.index(series[0])] if series[0] in header else None
    assert said.startswith(f"{series[0]}, point 1 of ")
    assert f"{header[0]} {first[0]}," in said
    if value:
        assert said.rstrip(".").endswith(value)
    before = len(page.evaluate("() => window.perceptronLabSound.scheduled"))
    page.get_by_role("button", name=f"Play as sound: {chart.get_attribute('aria-label')}").click()
    played = page.evaluate("(n) => window.perceptronLabSound.scheduled.slice(n)", before)
    # the first series, each value's pitch by its place between the least and the greatest
    # value on the axis (of every series on it)
    values = chart.evaluate(
        "(p) => p._fullData.filter(t => t.visible !== false).map(t => Array.from(t.y).map(Number))"
    )
    low, high = min(map(min, values)), max(map(max, values))
    expected = [pitch(2 * (v - low) / (high - low) - 1) for v in values[0]]
    assert [s["kind"] for s in played] == ["chart"] * len(expected)
    assert [s["hz"] for s in played] == pytest.approx(expected, rel=REL)
