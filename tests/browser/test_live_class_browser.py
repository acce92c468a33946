"""A live class in chromium: one teacher's page and three students' pages, first on one
server with the default SQLite store, then on PostgreSQL (a server the test starts) with two
app processes, the students split between them (tests/live_class_scenario.py says what the
teacher and the students do). The seconds from the teacher's action to each student's page
are printed; the benchmark (benchmarks/bench_class.py) measures them under load."""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys

import pytest

from tests.chromium import ARTIFACTS, PLOT_POINT_JS
from tests.live import free_port, stop, wait_for_health
from tests.live_class_scenario import (
    FRAME,
    WAIT_MS,
    replay,
    run_class,
    start_class,
    step_to,
    wait_in_replay,
    wait_painted,
    wait_text,
)
from tests.postgres import postgres_server

pytestmark = pytest.mark.browser

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@contextlib.contextmanager
def app_server(environ: dict):
    """``streamlit run app.py`` from the checkout with ``environ`` added; its address."""
    port = free_port()
    command = [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true"]
    command += ["--server.port", str(port), "--server.address", "127.0.0.1"]
    proc = subprocess.Popen(
        command,
        cwd=ROOT,
        env={**os.environ, **environ},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_for_health(f"{url}/_stcore/health", proc)
        yield url
    finally:
        stop(proc)


def _report(outcome, where: str) -> None:
    print(
        f"{where}: brought to step 57 after "
        + ", ".join(f"{s:.2f}" for s in outcome.brought)
        + f" s ({outcome.fetched} fetched from the class's route); a followed step after "
        + ", ".join(f"{s:.2f}" for s in outcome.followed)
        + " s; a question revealed (results and step 59) after "
        + ", ".join(f"{s:.2f}" for s in outcome.revealed)
        + " s"
    )


def test_a_class_on_one_server_with_sqlite(server, browser):
    outcome = run_class(browser, server, [server] * 3, shots=ARTIFACTS)
    assert len(outcome.brought) == len(outcome.followed) == len(outcome.revealed) == 3
    assert outcome.fetched == 3  # the teacher's process had the new view: no student waited
    _report(outcome, "SQLite, one process")


def test_a_class_on_postgresql_with_two_app_processes(browser, tmp_path):
    with postgres_server() as database:
        environ = {"PERCEPTRON_LAB_CLASS_DB": database.url}
        with app_server(environ) as first, app_server(environ) as second:
            outcome = run_class(browser, first, [first, second, second], shots=None)
    assert len(outcome.brought) == len(outcome.followed) == len(outcome.revealed) == 3
    # the first student's page of the second process drew the view for it (or both did,
    # when the second asked after the first's claim had run out)
    assert outcome.fetched >= 1
    _report(outcome, "PostgreSQL, two processes")


def _where_question(seed: int, step: int):
    """The "where does w go" question before ``step`` of the playground's perceptron (η = 1)
    on the separable set of ``seed``, from the Python reference."""
    from perceptron_lab.app_logic.datasource import DataRequest, make_dataset
    from perceptron_lab.app_logic.predictions import Predict, Questions
    from tests.pages import page_run

    data = make_dataset(DataRequest("separable", seed=seed))
    run = page_run("perceptron", {"eta": 1.0}, 20, seed, data)
    return Questions([run], data, Predict(on=True, kinds=("where",), seed=seed)).at(step)


def _click_at(page, point) -> None:
    """A click on the replay's plot at the data point ``point``."""
    frame = replay(page)
    box = page.locator(FRAME).bounding_box()
    at = frame.evaluate(PLOT_POINT_JS, list(point))
    page.mouse.click(box["x"] + at[0], box["y"] + at[1])


def test_a_where_question_pools_the_marks_as_histograms(server, browser):
    """Where does w land, asked of two students: one clicks near the right w, the other types
    a point off it; the teacher's page counts both in a histogram per coordinate, and the
    students' pages show none until the reveal. Keyboard names and axe on both pages."""
    from tests.accessibility import SERIOUS, audit

    question = _where_question(0, 9)
    assert question is not None and question.kind == "where"
    teacher, _, students = start_class(browser, f"{server}/?perceptron_eta=1", 2)
    step_to(teacher, 8)
    for page in students:
        wait_painted(page, 8)
    replay(teacher).locator(".class-ask").click()
    chooser = replay(teacher).locator(".class-question form")
    chooser.get_by_label("Where w lands (a point on the plot)").check()
    chooser.get_by_role("button", name="Ask").click()
    wait_in_replay(teacher, "() => document.querySelectorAll('.hist').length === 2")

    near, far = students
    form = replay(near).locator(".class-question form")
    form.wait_for(timeout=WAIT_MS)
    for name in ("w₁, the first coordinate", "w₂, the second coordinate"):
        assert form.get_by_role("spinbutton", name=re.compile(name)).count() == 1
    serious = [v["id"] for v in audit(near) if v["impact"] in SERIOUS]
    assert serious == [], serious
    _click_at(near, question.answer)
    form.get_by_role("button", name="Send").click()
    far_form = replay(far).locator(".class-question form")
    far_form.wait_for(timeout=WAIT_MS)
    far_form.get_by_role("spinbutton", name=re.compile("w₁")).fill(str(question.answer[0] + 0.5))
    far_form.get_by_role("spinbutton", name=re.compile("w₂")).fill(str(question.answer[1]))
    far_form.get_by_role("spinbutton", name=re.compile("w₂")).press("Enter")
    wait_text(teacher, ".class-answered", "2 of 2 connected answered", "equals")
    for histogram in replay(teacher).locator(".hist").all():
        bins = histogram.locator("ul li").all_text_contents()
        assert sum(int(b.rsplit(": ", 1)[1]) for b in bins) == 2, bins
    replay(teacher).get_by_role("button", name="Show the right answer").click()
    words = replay(teacher).locator(".class-answered").inner_text()
    assert words == "2 of 2 connected answered · 1 right (50 %)", words
    assert replay(teacher).locator(".hist-bar.right").count() == 2
    serious = [v["id"] for v in audit(teacher) if v["impact"] in SERIOUS]
    assert serious == [], serious
    for page in students:
        assert replay(page).locator(".hist, .class-answered").count() == 0
    teacher.screenshot(path=ARTIFACTS / "class_question_where_teacher.png")
    near.set_viewport_size({"width": 390, "height": 844})
    replay(near).locator(".class-question").scroll_into_view_if_needed()
    near.screenshot(path=ARTIFACTS / "class_question_where_phone.png")

    replay(teacher).get_by_role("button", name="Reveal to the class").click()
    for page, verdict in zip(students, ("Right.", "Not this time."), strict=True):
        wait_painted(page, 9)
        wait_text(page, ".class-question .class-answered", "2 answered", "startsWith")
        assert replay(page).locator(".class-question .verdict b").inner_text() == verdict
    assert "w lands at" in replay(far).locator(".class-question .verdict").inner_text()


#: What the replay's live region says now.
SAID = "(document.querySelector('body > .sr-only[aria-live=polite]')?.textContent || '')"


def _pool_words(page, exercise: str) -> str:
    return page.locator(f".st-key-exercise-{exercise} .class-pool").inner_text()


def test_a_lessons_exercise_asked_to_the_class_is_checked_and_pooled_by_the_server(
    server, browser
):
    """The teacher of a class opens lesson 1 (the session keeps the class) and asks its number
    exercise as the page words it; three students answer in their class bars (one by the
    keyboard alone): the right number, a slip the exercise names, another number. The
    teacher's page pools the 3 answers (the misconceptions by name, on request) while the
    students' pages show none; after the reveal each student sees the exercise's verdict on
    their own answer. Axe on both pages at 1280 and 390 px."""
    from perceptron_lab.app_logic.exercises import BY_ID
    from tests.accessibility import SERIOUS, audit
    from tests.exercise_facts import facts

    exercise = "l01-score-change"
    question = BY_ID[exercise].question(facts(1), 0)  # the page at its opening controls
    teacher, _, students = start_class(browser, f"{server}/", 3)
    teacher.get_by_role("link", name="1 · The perceptron rule").click()
    box = teacher.locator(f".st-key-exercise-{exercise}")
    box.get_by_role("button", name="Ask the class").click()
    teacher.locator(f".st-key-exercise-{exercise} .class-answered").wait_for(timeout=WAIT_MS)

    # a student's screen reader hears the question come (the replay's live region)
    wait_in_replay(students[0], f'() => {SAID}.includes("Your teacher asks lesson 1\'s exercise")')
    slip = question.slips["no C"]
    typed = [f"{question.answer:.4f}", f"{slip:.4f}", "99"]
    for page, text in zip(students, typed, strict=True):
        form = replay(page).locator(".class-question form")
        form.wait_for(timeout=WAIT_MS)
        assert question.text in replay(page).locator(".class-prompt").inner_text()
        field = form.get_by_role("textbox", name=re.compile("Your answer: a number"))
        if page is students[1]:  # by the keyboard alone: the field, typed, Enter sends
            field.focus()
            page.keyboard.type(text)
            page.keyboard.press("Enter")
        else:
            field.fill(text)
            form.get_by_role("button", name="Send").click()
        wait_text(page, ".class-sent", f"Sent: {text}.", "startsWith")
    teacher.wait_for_function(
        "(selector) => (document.querySelector(selector)?.innerText || '')"
        ".startsWith('3 of 3 connected answered')",
        arg=f".st-key-exercise-{exercise} .class-answered",
        timeout=WAIT_MS,
    )
    words = _pool_words(teacher, exercise)
    assert "right" not in words and "Misconceptions" not in words, words  # projected: off
    box.get_by_text("Show the right answer and the misconceptions").click()
    teacher.wait_for_function(
        "(selector) => (document.querySelector(selector)?.innerText || '').includes('1 right')",
        arg=f".st-key-exercise-{exercise} .class-answered",
        timeout=WAIT_MS,
    )
    named = teacher.locator(f".st-key-exercise-{exercise} .pool-misconceptions li")
    assert named.count() == 2
    assert (
        question.misconceptions["no C"].feedback
        in named.all_inner_texts()[0] + (named.all_inner_texts()[1])
    )
    for page in students:  # nothing pooled, and no verdict, on a student's page
        words = replay(page).locator(".class-question").inner_text()
        assert "answered" not in words and "right" not in words.lower(), words
        assert replay(page).locator(".class-pool, .verdict").count() == 0
    for width, height in ((1280, 720), (390, 844)):
        for page, who in ((teacher, "teacher"), (students[0], "student")):
            page.set_viewport_size({"width": width, "height": height})
            serious = [v["id"] for v in audit(page) if v["impact"] in SERIOUS]
            assert serious == [], (who, width, serious)
            shown = (
                box.locator(".class-pool")
                if page is teacher
                else replay(page).locator(".class-question")
            )
            shown.scroll_into_view_if_needed()
            page.screenshot(path=ARTIFACTS / f"class_exercise_{who}_{width}.png")
    teacher.set_viewport_size({"width": 1280, "height": 720})

    box.get_by_role("button", name="Reveal to the class").click()
    expected = ["Right.", "Not this time.", "Not this time."]
    for page, verdict in zip(students, expected, strict=True):
        wait_text(page, ".class-question .verdict b", verdict, "equals")
        wait_text(page, ".class-question .class-answered", "3 answered · 1 right", "startsWith")
    wait_in_replay(students[0], f"() => {SAID}.startsWith('Right. Your answer:')")
    slipped = replay(students[1]).locator(".class-question .verdict").inner_text()
    assert question.misconceptions["no C"].feedback in slipped, slipped
    teacher.locator(f".st-key-exercise-{exercise}").get_by_text("revealed to the class").wait_for(
        timeout=WAIT_MS
    )
    replay(students[1]).locator(".class-question .verdict").scroll_into_view_if_needed()
    students[1].screenshot(path=ARTIFACTS / "class_exercise_revealed_1280.png")
