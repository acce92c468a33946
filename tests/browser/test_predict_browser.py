"""Predict, then step, in chromium: the playground served by Streamlit with ``predict=1``,
compare mode, a lesson's figure, the link the replay writes, and the exported page with every
kind of question; by the keyboard alone and with what a screen reader hears (the live region,
the question's fieldset and names), and axe-core over the new controls.

The right answers are not read from the page: each is computed in Python for the same run by
:class:`app_logic.predictions.Questions` (itself checked against independent computations in
tests/test_predictions.py), and the score the page shows is compared with them.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlparse

import pytest

from perceptron_lab.app_logic.datasource import DataRequest, make_dataset
from perceptron_lab.app_logic.predictions import Predict, Questions
from perceptron_lab.ui.standalone_page import run_page
from tests.accessibility import SERIOUS, audit, axe_core, open_exported
from tests.chromium import ARTIFACTS, PLOT_POINT_JS, find_replay
from tests.pages import page_run

pytestmark = pytest.mark.browser

FRAME = "iframe[title$='playback']"
LIVE = "[role=status][aria-live=polite]"
#: The playground's first view: the perceptron on the separable set, 20 epochs, seed 0.
PLAYGROUND = ("perceptron", {}, 20, DataRequest("separable"))


def _open(page, url: str):
    """The playground at ``url`` once its replay has painted and settled; its frame."""
    page.goto(url)
    page.wait_for_selector(FRAME, timeout=90_000)
    page.frame_locator(FRAME).first.locator(".js-plotly-plot").first.wait_for(timeout=90_000)
    frame = find_replay(page)
    frame.wait_for_function("() => window.playback && window.playback.settled", timeout=90_000)
    return frame


def _painted(frame) -> int:
    return frame.evaluate("() => window.playback.painted")


def _legend(frame) -> str:
    return frame.locator(".question legend").inner_text()


def _asked(frame) -> dict:
    """The question waiting in the replay (its step, kind, options and point)."""
    return frame.evaluate("() => window.playback.predictor.pending")


def _playground_questions(predict: Predict):
    key, values, epochs, request = PLAYGROUND
    data = make_dataset(request)
    run = page_run(key, values, epochs, request.seed, data)
    return Questions([run], data, predict), run


def test_predict_1_asks_before_each_step_and_holds_the_step_until_answered(server, page):
    frame = _open(page, f"{server}/?predict=1")
    assert frame.get_by_role("checkbox", name="Predict, then step").is_checked()
    questions, _ = _playground_questions(Predict(on=True))
    live = frame.locator(LIVE)
    for s in (1, 2, 3):
        frame.locator(".btn-step").click()
        frame.locator(".question legend").wait_for()
        assert _legend(frame).startswith(f"Before step {s}.")
        assert _painted(frame) == s - 1  # asked, not shown
        expected = questions.at(s)
        assert _asked(frame)["kind"] == expected.kind and _asked(frame)["step"] == s
        # Step again without an answer: nothing moves, and the reader is told why
        frame.locator(".btn-step").click()
        note = frame.locator(".predict-note")
        assert note.is_visible()
        assert note.inner_text() == f"Answer the question, or skip it, to see step {s}."
        assert live.text_content() == note.inner_text()
        assert _painted(frame) == s - 1
        frame.locator(".btn-play").click()  # Play waits too
        page.wait_for_timeout(300)
        assert _painted(frame) == s - 1
        # the first choice, whatever it is: the verdict goes through the live region
        if expected.kind == "where":
            frame.locator(".coord-1").fill("0")
            frame.locator(".coord-2").fill("0")
        else:
            frame.locator(".question input[type=radio]").first.check()
        frame.locator(".btn-check").click()
        frame.wait_for_function("(s) => window.playback.painted === s", arg=s)
        right = frame.evaluate("() => window.playback.predict.history.at(-1).right")
        said = live.text_content()
        assert said.startswith("Right." if right else "Not this time.")
        assert f"Step {s} of " in said  # then the step, as a move says it
        verdict = frame.locator(".verdict").inner_text().lstrip("✓✗ ")
        assert verdict.startswith(said.split(" Step")[0])  # the panel says it too
    # Skip shows the step and counts it
    frame.locator(".btn-step").click()
    frame.locator(".btn-skip").click()
    frame.wait_for_function("() => window.playback.painted === 4")
    assert live.text_content().startswith("Skipped.")
    record = frame.evaluate("() => window.playback.predict")
    assert (record["asked"], record["skipped"]) == (4, 1)
    assert "1 skipped" in frame.locator(".predict-score").inner_text()
    # a step already answered is not asked again
    frame.locator(".btn-back").click()
    frame.locator(".btn-step").click()
    frame.wait_for_function("() => window.playback.painted === 4")
    assert frame.locator(".question").count() == 0


def _choose(page, frame, question, right: bool) -> object:
    """Answer the waiting question with the keyboard alone, rightly or not; returns the answer."""
    if question.kind == "where":
        point = question.answer if right else question.start
        page.keyboard.type(f"{point[0]:.6f}")
        page.keyboard.press("Tab")
        page.keyboard.type(f"{point[1]:.6f}")
        page.keyboard.press("Enter")  # a number field submits its form
        return point
    options = list(question.options)
    wanted = question.answer if right else next(o for o in options if o != question.answer)
    n = options.index(wanted)
    if n == 0:
        page.keyboard.press("Space")  # the focused first choice
    for _ in range(n):
        page.keyboard.press("ArrowDown")  # moves to the next choice and picks it
    page.keyboard.press("Enter")
    return wanted


def test_a_keyboard_walk_answers_ten_predictions_and_the_score_is_the_runs(server, page):
    frame = _open(page, f"{server}/?predict=1")
    questions, run = _playground_questions(Predict(on=True))
    frame.locator(".btn-step").focus()
    given = []
    for n in range(10):
        s = n + 1
        page.keyboard.press("ArrowRight")  # the replay's key for Step
        frame.locator(".question legend").wait_for()
        focused = frame.evaluate("() => document.activeElement.closest('fieldset') !== null")
        assert focused, "the question takes the focus, so that it is read"
        expected = questions.at(s)
        assert _asked(frame)["step"] == s and _asked(frame)["kind"] == expected.kind
        right = n % 3 != 2  # some wrong on purpose
        answer = _choose(page, frame, expected, right)
        frame.wait_for_function("(s) => window.playback.painted === s", arg=s)
        assert frame.evaluate("() => document.activeElement.dataset.action") == "step"
        given.append((expected, answer, right))
    record = frame.evaluate("() => window.playback.predict")
    assert [e["step"] for e in record["history"]] == list(range(1, 11))
    for entry, (expected, answer, right) in zip(record["history"], given, strict=True):
        assert entry["kind"] == expected.kind
        mine = tuple(answer) if expected.kind == "where" else answer
        assert entry["right"] == expected.is_right(mine)
        assert entry["right"] == right
    wins = sum(right for *_, right in given)
    assert record["right"] == wins and record["asked"] == 10
    score = frame.locator(".predict-score")
    marks = "".join("✓" if right else "✗" for *_, right in given[-5:])
    assert score.inner_text().startswith(f"{wins} of 10 right; last five {marks}")
    said = ", ".join("right" if right else "wrong" for *_, right in given[-5:])
    assert score.locator(".sr-only").text_content() == f"last five: {said}"
    assert score.locator(".marks").get_attribute("aria-hidden") == "true"
    _shots(page, "predict-playground")


def _shots(page, name: str) -> None:
    """The page at a laptop's and a phone's size, scrolled to the replay (test-artifacts/)."""
    for width, height in ((1280, 720), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(800)
        page.locator(FRAME).first.scroll_into_view_if_needed()
        page.screenshot(path=ARTIFACTS / f"{name}-{width}x{height}.png")
    page.set_viewport_size({"width": 1280, "height": 720})


def test_the_switch_and_the_steps_that_ask_go_into_the_link(server, page):
    frame = _open(page, f"{server}/")
    panel = frame.locator(".predict")
    assert panel.is_hidden()
    frame.locator(".btn-step").click()
    frame.wait_for_function("() => window.playback.painted === 1")  # no question: it is off
    frame.get_by_role("checkbox", name="Predict, then step").check()
    assert panel.is_visible()
    frame.get_by_role("combobox", name="Ask before").select_option("kth")
    k = frame.get_by_role("spinbutton", name="k, the steps between questions")
    k.fill("4")
    k.press("Enter")
    page.wait_for_function("() => location.search.includes('ask=4')")
    query = parse_qs(urlparse(page.url).query)
    assert query["predict"] == ["1"] and query["ask"] == ["4"]
    frame.locator("summary", has_text="Share").click()
    link = parse_qs(urlparse(frame.locator("input.link").input_value()).query)
    assert link["predict"] == ["1"] and link["ask"] == ["4"]
    frame.locator(".btn-step").click()  # steps 2 and 3 do not ask, step 4 does
    frame.locator(".btn-step").click()
    frame.wait_for_function("() => window.playback.painted === 3")
    frame.locator(".btn-step").click()
    frame.locator(".question legend").wait_for()
    assert _legend(frame).startswith("Before step 4.")
    k.fill("1")  # not accepted: said, and k stays
    k.press("Enter")
    assert k.input_value() == "4"
    assert "k takes a whole number from 2 to 10,000" in frame.locator(LIVE).text_content()
    # reloaded, the link opens in predict mode with the same steps
    page.reload()
    frame = _open(page, page.url)
    assert frame.get_by_role("checkbox", name="Predict, then step").is_checked()
    assert frame.get_by_role("combobox", name="Ask before").input_value() == "kth"
    frame.get_by_role("checkbox", name="Predict, then step").uncheck()
    page.wait_for_function("() => !location.search.includes('predict=')")
    assert "ask=" not in page.url


def test_compare_mode_asks_about_each_run_by_name(server, page):
    frame = _open(page, f"{server}/?compare=pa&predict=1")
    titles = {"Perceptron (classic)", "Passive-Aggressive"}
    named = set()
    for s in range(1, 9):
        frame.locator(".btn-step").click()
        frame.locator(".question legend").wait_for()
        legend = _legend(frame)
        named |= {title for title in titles if f"Before step {s}. {title}" in legend}
        frame.locator(".btn-skip").click()
        frame.wait_for_function("(s) => window.playback.painted === s", arg=s)
    assert named, "the question names the run it is about"


def test_a_lessons_figure_asks_when_its_link_says_so(server, page):
    page.goto(f"{server}/the_perceptron_rule?predict=1")
    page.wait_for_selector(FRAME, timeout=90_000)
    frame = find_replay(page)
    frame.wait_for_function("() => window.playback && window.playback.settled", timeout=90_000)
    start = _painted(frame)
    frame.locator(".btn-step").click()
    frame.locator(".question legend").wait_for()
    assert _legend(frame).startswith(f"Before step {start + 1}.")


def test_axe_finds_nothing_serious_with_a_question_and_a_verdict(server, page):
    axe_core()
    frame = _open(page, f"{server}/?predict=1")
    frame.locator(".btn-step").click()
    frame.locator(".question legend").wait_for()
    page.set_viewport_size({"width": 1280, "height": 2400})
    serious = [v for v in audit(page) if v["impact"] in SERIOUS]
    assert serious == []
    frame.locator(".btn-skip").click()
    frame.locator(".verdict").wait_for()
    serious = [v for v in audit(page) if v["impact"] in SERIOUS]
    assert serious == []


# -- the exported page: every kind of question, no server ---------------------------------

#: A learner, its settings and a kind of question it asks.
KIND_CASES = {
    "outcome": ("margin", {"eta": 1.0, "tau": 0.5}),
    "side": ("perceptron", {"eta": 1.0}),
    "lines": ("perceptron", {"eta": 1.0}),
    "where": ("perceptron", {"eta": 1.0}),
    "predictor": ("voted", {}),
    "vote": ("parallel", {}),
    "noisy": ("parallel", {}),
}


@pytest.fixture(scope="module")
def noisy():
    request = DataRequest("gaussians", (("n_samples", 60),), "uniform", 0.1, 0.2, seed=4)
    return request, make_dataset(request)


def _exported(tmp_path, noisy, kind):
    """The exported page of a run that asks only ``kind``, opened just before its first such
    question, and that question (from the Python reference)."""
    request, data = noisy
    key, values = KIND_CASES[kind]
    run = page_run(key, values, 5, request.seed, data)
    predict = Predict(on=True, kinds=(kind,), seed=4)
    questions = Questions([run], data, predict)
    question = next(q for s in range(1, run.timeline.n_events + 1) if (q := questions.at(s)))
    path = tmp_path / f"{kind}.html"
    page = run_page(run, data, request, 5, initial_t=question.step - 1, predict=predict)
    path.write_text(page, encoding="utf-8")
    return path, question, run


@pytest.mark.parametrize("kind", sorted(KIND_CASES))
def test_every_kind_of_question_is_asked_answered_and_clean(browser, tmp_path, noisy, kind):
    path, question, _ = _exported(tmp_path, noisy, kind)
    page = browser.new_page(viewport={"width": 1280, "height": 1600})
    errors = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    open_exported(page, path)
    events = page.evaluate_handle(
        "() => { const got = []; addEventListener('playback-predict', e => got.push(e.detail)); "
        "return got; }"
    )
    page.locator(".btn-step").click()
    legend = page.locator(".question legend")
    legend.wait_for()
    assert page.evaluate("() => window.playback.predictor.pending.kind") == kind
    # every control has a name, inside a fieldset named by the question
    if kind == "where":
        for name in ("w₁, the first coordinate", "w₂, the second coordinate"):
            assert page.get_by_role("spinbutton", name=re.compile(name)).count() == 1
    else:
        assert page.get_by_role("radio").count() == len(question.options)
    assert page.get_by_role("group", name=legend.inner_text()).count() == 1
    serious = [v for v in audit(page) if v["impact"] in SERIOUS]
    assert serious == [], serious
    if kind == "where":
        _click_where(page, question)
    else:
        page.get_by_role("radio").first.check()
    page.locator(".btn-check").click()
    page.wait_for_function("(s) => window.playback.painted === s", arg=question.step)
    got = events.evaluate("(got) => got")
    assert len(got) == 1 and got[0]["entry"]["step"] == question.step
    assert got[0]["record"]["asked"] == 1
    serious = [v for v in audit(page) if v["impact"] in SERIOUS]
    assert serious == [], serious
    assert errors == []
    if kind in ("lines", "where"):
        page.set_viewport_size({"width": 1280, "height": 720})
        page.screenshot(path=ARTIFACTS / f"predict-{kind}-verdict.png")
    page.close()


def _click_where(page, question) -> None:
    """A click on the plot at a point near w's answer: the fields take its coordinates."""
    at = page.evaluate(PLOT_POINT_JS, list(question.answer))
    page.mouse.click(at[0], at[1])
    w1 = float(page.locator(".coord-1").input_value())
    w2 = float(page.locator(".coord-2").input_value())
    assert abs(w1 - question.answer[0]) < question.tolerance / 2
    assert abs(w2 - question.answer[1]) < question.tolerance / 2
    assert page.locator(LIVE).text_content().startswith("Your mark of w: (")
    # the mark is drawn where it was clicked
    rings = page.evaluate(
        "() => document.querySelector('.figure-box .js-plotly-plot').layout.shapes"
        ".filter(s => s.label && s.label.text === 'your w').length"
    )
    assert rings == 1


def test_a_wrong_line_names_its_misconception(browser, tmp_path, noisy):
    path, question, _ = _exported(tmp_path, noisy, "lines")
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    open_exported(page, path)
    page.locator(".btn-step").click()
    page.locator(".question legend").wait_for()
    drawn = page.evaluate(
        "() => document.querySelector('.figure-box .js-plotly-plot').layout.shapes"
        ".filter(s => s.label && /^<b>[ABC]<\\/b>$/.test(s.label.text)).length"
    )
    assert drawn == len(question.candidates)
    wrong = next(c for c in question.candidates if c[1] != "answer")
    page.get_by_role("radio", name=re.compile(f"^Line {wrong[0]}:")).check()
    page.locator(".btn-check").click()
    verdict = page.locator(".verdict").inner_text()
    assert f"Line {question.answer} is the boundary after the step." in verdict
    assert f"Line {wrong[0]} " in verdict.split("step.")[1]
    page.close()


#: JavaScript: the replay's elements that reach beyond the window's edges (WCAG 1.4.10).
OFF_THE_WINDOW_JS = """() => {
  const width = document.documentElement.clientWidth;
  return Array.from(document.querySelectorAll('#app *'))
    .filter((el) => !el.ownerSVGElement && !el.closest('.sr-only, .js-plotly-plot'))
    .filter((el) => { const r = el.getBoundingClientRect();
      return r.width > 0 && (r.left < -1 || r.right > width + 1); })
    .map((el) => el.tagName + '.' + el.className + ': ' + (el.innerText || '').slice(0, 40));
}"""


@pytest.mark.parametrize("kind", ["lines", "where", "noisy"])
def test_a_question_fits_a_320_px_window_above_its_figure(browser, tmp_path, noisy, kind):
    path, _, _ = _exported(tmp_path, noisy, kind)
    page = browser.new_page(viewport={"width": 320, "height": 640})
    open_exported(page, path)
    page.locator(".btn-step").click()
    page.locator(".question legend").wait_for()
    assert page.evaluate(OFF_THE_WINDOW_JS) == []
    # one column: the question comes before the figure it asks about
    question = page.locator(".predict").bounding_box()
    figure = page.locator(".figure-box").first.bounding_box()
    assert question["y"] + question["height"] <= figure["y"]
    page.close()
