"""A live class as a teacher and three students run it, in chromium (not a test by itself).

:func:`run_class` drives it on one app server or several (each student on the server given
for them, the teacher on the first): the teacher starts a class from the playground; the
students join by typing the code; the teacher lets them explore, changes the view, goes to
step 57 and brings everyone there; projects one student's view (anonymously); a student's
seat, on a raw websocket, tries to pace, ask and end the class; the teacher's tab closes
and the teacher link opens the class again, in presentation mode, and paces it.

The question to the class: at step 58 the teacher asks what the learner does with the next
example; the three students answer (one changes their answer); the teacher's page shows 3
answers pooled, and no student's page shows any, nor can a following student step to 59;
the teacher reveals, and every page shows the results and step 59. The right answer is not
read from a page: :class:`app_logic.predictions.Questions` computes it for the same run.
tests/browser/test_live_class_browser.py runs it on SQLite and one server, and on
PostgreSQL and two servers.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from tests.chromium import find_replay, settle

FRAME = "iframe[title$='playback']"
#: Long enough for a loaded machine; the benchmark (benchmarks/bench_class.py) measures.
WAIT_MS = 60_000


@dataclass
class Outcome:
    """What the scenario saw: seconds from the teacher's action to each student's page."""

    brought: list[float] = field(default_factory=list)
    followed: list[float] = field(default_factory=list)
    revealed: list[float] = field(default_factory=list)
    fetched: int = 0  # students' replays that fetched the teacher's new view
    code: str = ""


def replay(page):
    """The replay's frame of ``page``, once a step is painted."""
    page.wait_for_selector(FRAME, timeout=120_000)
    frame = find_replay(page)
    frame.wait_for_function(
        "() => window.playback && window.playback.painted !== null", timeout=120_000
    )
    return frame


def wait_in_replay(page, script: str, arg=None) -> None:
    """Wait until ``script(arg)`` holds in the replay's frame. A new view keeps the frame
    (Streamlit would draw a replay whose place on the page moved in a new frame, from
    scratch): a frame replaced meanwhile fails here, as "detached"."""
    replay(page).wait_for_function(script, arg=arg, timeout=WAIT_MS)


def wait_bar(page, words: str) -> None:
    wait_in_replay(
        page,
        "(words) => (document.querySelector('.class-bar')?.innerText || '').includes(words)",
        words,
    )


def wait_text(page, selector: str, words: str, how: str = "includes") -> None:
    """Wait until the text of the replay's first ``selector`` ``how`` (``includes``,
    ``startsWith``, ``equals``) ``words``."""
    test = "text === words" if how == "equals" else f"text.{how}(words)"
    wait_in_replay(
        page,
        f"([selector, words]) => {{ const text = document.querySelector(selector)?.innerText;"
        f" return text !== undefined && {test}; }}",
        [selector, words],
    )


def step_to(page, t: int) -> None:
    """Drag the replay's scrubber to step ``t`` (its input and change events, as a drag)."""
    replay(page).evaluate(
        """(t) => { const s = document.querySelector('.scrubber'); s.value = t;
        s.dispatchEvent(new Event('input')); s.dispatchEvent(new Event('change')); }""",
        t,
    )


def painted(page) -> tuple[int, str]:
    return replay(page).evaluate("() => [window.playback.painted, window.playback.payloadId]")


def wait_painted(page, t: int, other_than: str | None = None) -> None:
    wait_in_replay(
        page,
        "([t, run]) => window.playback?.painted === t && window.playback.payloadId !== run",
        [t, other_than],
    )


def query(page) -> dict[str, str]:
    return {k: v[-1] for k, v in parse_qs(urlsplit(page.url).query).items()}


def set_seed(page, seed: int) -> None:
    before = painted(page)[1]
    field_ = page.get_by_label("Seed", exact=True)
    field_.fill(str(seed))
    field_.press("Enter")
    wait_in_replay(page, "(run) => window.playback?.payloadId !== run", before)


def open_page(browser, url: str, size=(1280, 720)):
    page = browser.new_context(viewport={"width": size[0], "height": size[1]}).new_page()
    page.goto(url)
    settle(page)
    return page


def start_class(browser, url: str, students: int):
    """A teacher's page that started a class at ``url``, the class's code, and ``students``
    pages that joined it by its link and follow the teacher."""
    teacher = open_page(browser, url)
    teacher.get_by_role("button", name="Start a class").click()
    teacher.locator(".join-code").wait_for(timeout=WAIT_MS)
    code = teacher.locator(".join-code").inner_text().strip()
    server = url.split("/?")[0].rstrip("/")
    pages = [open_page(browser, f"{server}/?join={code}") for _ in range(students)]
    for page in pages:
        wait_bar(page, "Following the teacher.")
    return teacher, code, pages


def run_class(browser, teacher_server: str, student_servers: list[str], shots: Path | None):
    """The scenario; returns what it measured. Screenshots go to ``shots`` when given."""
    outcome = Outcome()
    teacher = open_page(browser, f"{teacher_server}/")
    teacher.get_by_role("button", name="Start a class").click()
    teacher.locator(".join-code").wait_for(timeout=WAIT_MS)
    code = outcome.code = teacher.locator(".join-code").inner_text().strip()
    assert re.fullmatch(r"[A-HJKMNP-Z2-9]{6}", code), code
    wait_bar(teacher, "Students follow your view and step.")

    students = []
    for index, server in enumerate(student_servers):
        page = open_page(browser, f"{server}/")
        typed = f"{code[:3].lower()}-{code[3:]}" if index == 0 else code
        page.get_by_role("textbox", name="Class code").fill(typed)
        if index == 0:
            page.get_by_role("textbox", name="Nickname (optional)").fill("Ada")
        page.get_by_role("button", name="Join the class").click()
        wait_bar(page, "Following the teacher.")
        assert "seat" in query(page)
        students.append(page)
    wait_bar(teacher, f"{len(students)} joined, {len(students)} connected")
    # a student's page has no teacher's tools
    for page in students:
        assert replay(page).locator(".class-bring").is_hidden()
    if shots:  # the join box and the class bars, to axe (WCAG 2.1 A and AA)
        from tests.accessibility import SERIOUS, audit

        for page in (teacher, students[0]):
            serious = [v["id"] for v in audit(page) if v["impact"] in SERIOUS]
            assert serious == [], serious

    # free exploration: the students are left where they are while the teacher moves on
    replay(teacher).locator(".class-free").click()
    for page in students:
        wait_bar(page, "Free exploration")
    for _ in range(5):
        replay(students[0]).locator(".btn-step").click()
    set_seed(teacher, 7)
    step_to(teacher, 57)
    old_run = painted(students[1])[1]
    teacher.wait_for_timeout(500)
    assert painted(students[1])[0] != 57 and painted(students[0])[0] == 5

    # "Bring everyone here": every page opens the teacher's new view at step 57: its replay
    # fetches the view from the class's route (where the server process has it), and the page
    # opens it too a moment later (its controls and address)
    start = time.perf_counter()
    replay(teacher).locator(".class-bring").click()
    for page in students:
        wait_painted(page, 57, other_than=old_run)
        outcome.brought.append(time.perf_counter() - start)
    for page in students:
        page.wait_for_function(
            "() => new URLSearchParams(location.search).get('seed') === '7'", timeout=WAIT_MS
        )
        assert painted(page)[0] == 57
    fetches = "() => window.playback.classroom.fetchedViews"
    outcome.fetched = sum(replay(p).evaluate(fetches) for p in students)
    # following: the teacher's steps reach every page
    start = time.perf_counter()
    replay(teacher).locator(".btn-step").click()
    for page in students:
        wait_painted(page, 58)
        outcome.followed.append(time.perf_counter() - start)
    if shots:
        students[0].screenshot(path=shots / "class_student.png")

    _question(teacher, students, outcome, shots)

    # a snapshot: the third student explores; the teacher projects that student's view
    replay(teacher).locator(".class-free").click()
    wait_bar(students[2], "Free exploration")
    set_seed(students[2], 11)
    step_to(students[2], 3)
    students[2].wait_for_timeout(3_000)  # its page reports its view every 2 s at most
    replay(teacher).locator(".class-students").click()
    listing = replay(teacher).locator(".class-students-list")
    listing.wait_for(timeout=WAIT_MS)
    words = listing.inner_text()
    assert "Student 1" in words and "Student 3" in words and "Ada" not in words
    before = painted(teacher)[1]
    replay(teacher).get_by_role("button", name="Project student 3's view").click()
    wait_painted(teacher, 3, other_than=before)
    teacher.get_by_text("Projecting a student's view").wait_for(timeout=WAIT_MS)
    assert query(teacher).get("seed") == "11"
    assert "Ada" not in teacher.locator("[data-testid='stMain']").inner_text()
    if shots:
        teacher.screenshot(path=shots / "class_snapshot.png")
    teacher.get_by_role("button", name="Back to the class's view").click()
    wait_painted(teacher, 59)
    assert query(teacher).get("seed") == "7"

    # a student's seat cannot pace, ask or end the class, whatever its socket sends
    _crafted_messages(student_servers[0], query(students[0])["seat"], code)
    wait_bar(teacher, "Students explore freely.")

    # the teacher's tab closes; the class goes on, and the teacher link opens it again
    teacher.get_by_text("Your teacher link").click()
    link = teacher.get_by_text(re.compile(r"\?teach=")).inner_text().strip()
    teacher.context.close()
    step_to(students[1], 20)
    teacher = open_page(browser, f"{link}&present=1", size=(1280, 720))
    wait_bar(teacher, f"Class {code}")
    assert "teach" not in query(teacher) and query(teacher).get("present") == "1"
    assert query(teacher).get("seed") == "7" and painted(teacher)[0] == 59
    step_to(teacher, 80)
    replay(teacher).locator(".class-bring").click()
    for page in students:
        wait_painted(page, 80)
    if shots:
        teacher.evaluate("() => window.scrollTo(0, 0)")
        teacher.screenshot(path=shots / "class_projector.png")
        students[2].set_viewport_size({"width": 390, "height": 844})
        students[2].wait_for_timeout(1_000)
        students[2].screenshot(path=shots / "class_student_phone.png")
    return outcome


def _right_choice(seed: int, step: int) -> int:
    """The index of the right choice of the class's question, computed in Python for the
    teacher's run (the playground's perceptron on the separable set of ``seed``)."""
    from perceptron_lab.app_logic.datasource import DataRequest, make_dataset
    from perceptron_lab.app_logic.predictions import Predict, Questions
    from tests.pages import page_run

    data = make_dataset(DataRequest("separable", seed=seed))
    run = page_run("perceptron", {}, 20, seed, data)
    question = Questions([run], data, Predict(on=True, kinds=("outcome",), seed=seed)).at(step)
    return question.options.index(question.answer)


def _pool_counts(page) -> list[int]:
    """The answers per choice on a page's pool, as its list says them ("2 (67 %)")."""
    rows = replay(page).locator(".pool-list .pool-count").all_inner_texts()
    return [int(row.split()[0]) for row in rows]


def _question(teacher, students, outcome: Outcome, shots: Path | None) -> None:
    """At step 58 the teacher asks what the learner does with the next example; the students
    answer; the pool is on the teacher's page only until the reveal."""
    replay(teacher).locator(".class-ask").click()
    chooser = replay(teacher).locator(".class-question form")
    chooser.wait_for(timeout=WAIT_MS)
    assert "Ask the class about step 59" in chooser.inner_text()
    chooser.get_by_label("What the learner does with the next example, and why").check()
    chooser.get_by_role("button", name="Ask").click()
    wait_text(teacher, ".class-answered", "0 of 3", "startsWith")
    prompt = replay(teacher).locator(".class-prompt").inner_text()
    assert prompt.startswith("Before step 59.") and "What will the learner do" in prompt
    right = _right_choice(7, 59)
    options = len(_pool_counts(teacher))
    # each student's page words the same question; one changes their answer before the reveal
    chosen = [right, (right + 1) % options, right]
    for page, choice in zip(students, chosen, strict=True):
        form = replay(page).locator(".class-question form")
        form.wait_for(timeout=WAIT_MS)
        assert form.locator("legend").inner_text() == prompt
        radios = form.get_by_role("radio")
        if page is students[1]:  # by the keyboard alone: Space checks, arrows move, Enter sends
            radios.first.focus()
            page.keyboard.press("Space")
            for _ in range(choice):
                page.keyboard.press("ArrowDown")
            page.keyboard.press("Enter")
        else:
            radios.nth((choice + 1) % options if page is students[2] else choice).check()
            form.get_by_role("button", name="Send").click()
        wait_text(page, ".class-sent", "Sent:", "startsWith")
    form = replay(students[2]).locator(".class-question form")
    form.get_by_role("radio").nth(chosen[2]).check()
    form.get_by_role("button", name="Send").click()
    expected = [chosen.count(n) for n in range(options)]
    wait_in_replay(
        teacher,
        "(expected) => [...document.querySelectorAll('.pool-list .pool-count')]"
        ".map((e) => parseInt(e.innerText)).join() === expected.join()",
        expected,
    )
    assert replay(teacher).locator(".class-answered").inner_text() == "3 of 3 connected answered"
    # the right answer is off on the teacher's screen (it may be the projector) until asked for
    assert replay(teacher).locator(".pool-list li.right").count() == 0
    replay(teacher).get_by_role("button", name="Show the right answer").click()
    words = replay(teacher).locator(".class-answered").inner_text()
    assert words == f"3 of 3 connected answered · {chosen.count(right)} right (67 %)", words
    assert replay(teacher).locator(".pool-list li").nth(right).get_attribute("class") == "right"
    # no student's page shows a pooled answer, and a following one cannot step to 59
    for page in students:
        frame = replay(page)
        assert frame.locator(".class-pool, .pool-list, .class-answered").count() == 0
        words = frame.locator(".class-question").inner_text()
        assert "✓" not in words and " answered" not in words and "%" not in words, words
    replay(students[1]).locator(".btn-step").click()
    wait_text(students[1], ".class-question .predict-note", "holds the class before step 59")
    assert painted(students[1])[0] == 58
    if shots:
        teacher.screenshot(path=shots / "class_question_teacher.png")
        students[0].screenshot(path=shots / "class_question_student.png")

    # the reveal: every page shows the results and step 59
    start = time.perf_counter()
    replay(teacher).get_by_role("button", name="Reveal to the class").click()
    for page in students:
        wait_painted(page, 59)
        outcome.revealed.append(time.perf_counter() - start)
        wait_text(page, ".class-question .class-answered", "3 answered", "startsWith")
        assert _pool_counts(page) == expected
    verdicts = [replay(p).locator(".class-question .verdict b").inner_text() for p in students]
    assert verdicts == ["Right.", "Not this time.", "Right."], verdicts
    wait_painted(teacher, 59)
    if shots:
        students[1].screenshot(path=shots / "class_question_revealed.png")
        teacher.screenshot(path=shots / "class_question_teacher_revealed.png")
    replay(teacher).get_by_role("button", name="Put the question away").click()
    for page in students:
        wait_in_replay(page, "() => document.querySelector('.class-question').hidden")


def _crafted_messages(server: str, seat: str, code: str) -> None:
    """A raw websocket with a student's seat sends the teacher's messages: each is refused."""
    from websockets.sync.client import connect

    address = server.replace("http://", "ws://") + "/class/ws"
    with connect(address) as socket:
        socket.send(json.dumps({"type": "hello", "seat": seat}))
        assert json.loads(socket.recv(timeout=10))["code"] == code
        for crafted in (
            {"type": "step", "t": 1},
            {"type": "pace", "mode": "follow", "bring": True},
            {"type": "names", "show": True},
            {"type": "students"},
            {"type": "ask", "question": {"step": 1, "lane": 0, "kind": "side", "seed": 0}},
            {"type": "reveal"},
            {"type": "close"},
            {"type": "end"},
        ):
            socket.send(json.dumps(crafted))
            answer = json.loads(socket.recv(timeout=10))
            while answer["type"] == "class":  # a pace sent meanwhile
                answer = json.loads(socket.recv(timeout=10))
            assert answer["type"] == "error" and "teacher" in answer["message"], answer
