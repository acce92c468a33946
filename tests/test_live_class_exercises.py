"""A lesson's exercise asked to the live class, on a real SQLite file: the question checked
(refused out of shape, or asked with a student's seat), every answer checked by the
exercise's own rule, the answers pooled (per option, a histogram, the share right, the
misconceptions by name), the key kept from the students' messages until the reveal, and then
each student's own verdict. (PostgreSQL: test_live_class_postgres.py; browsers:
tests/browser/test_live_class_browser.py.)"""

from __future__ import annotations

import copy
import json
import sqlite3

import pytest

from perceptron_lab.app_logic.exercises import BY_ID, for_lesson
from perceptron_lab.app_logic.exercises.model import check, reachable
from perceptron_lab.app_logic.live_class.database import MIGRATIONS, SCHEMA_VERSION, Database
from perceptron_lab.app_logic.live_class.exercises import (
    ASKABLE,
    ask_exercise,
    askable,
    checked_exercise_question,
    exercise_question,
)
from perceptron_lab.app_logic.live_class.messages import Refused, parse
from perceptron_lab.app_logic.live_class.store import ClassStore
from tests.exercise_facts import facts
from tests.test_live_class_hub import Socket, _teacher_and_students, on_a_hub, settle

NUMBER, CHOICE, ORDER = "l01-score-change", "l01-why-it-helps", "l01-derivation-order"


@pytest.fixture(scope="module")
def lesson_1():
    """Lesson 1's facts at its opening controls, as its page hands them to its exercises."""
    return facts(1)


@pytest.fixture
def store(tmp_path):
    database = Database(str(tmp_path / "class.sqlite3"))
    yield ClassStore(database, hours=1.0)
    database.close()


def _asked(lesson_1, exercise_id: str) -> tuple:
    exercise = BY_ID[exercise_id]
    question = exercise.question(lesson_1, 0)
    return exercise, question, exercise_question(exercise, question, "Exercise 2. Work it out")


def _class(store, students: int = 3):
    started = store.start({"learner": "kw"}, 0)
    return started, [store.join(started.code) for _ in range(students)]


def test_the_class_is_asked_the_forms_it_answers_away_from_the_page():
    forms = {e.form for e in for_lesson(1) if askable(e)}
    assert forms == set(ASKABLE) == {"number", "choice", "order"}
    for exercise_id in ("l01-fewest-updates", "l01-predict"):  # a setting; the replay
        exercise = BY_ID[exercise_id]
        with pytest.raises(Refused, match="answered on the lesson page"):
            exercise_question(exercise, exercise.question(facts(1), 0))


@pytest.mark.parametrize("exercise_id", [NUMBER, CHOICE, ORDER])
def test_the_public_part_is_the_pages_question_without_its_key(lesson_1, exercise_id):
    exercise, question, asked = _asked(lesson_1, exercise_id)
    public = asked["public"]
    assert public["text"] == question.text and public["options"] == list(question.options)
    assert public["heading"] == "Exercise 2. Work it out"
    assert set(public) == {
        "kind", "exercise", "lesson", "heading", "form", "text", "options", "tolerance_text",
    }  # fmt: skip
    assert checked_exercise_question(json.loads(json.dumps(asked))) == asked


def _broken(asked: dict, part: str, name: str, value) -> dict:
    broken = copy.deepcopy(asked)
    if callable(value):  # a change of what is there
        broken[part][name] = value(broken[part][name])
    elif value is None:
        del broken[part][name]
    else:
        broken[part][name] = value
    return broken


@pytest.mark.parametrize(
    ("exercise_id", "part", "name", "value", "words"),
    [
        (NUMBER, "public", "exercise", "l01-nothing", "No lesson has"),
        (NUMBER, "public", "exercise", "l01-fewest-updates", "a setting exercise"),
        (NUMBER, "public", "form", "choice", "a number exercise"),
        (NUMBER, "public", "lesson", 2, "lesson 1's"),
        (NUMBER, "public", "text", "x" * 5000, "text of 1 to 2,000"),
        (NUMBER, "public", "heading", "", "heading is text"),
        (NUMBER, "key", "answer", float("nan"), "finite number"),
        (NUMBER, "key", "tolerance", -1.0, "at least 0"),
        (NUMBER, "key", "misconceptions", lambda m: {k: m[k] for k in m if k != "off"}, ": off"),
        (ORDER, "key", "misconceptions", {"incomplete": ["a", "b"]}, "early 1, early 2"),
        (NUMBER, "key", "slips", {"made up": 1.0}, "slips are misconceptions"),
        (CHOICE, "key", "answer", [9], "indices from 0 to 3"),
        (CHOICE, "key", "answer", [], "a right option"),
        (CHOICE, "public", "options", ["only one"], "2 to 8 options"),
        (ORDER, "key", "answer", [0, 0, 1, 2, 3], "every step once"),
        (ORDER, "key", "why", None, "reason is text"),
    ],
)
def test_an_exercise_question_out_of_shape_is_refused(
    lesson_1, exercise_id, part, name, value, words
):
    _, _, asked = _asked(lesson_1, exercise_id)
    with pytest.raises(Refused, match=words):
        checked_exercise_question(_broken(asked, part, name, value))


def test_only_the_teachers_key_asks_an_exercise_and_no_socket_can(lesson_1, store):
    exercise, question, _ = _asked(lesson_1, NUMBER)
    started, seats = _class(store, 1)
    for key in (seats[0].token, "not-a-key"):  # a student's seat, or nothing
        with pytest.raises(Refused, match="Only the class's teacher"):
            ask_exercise(store, key, exercise, question)
    assert store.pace(started.id).question is None
    assert ask_exercise(store, started.teacher_key, exercise, question) == 1
    assert store.pace(started.id).question["exercise"] == NUMBER
    # the teacher's own socket cannot ask one either: its right answer would be the browser's
    _, _, asked = _asked(lesson_1, CHOICE)
    from perceptron_lab.app_logic.live_class.questions import checked_question

    message = parse(json.dumps({"type": "ask", "question": asked}), "teacher")
    with pytest.raises(Refused, match="kind is one of"):
        checked_question(message["question"])


@pytest.mark.parametrize("exercise_id", [NUMBER, CHOICE, ORDER])
def test_every_answer_is_checked_by_the_exercises_rule_and_pooled(lesson_1, store, exercise_id):
    """One student gives the right answer, one each answer that shows a misconception
    (model.reachable): the pool counts them by the exercise's own verdict, and after the
    reveal each student's verdict is the exercise's on their answer."""
    exercise, question, _ = _asked(lesson_1, exercise_id)
    wrong = reachable(question)
    if exercise_id == ORDER:  # a class answers with every step: leave out "incomplete"
        wrong.pop("incomplete")
    started, seats = _class(store, 1 + len(wrong))
    number = ask_exercise(store, started.teacher_key, exercise, question)
    if question.form == "number":
        right = {"text": f"{question.answer:.6f}"}
    elif question.form == "choice":
        right = {"choice": min(question.answer)}
    else:
        right = {"order": list(question.answer)}
    responses = [right]
    for response in wrong.values():
        if question.form == "number":
            responses.append({"text": repr(float(response))})
        elif question.form == "choice":
            responses.append({"choice": int(response)})
        else:
            responses.append({"order": list(response)})
    for seat, response in zip(seats, responses, strict=True):
        assert store.answer(seat, number, response) == response
    pool = store.pool(started.id)
    assert pool["answered"] == len(seats) and pool["right"] == 1
    expected = sorted(question.misconceptions[key].feedback for key in wrong)
    assert sorted(m["name"] for m in pool["misconceptions"]) == expected
    assert all(m["count"] == 1 for m in pool["misconceptions"])
    if question.form == "choice":
        assert pool["counts"] == [1] * len(question.options)
    if question.form == "number":
        assert sum(pool["histogram"]["counts"]) == len(seats)
    assert pool["answer"] is not None and pool["why"] == question.why
    assert all(store.your_verdict(seat) is None for seat in seats)  # not before the reveal
    assert store.reveal(started.id)
    for seat, response in zip(seats, responses, strict=True):
        said = check(question, next(iter(response.values())))
        assert store.your_verdict(seat) == (number, {"right": said.right, "text": said.text})
    assert store.pace(started.id).step == 0  # an exercise moves no step


def test_a_histogram_of_the_numbers_typed_and_malformed_answers_refused(lesson_1, store):
    exercise, question, _ = _asked(lesson_1, NUMBER)
    started, seats = _class(store, 4)
    number = ask_exercise(store, started.teacher_key, exercise, question)
    for seat, text in zip(seats, ("1", "1,5", "−2", "8"), strict=True):
        store.answer(seat, number, {"text": text})
    histogram = store.pool(started.id)["histogram"]
    assert (histogram["low"], histogram["high"]) == (-2.0, 8.0)
    assert histogram["counts"] == [1, 0, 0, 2, 0, 0, 0, 0, 0, 1]  # bins 1 wide from −2
    for raw, words in (
        ({"text": "about 3"}, "is not a number"),
        ({"text": "1" * 41}, "at most 40"),
        ({"text": 3}, "Type a number"),
        ({"choice": 0}, "Type a number"),
    ):
        with pytest.raises(Refused, match=words):
            store.answer(seats[0], number, raw)
    store.answer(seats[0], number, {"text": "2"})  # a changed answer replaces the first
    assert store.pool(started.id)["answered"] == 4
    assert store.your_answer(seats[0]) == (number, {"text": "2"})


def test_an_order_or_a_choice_out_of_range_is_refused(lesson_1, store):
    started, seats = _class(store, 1)
    for exercise_id, raw, words in (
        (ORDER, {"order": [0, 1, 2]}, "each of the 5 steps"),
        (ORDER, {"order": [0, 0, 1, 2, 3]}, "each of the 5 steps"),
        (ORDER, {"order": [0, 1, 2, 3, 9]}, "indices from 0 to 4"),
        (CHOICE, {"choice": 4}, "from 0 to 3"),
        (CHOICE, {"choice": True}, "from 0 to 3"),
    ):
        exercise, question, _ = _asked(lesson_1, exercise_id)
        number = ask_exercise(store, started.teacher_key, exercise, question)
        with pytest.raises(Refused, match=words):
            store.answer(seats[0], number, raw)


def test_a_new_view_of_the_class_keeps_the_exercise_asked(lesson_1, store):
    """A prediction is about the class's view, an exercise about its lesson's run: the
    teacher's next view on the playground does not put the exercise away."""
    exercise, question, _ = _asked(lesson_1, CHOICE)
    started, _ = _class(store, 1)
    ask_exercise(store, started.teacher_key, exercise, question)
    store.set_view(started.id, {"learner": "pa"})
    assert store.pace(started.id).question["state"] == "open"


def test_a_version_3_database_is_migrated_and_takes_exercises(lesson_1, tmp_path):
    """A database of the version before exercises (questions without ``about``), with an
    open prediction in it, is brought to the current version: the prediction is kept, about
    the view, and the class takes an exercise."""
    path = tmp_path / "class.sqlite3"
    old = ClassStore(Database(str(path), migrations=MIGRATIONS[:3]), hours=1.0)
    started, seats = _class(old, 1)
    public = {"step": 6, "lane": 0, "kind": "side", "seed": 0, "options": [1, -1]}
    old.database.run(  # a prediction as version 3 kept it
        lambda tx: tx.run(
            "INSERT INTO questions (id, class_id, number, asked, view_rev, public, answer_key, "
            "state) VALUES ('q1', ?, 1, 0, 1, ?, '{\"answer\": 0}', 'open')",
            (started.id, json.dumps(public)),
        ),
        write=True,
    )
    old.database.close()
    with sqlite3.connect(path) as connection:
        columns = [row[1] for row in connection.execute("PRAGMA table_info(questions)")]
    assert "about" not in columns
    store = ClassStore(Database(str(path)), hours=1.0)
    assert store.database.version() == SCHEMA_VERSION == 4
    assert store.pace(started.id).question["kind"] == "side"
    store.set_view(started.id, {"learner": "pa"})  # a prediction is about the view
    assert store.pace(started.id).question is None
    exercise, question, _ = _asked(lesson_1, NUMBER)
    number = ask_exercise(store, started.teacher_key, exercise, question)
    store.answer(seats[0], number, {"text": f"{question.answer}"})
    assert store.pool(started.id)["right"] == 1
    store.database.close()


# -- the hub: what the sockets are sent ---------------------------------------------------------


def _keys_in(message: dict, key: dict) -> list[str]:
    """What of an exercise's key a message holds: its right answer's value, its reason, a
    misconception's feedback, its tolerance, or the pool's words."""
    text = json.dumps(message)
    found = [w for w in ('"pool"', '"answered"', '"right"', '"why"', "misconception") if w in text]
    found += [f for f, _ in key["misconceptions"].values() if json.dumps(f)[1:-1] in text]
    if json.dumps(key["why"])[1:-1] in text:
        found.append("why")
    return found


def test_the_key_reaches_no_student_before_the_reveal_then_each_their_own_verdict(lesson_1, store):
    exercise, question, asked = _asked(lesson_1, NUMBER)

    @on_a_hub
    async def run(hub, store):
        started, _, teacher, members, sockets = await _teacher_and_students(hub, store)
        seats = [member.seat for member in members]
        number = await hub.blocking(
            ask_exercise, store, started.teacher_key, exercise, question, "Exercise 2. Work it out"
        )
        await settle(lambda: all((s.last()["question"] or {}).get("number") for s in sockets))
        typed = [f"{question.answer:.5f}", f"{question.slips['no C']:.5f}", "99"]
        for member, text in zip(members, typed, strict=True):
            await hub.receive(
                member, json.dumps({"type": "answer", "number": number, "text": text})
            )
        await settle(lambda: ((teacher.last() or {}).get("pool") or {}).get("answered") == 3)
        pool = teacher.last()["pool"]
        assert pool["right"] == 1 and len(pool["misconceptions"]) == 2
        for socket, text in zip(sockets, typed, strict=True):
            assert socket.last("answered")["answer"] == {"text": text}
            assert socket.last("verdict") is None
            for message in socket.sent:
                if message["type"] != "answered":
                    assert _keys_in(message, asked["key"]) == [], message
        # a crafted answer of a student's socket: refused with the reason, nothing kept
        await hub.receive(
            members[2], json.dumps({"type": "answer", "number": number, "text": "x"})
        )
        await settle(lambda: sockets[2].last("error") is not None)
        assert "is not a number" in sockets[2].last("error")["message"]
        assert store.your_answer(seats[2]) == (number, {"text": "99"})
        await hub.receive(members[0], json.dumps({"type": "reveal"}))  # a student's: refused
        await settle(lambda: sockets[0].last("error") is not None)
        assert store.pace(started.id).question["state"] == "open"

        await hub.blocking(store.reveal, started.id)
        await settle(lambda: all(s.last("verdict") for s in sockets))
        for socket, text in zip(sockets, typed, strict=True):
            said = check(question, text)
            assert socket.last("verdict") == {
                "type": "verdict", "number": number, "right": said.right, "text": said.text,
            }  # fmt: skip
            assert [m["type"] for m in socket.sent].count("verdict") == 1
            results = socket.last()["question"]["results"]
            assert results["answered"] == 3 and results["answer"] == question.answer
        # a page that connects again after the reveal is told its verdict again
        again = Socket()
        await hub.attach(again, {"seat": seats[1].token})
        await settle(lambda: again.last("verdict") is not None)
        assert again.last("verdict")["right"] is False

    run(store)
