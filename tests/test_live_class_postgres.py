"""The live class's store on a real PostgreSQL server that the test starts (Debian's
``initdb`` and ``postgres``, tests/postgres.py): the same store as on SQLite, the notices
between processes (LISTEN/NOTIFY), an old schema migrated, and a restart of the server."""

from __future__ import annotations

import json
import threading
import time

import pytest

from perceptron_lab.app_logic.live_class.database import MIGRATIONS, SCHEMA_VERSION, Database
from perceptron_lab.app_logic.live_class.messages import Refused
from perceptron_lab.app_logic.live_class.questions import checked_question
from perceptron_lab.app_logic.live_class.store import JOIN_FAILURES, ClassStore, JoinRefused
from tests.postgres import postgres_server

pytestmark = pytest.mark.slow

SIDE = {"step": 1, "lane": 0, "kind": "side", "seed": 0, "options": [1, -1], "answer": 0}


@pytest.fixture(scope="module")
def server():
    with postgres_server() as server:
        yield server


def _wait_for(predicate, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, "not heard in time"
        time.sleep(0.02)


def _fresh(server) -> str:
    """The server's URL, on a database of its own for one test."""
    import psycopg

    name = f"t{time.monotonic_ns()}"
    with psycopg.connect(server.url, autocommit=True) as connection:
        connection.execute(f"CREATE DATABASE {name}")
    return server.url.rsplit("/", 1)[0] + f"/{name}"


def _two_processes(server) -> tuple[ClassStore, ClassStore, list]:
    """Two processes' stores on a fresh database: the first listens (its notices, in the list
    returned, once its listening connection is up), the second is another process's."""
    url = _fresh(server)
    listening = ClassStore(Database(url), hours=1.0)
    other = ClassStore(Database(url), hours=1.0)
    heard = []
    listening.database.listen(lambda class_id, kind: heard.append((class_id, kind)))
    _wait_for(lambda: (None, "connected") in heard)
    return listening, other, heard


def test_a_class_on_postgresql_and_its_notices_in_another_process(server):
    reader, writer, heard = _two_processes(server)
    started = writer.start({"learner": "kw"}, 0)
    seats = []
    threads = [
        threading.Thread(target=lambda: seats.append(writer.join(started.code))) for _ in range(8)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(seat.number for seat in seats) == list(range(1, 9))
    writer.set_step(started.id, 57)
    _wait_for(lambda: (started.id, "pace") in heard)
    assert (started.id, "roster") in heard
    assert reader.pace(started.id).step == 57
    assert reader.seat(seats[0].token).class_id == started.id
    for _ in range(JOIN_FAILURES):
        with pytest.raises(JoinRefused, match="No class"):
            reader.join("ZZZZZZ")
    with pytest.raises(JoinRefused, match="try again"):
        writer.join(started.code)
    writer.end(started.id)
    _wait_for(lambda: (started.id, "ended") in heard)
    assert reader.pace(started.id) is None


def test_an_old_schema_on_postgresql_is_migrated(server):
    url = _fresh(server)
    old = Database(url, migrations=MIGRATIONS[:1])
    old.run(
        lambda tx: tx.run(
            "INSERT INTO classes (id, code, teacher_hash, created, expires, mode, view_params, "
            "view_rev, step, bring, rev, seats) VALUES ('c1', 'ABCDEF', 'h', ?, ?, 'follow', "
            "?, 1, 5, 0, 1, 0)",
            (time.time(), time.time() + 3600, json.dumps({"learner": "kw"})),
        ),
        write=True,
    )
    old.close()
    store = ClassStore(Database(url), hours=1.0)
    assert store.database.version() == SCHEMA_VERSION == 4
    assert store.pace("c1").view == {"learner": "kw"} and not store.pace("c1").show_names
    seat = store.join("ABCDEF")
    assert seat.number == 1
    number = store.ask("c1", checked_question(SIDE))  # the tables of version 3 are there
    assert store.answer(seat, number, {"choice": 0}) == {"choice": 0}


def test_answers_from_another_process_reach_the_teachers_process_and_a_reveal_is_final(server):
    """Students on one process answer (a changed answer replacing the first) while the teacher's
    process hears each answer; answers racing the reveal are either in its results or refused,
    never lost."""
    teacher, students, heard = _two_processes(server)
    started = teacher.start({"learner": "kw"}, 0)
    seats = [students.join(started.code) for _ in range(12)]
    number = teacher.ask(started.id, checked_question(SIDE))
    students.answer(seats[0], number, {"choice": 1})
    students.answer(seats[0], number, {"choice": 0})
    _wait_for(lambda: (started.id, "answers") in heard)
    assert teacher.pool(started.id)["counts"] == [1, 0]
    kept, refused = [], []

    def answer(seat):
        try:
            kept.append(students.answer(seat, number, {"choice": 1}))
        except Refused:
            refused.append(seat)

    threads = [threading.Thread(target=answer, args=(seat,)) for seat in seats[1:]]
    for thread in threads:
        thread.start()
    teacher.reveal(started.id)
    for thread in threads:
        thread.join()
    results = teacher.pace(started.id).question["results"]
    assert results["answered"] == 1 + len(kept) and len(kept) + len(refused) == 11
    assert results["counts"] == [1, len(kept)]


def test_the_store_goes_on_after_the_database_server_restarts(server):
    url = _fresh(server)
    store = ClassStore(Database(url), hours=1.0)
    heard = []
    store.database.listen(lambda class_id, kind: heard.append((class_id, kind)))
    _wait_for(lambda: (None, "connected") in heard)
    started = store.start({"learner": "kw"}, 3)
    server.stop()
    server.start()
    heard.clear()
    # the pooled connection broke: the call is tried once more on a new one
    assert store.pace(started.id).step == 3
    _wait_for(lambda: (None, "connected") in heard)  # the listener connected again
    store.set_step(started.id, 4)
    _wait_for(lambda: (started.id, "pace") in heard)


def test_a_lessons_exercise_answered_on_another_process_is_checked_and_pooled(server):
    """The teacher's process asks lesson 1's number exercise; students on another process
    answer it: the teacher's process hears the answers, pools them by the exercise's own
    check (the misconceptions by name), and after the reveal each student's verdict is the
    exercise's."""
    from perceptron_lab.app_logic.exercises import BY_ID
    from perceptron_lab.app_logic.exercises.model import check
    from perceptron_lab.app_logic.live_class.exercises import ask_exercise
    from tests.exercise_facts import facts

    exercise = BY_ID["l01-score-change"]
    question = exercise.question(facts(1), 0)
    teacher, students, heard = _two_processes(server)
    started = teacher.start({"learner": "kw"}, 0)
    seats = [students.join(started.code) for _ in range(3)]
    number = ask_exercise(teacher, started.teacher_key, exercise, question)
    typed = [f"{question.answer}", f"{question.slips['no C']}", "99"]
    for seat, text in zip(seats, typed, strict=True):
        students.answer(seat, number, {"text": text})
    _wait_for(lambda: (started.id, "answers") in heard)
    pool = teacher.pool(started.id)
    assert (pool["answered"], pool["right"]) == (3, 1)
    assert {m["name"] for m in pool["misconceptions"]} == {
        question.misconceptions["no C"].feedback,
        question.misconceptions["off"].feedback,
    }
    teacher.reveal(started.id)
    for seat, text in zip(seats, typed, strict=True):
        said = check(question, text)
        assert students.your_verdict(seat) == (number, {"right": said.right, "text": said.text})
