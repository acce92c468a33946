"""A lesson's exercises in chromium, against the app served from the checkout: answered, the
verdict in a status region that was on the page before it, the progress kept in the
browser's localStorage and shown in the sidebar after a reload, the summary saved with the
answers, and the progress erased; a teacher's link that sets a few exercises; the figure's
predictions scored by the sidebar's panel, kept after a reload and saved in the summary.

Screenshots of an exercise after a wrong answer and of the sidebar's progress go to
``test-artifacts/`` (git-ignored).
"""

from __future__ import annotations

import json

import pytest

from perceptron_lab.app_logic.exercises import BY_ID, for_lesson
from perceptron_lab.app_logic.exercises.model import check
from tests.accessibility import lesson_path
from tests.chromium import ARTIFACTS, ROOT, settle
from tests.exercise_facts import facts

pytestmark = pytest.mark.browser

LESSON = ROOT / "lessons" / "01_the_perceptron_rule.py"


def _box(page, exercise_id: str):
    """The bordered box of one exercise (a container keyed with the exercise's id)."""
    return page.locator(f".st-key-exercise-{exercise_id}")


def _progress(page):
    """The sidebar's progress panel (the component's frame)."""
    for frame in page.frames:
        if "/component/" in frame.url and "progress" in frame.url:
            frame.wait_for_selector("#lessons li")
            return frame
    raise AssertionError(f"no progress panel among {[f.url for f in page.frames]}")


def _count(frame, lesson: int) -> str:
    return frame.locator("#lessons li").nth(lesson - 1).locator(".count").inner_text()


def _answer_number(page, exercise_id: str, text: str) -> str:
    box = _box(page, exercise_id)
    status = box.locator("[role='status']")
    region = status.element_handle()  # on the page before any answer
    assert status.inner_text() == ""
    box.get_by_label("Your answer", exact=False).fill(text)
    box.get_by_role("button", name="Check").click()
    page.wait_for_function("(el) => el.textContent.length > 0", arg=region, timeout=60_000)
    # the same element, its text changed: a screen reader announces it
    assert region.evaluate("(el) => el.isConnected")
    return region.inner_text()


def test_answers_are_checked_kept_after_a_reload_saved_and_erased(server, browser):
    page = browser.new_page(viewport={"width": 1280, "height": 720}, accept_downloads=True)
    try:
        page.goto(f"{server}/{lesson_path(LESSON)}")
        settle(page, opened=True)
        assert _count(_progress(page), 1) == f"0 of {len(for_lesson(1))}"

        first, second = [e for e in for_lesson(1) if e.form == "number"][:2]
        right = first.question(facts(1), 0).answer
        said = _answer_number(page, first.id, f"{right:.4f}")
        assert said.startswith("Right."), said
        wrong = _answer_number(page, second.id, "12345")
        assert wrong.startswith("Not yet.") and " See " in wrong, wrong
        box = _box(page, second.id)
        box.scroll_into_view_if_needed()
        box.screenshot(path=str(ARTIFACTS / "exercise_wrong.png"))
        assert box.get_by_role("button", name="Try another variant").is_visible()

        frame = _progress(page)
        frame.wait_for_function("() => document.body.innerText.includes('1 of')")
        page.reload()
        settle(page, opened=True)
        frame = _progress(page)
        assert _count(frame, 1) == f"1 of {len(for_lesson(1))}"
        assert _count(frame, 2) == f"0 of {len(for_lesson(2))}"
        page.locator("[data-testid='stSidebar']").screenshot(
            path=str(ARTIFACTS / "exercise_sidebar.png")
        )

        with page.expect_download() as download:
            frame.get_by_role("button", name="Save a summary").click()
        summary = json.loads(open(download.value.path(), encoding="utf-8").read())
        lesson = summary["lessons"][0]
        assert summary["version"] and summary["saved"]
        assert (lesson["lesson"], lesson["done"]) == (1, 1)
        kept = {e["id"]: e for e in lesson["exercises"]}
        assert kept[first.id]["right"] and kept[first.id]["answer"] == f"{right:.4f}"
        assert not kept[second.id]["right"] and kept[second.id]["answer"] == "12345"
        assert "Saved" in frame.locator("#said").inner_text()

        frame.get_by_role("button", name="Erase my progress").click()
        frame.get_by_role("button", name="Erase", exact=True).click()
        assert _count(frame, 1) == f"0 of {len(for_lesson(1))}"
        assert frame.locator("#said").inner_text() == "Your progress is erased."
        page.reload()
        settle(page, opened=True)
        assert _count(_progress(page), 1) == f"0 of {len(for_lesson(1))}"  # not sent again
    finally:
        page.close()


def test_a_teachers_link_sets_the_exercises_and_refuses_a_wrong_id(server, page):
    chosen = [e.id for e in for_lesson(1)][1:3]
    page.goto(f"{server}/{lesson_path(LESSON)}?exercises={','.join(chosen)}")
    settle(page, opened=True)
    headings = page.locator("h3").filter(has_text="Exercise").all_inner_texts()
    assert len(headings) == 2, headings
    assert page.get_by_text("sets 2 of this lesson's").is_visible()
    page.goto(f"{server}/{lesson_path(LESSON)}?exercises=l01-nothing")
    settle(page, opened=True)
    error = page.locator("[data-testid='stAlert']").filter(has_text="l01-nothing").inner_text()
    assert all(e.id in error for e in for_lesson(1))
    assert len(page.locator("h3").filter(has_text="Exercise").all()) == len(for_lesson(1))


FRAME = "iframe[title$='playback']"


def _figure(page):
    """The lesson's figure: the replay's frame, once it has painted."""
    handle = page.locator(FRAME).first.element_handle()
    frame = handle.content_frame()
    frame.wait_for_function("() => window.playback && window.playback.settled", timeout=90_000)
    return frame


def _predict(frame, asked, right: bool) -> None:
    """Answer the question the replay poses before ``asked.step``, rightly or not."""
    frame.locator(".question legend").wait_for()
    assert frame.evaluate("() => window.playback.predictor.pending.step") == asked.step
    if asked.kind == "where":
        x, y = asked.answer if right else (asked.answer[0] + 10 * asked.tolerance, asked.answer[1])
        frame.locator(".coord-1").fill(f"{x:.6f}")
        frame.locator(".coord-2").fill(f"{y:.6f}")
    else:
        options = list(asked.options)
        wanted = asked.answer if right else next(o for o in options if o != asked.answer)
        frame.locator(".question input[type=radio]").nth(options.index(wanted)).check()
    frame.locator(".btn-check").click()
    frame.wait_for_function("(s) => window.playback.painted === s", arg=asked.step)


def test_predictions_on_the_figure_are_scored_kept_after_a_reload_and_saved(server, browser):
    """The figure's questions answered (one wrong), the replay exercise marked done in the
    sidebar by the lab's answers, still done after a reload, and its score in the summary."""
    page = browser.new_page(viewport={"width": 1280, "height": 720}, accept_downloads=True)
    try:
        page.goto(f"{server}/{lesson_path(LESSON)}")
        settle(page, opened=True)
        exercise = BY_ID["l01-predict"]
        question = exercise.question(facts(1), 0)
        total = len(for_lesson(1))
        progress = _progress(page)
        assert _count(progress, 1) == f"0 of {total}"
        assert (
            progress.locator("#predictions")
            .inner_text()
            .startswith("Predictions on this figure: none yet")
        )
        figure = _figure(page)
        figure.locator(".btn-start").click()
        for n, asked in enumerate(question.answer):
            figure.locator(".btn-play").click()  # plays on until the next step that asks
            _predict(figure, asked, right=n != 0)
            if n == 0:  # one answered, wrong: counted, not done
                progress.wait_for_function(
                    "() => document.querySelector('#predictions').textContent.includes('0 right')"
                )
        progress.wait_for_function(
            "() => document.querySelector('#predictions').textContent.includes('done')"
        )
        assert _count(progress, 1) == f"1 of {total}"
        assert "Exercise done" in progress.locator("#said").inner_text()
        # the panel's verdict is the lab's: the same record, judged in Python
        record = figure.evaluate("() => window.playback.predict")
        verdict = check(question, record["history"])
        assert verdict.right and verdict.text.startswith("Right. 5 of your 6 predictions")
        page.locator("[data-testid='stSidebar']").screenshot(
            path=str(ARTIFACTS / "exercise_replay_sidebar.png")
        )

        page.reload()
        settle(page, opened=True)
        progress = _progress(page)
        assert _count(progress, 1) == f"1 of {total}"
        assert (
            progress.locator("#predictions")
            .inner_text()
            .startswith("Predictions on this figure: done")
        )
        with page.expect_download() as download:
            progress.get_by_role("button", name="Save a summary").click()
        summary = json.loads(open(download.value.path(), encoding="utf-8").read())
        lesson = summary["lessons"][0]
        assert lesson["done"] == 1
        kept = {e["id"]: e for e in lesson["exercises"]}
        assert kept["l01-predict"]["done"] and kept["l01-predict"]["kind"] == "replay"
        (score,) = lesson["predictions"]
        assert (score["id"], score["answered"], score["right"]) == ("l01-predict", 6, 5)
        assert score["needed"] == {"answers": 5, "right": 4}
        assert [e["step"] for e in score["history"]] == [q.step for q in question.answer]
        assert [e["right"] for e in score["history"]] == [False] + [True] * 5
    finally:
        page.close()
