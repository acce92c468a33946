"""The live class's store on a real SQLite file: classes, seats, the pace, the rate limit of
joins, expiry, the schema's migrations and the change notices (PostgreSQL's are in
tests/test_live_class_postgres.py)."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import threading
import time

import pytest

from perceptron_lab.app_logic.live_class.database import (
    MIGRATIONS,
    SCHEMA_VERSION,
    Database,
    DatabaseError,
)
from perceptron_lab.app_logic.live_class.store import (
    CODE_ALPHABET,
    CODE_LENGTH,
    JOIN_FAILURES,
    JOIN_WINDOW,
    ClassStore,
    JoinRefused,
)


class Clock:
    """A clock the test moves by hand."""

    def __init__(self, now: float = 1_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def path(tmp_path):
    return tmp_path / "class.sqlite3"


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def store(path, clock):
    database = Database(str(path))
    yield ClassStore(database, hours=2.0, clock=clock)
    database.close()


def test_a_class_is_started_joined_and_rejoined(store, path):
    started = store.start({"learner": "kw", "kw_tau": "0.5", "t": "9", "present": "1"}, step=9)
    assert len(started.code) == CODE_LENGTH and set(started.code) <= set(CODE_ALPHABET)
    assert len(started.teacher_key) >= 32
    assert store.teacher(started.teacher_key) == started.id
    assert store.teacher(started.teacher_key + "x") is None
    pace = store.pace(started.id)
    # the step travels apart, the presentation mode is the screen's own
    assert pace.view == {"kw_tau": "0.5", "learner": "kw"} and pace.step == 9
    assert pace.mode == "follow" and not pace.show_names
    first = store.join(f" {started.code[:3].lower()}-{started.code[3:]} ", "Ada")
    second = store.join(started.code, "")
    assert (first.number, second.number) == (1, 2)
    assert store.seat(first.token).student_id == first.student_id
    assert store.seat("not-a-seat") is None
    # the database keeps digests of the secrets, never the secrets
    text = path.read_bytes() + path.with_name(path.name + "-wal").read_bytes()
    for secret in (started.teacher_key, first.token, second.token):
        assert secret.encode() not in text


def test_joins_get_distinct_numbers_when_they_come_at_once(store):
    started = store.start({}, 0)
    numbers, errors = [], []

    def join():
        try:
            numbers.append(store.join(started.code).number)
        except Exception as error:  # noqa: BLE001 - collected for the assertion
            errors.append(error)

    threads = [threading.Thread(target=join) for _ in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == [] and sorted(numbers) == list(range(1, 13))


def test_the_pace_changes_raise_the_revision_and_the_view_revision_only_when_it_changed(store):
    started = store.start({"learner": "kw"}, 0)
    rev = store.pace(started.id).rev
    assert store.set_view(started.id, {"learner": "kw"})
    assert store.pace(started.id).view_rev == 1
    assert store.set_view(started.id, {"learner": "voted", "seed": "3"})
    pace = store.pace(started.id)
    assert pace.view_rev == 2 and pace.view == {"learner": "voted", "seed": "3"}
    store.set_step(started.id, 57)
    store.set_mode(started.id, "free", bring=False)
    store.set_mode(started.id, "follow", bring=True)
    pace = store.pace(started.id)
    assert (pace.step, pace.mode, pace.bring, pace.rev) == (57, "follow", 1, rev + 5)
    with pytest.raises(ValueError, match="mode"):
        store.set_mode(started.id, "chaos")


def test_the_students_views_are_numbered_and_their_nicknames_cleaned(store, clock):
    started = store.start({}, 0)
    ada = store.join(started.code, "<b>Ada</b>\n\u202eevil " + "x" * 50)
    bob = store.join(started.code, "")
    store.set_student_view(ada.student_id, {"learner": "kw", "seat": "leaked"}, 12)
    clock.now += 120  # Bob's page has not been heard from for two minutes
    store.set_student_view(ada.student_id, {"learner": "kw"}, 13)
    listed = store.students(started.id)
    assert [s.number for s in listed] == [1, 2]
    assert listed[0].nickname.startswith("<b>Ada</b> ") and len(listed[0].nickname) == 24
    assert "\n" not in listed[0].nickname and "\u202e" not in listed[0].nickname
    assert (listed[0].view, listed[0].step, listed[0].connected) == ({"learner": "kw"}, 13, True)
    assert (listed[1].view, listed[1].connected) == (None, False)
    assert store.roster(started.id) == (2, 1)
    store.seen(bob)
    assert store.roster(started.id) == (2, 2)
    store.seen(bob, connected=False)
    assert store.roster(started.id) == (2, 1)


def test_a_wrong_code_is_refused_and_enumeration_is_rate_limited(store, clock):
    started = store.start({}, 0)
    with pytest.raises(JoinRefused, match="No class has the code"):
        store.join("ZZZZZZ")
    for _ in range(JOIN_FAILURES - 1):
        with pytest.raises(JoinRefused, match="No class"):
            store.join("ZZZZZZ")
        clock.now += 0.5
    # the limit is reached: even the right code waits (else the limit would tell codes apart)
    with pytest.raises(JoinRefused, match=r"try again in \d+ s"):
        store.join(started.code)
    clock.now += JOIN_WINDOW
    assert store.join(started.code).number == 1


def test_the_rate_limit_holds_for_every_process_of_the_database(store, path, clock):
    started = store.start({}, 0)
    other = ClassStore(Database(str(path)), hours=2.0, clock=clock)
    for index in range(JOIN_FAILURES):
        with pytest.raises(JoinRefused):
            (store if index % 2 else other).join("ZZZZZZ")
    with pytest.raises(JoinRefused, match="try again"):
        other.join(started.code)


def test_a_class_expires_and_its_data_are_deleted(store, clock, path):
    started = store.start({"learner": "kw"}, 0)
    seat = store.join(started.code, "Ada")
    heard = []
    store.database.listen(lambda class_id, kind: heard.append((class_id, kind)))
    clock.now += 2 * 3600 - 1
    assert store.pace(started.id) is not None
    clock.now += 2
    assert store.pace(started.id) is None
    assert store.teacher(started.teacher_key) is None and store.seat(seat.token) is None
    with pytest.raises(JoinRefused):
        store.join(started.code)
    assert store.delete_expired() == 1
    with sqlite3.connect(path) as connection:
        assert connection.execute("SELECT count(*) FROM classes").fetchone() == (0,)
        assert connection.execute("SELECT count(*) FROM students").fetchone() == (0,)
    assert (started.id, "ended") in heard


def test_ending_a_class_deletes_it_now(store):
    started = store.start({}, 0)
    store.join(started.code)
    store.end(started.id)
    assert store.pace(started.id) is None and store.students(started.id) == []


def test_an_old_schema_is_migrated_with_its_classes(path, clock):
    """A database made by the first version (before nicknames could be shown and joins
    were counted) is brought to the current one, its class kept."""
    old = Database(str(path), migrations=MIGRATIONS[:1])
    assert old.version() == 1
    old.run(
        lambda tx: tx.run(
            "INSERT INTO classes (id, code, teacher_hash, created, expires, mode, view_params, "
            "view_rev, step, bring, rev, seats) VALUES ('c1', 'ABCDEF', 'h', ?, ?, 'free', ?, "
            "1, 5, 0, 1, 0)",
            (clock.now, clock.now + 3600, json.dumps({"learner": "kw"})),
        ),
        write=True,
    )
    old.close()
    with sqlite3.connect(path) as connection:
        columns = [row[1] for row in connection.execute("PRAGMA table_info(classes)")]
    assert "show_names" not in columns
    store = ClassStore(Database(str(path)), hours=1.0, clock=clock)
    assert store.database.version() == SCHEMA_VERSION == 4
    pace = store.pace("c1")
    assert (pace.code, pace.mode, pace.view, pace.step, pace.show_names) == (
        "ABCDEF",
        "free",
        {"learner": "kw"},
        5,
        False,
    )
    assert store.join("abcdef", "Ada").number == 1
    with pytest.raises(JoinRefused):
        store.join("ZZZZZZ")  # the new table of failed joins is there


def test_a_version_2_schema_gets_questions_and_answers_with_its_class_kept(path, clock):
    """A database of the version before questions to the class, with a class and a student
    in it, is brought to the current version: the class goes on and takes questions."""
    old = ClassStore(Database(str(path), migrations=MIGRATIONS[:2]), hours=1.0, clock=clock)
    assert old.database.version() == 2
    code = "ABCDEF"
    old.database.run(
        lambda tx: tx.run(
            "INSERT INTO classes (id, code, teacher_hash, created, expires, mode, view_params, "
            "view_rev, step, bring, rev, seats, show_names) VALUES ('c1', ?, 'h', ?, ?, "
            "'follow', ?, 1, 5, 0, 1, 0, 0)",
            (code, clock.now, clock.now + 3600, json.dumps({"learner": "kw"})),
        ),
        write=True,
    )
    seat = old.join(code, "Ada")
    old.database.close()
    with sqlite3.connect(path) as connection:
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
    assert "questions" not in tables and "answers" not in tables
    store = ClassStore(Database(str(path)), hours=1.0, clock=clock)
    assert store.database.version() == SCHEMA_VERSION == 4
    pace = store.pace("c1")
    assert (pace.view, pace.step, pace.question) == ({"learner": "kw"}, 5, None)
    assert store.seat(seat.token).number == 1
    number = store.ask(
        "c1",
        {"public": {"step": 6, "lane": 0, "kind": "side", "seed": 0, "options": [1, -1]},
         "key": {"answer": 0}},
    )  # fmt: skip
    assert store.answer(seat, number, {"choice": 1}) == {"choice": 1}
    assert store.pool("c1")["counts"] == [0, 1]


def test_a_database_of_a_newer_version_is_refused(path):
    Database(str(path)).close()
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE schema_version SET version = 99")
    with pytest.raises(DatabaseError, match=f"schema version 99.*up to {SCHEMA_VERSION}"):
        Database(str(path))


def test_changes_are_heard_in_this_process_and_from_another_process(store, path):
    store = ClassStore(store.database, hours=1.0)  # on the real clock, as the other process
    started = store.start({}, 0)
    heard = []
    store.database.listen(lambda class_id, kind: heard.append((class_id, kind)))
    store.set_step(started.id, 3)
    assert (started.id, "pace") in heard  # told at once, after the commit
    heard.clear()
    code = (
        "import sys\n"
        "from perceptron_lab.app_logic.live_class.database import Database\n"
        "from perceptron_lab.app_logic.live_class.store import ClassStore\n"
        "ClassStore(Database(sys.argv[1]), 1.0).set_step(sys.argv[2], 4)\n"
    )
    subprocess.run([sys.executable, "-c", code, str(path), started.id], check=True)
    deadline = time.monotonic() + 10
    while (None, "changed") not in heard and time.monotonic() < deadline:
        time.sleep(0.05)
    assert (None, "changed") in heard  # the other process's commit, seen by the poll
    assert store.pace(started.id).step == 4
