"""The hub of one process's class sockets, on a real SQLite store, with sockets that record
what they are sent: who is told what, who may do what, and what a slow or flooding socket
costs the others. (The real route and a raw websocket client: test_live_class_socket.py.)"""

from __future__ import annotations

import asyncio
import json

import pytest

from perceptron_lab.app_logic.live_class import hub as hub_module
from perceptron_lab.app_logic.live_class.database import Database
from perceptron_lab.app_logic.live_class.hub import CLOSE_ENDED, CLOSE_FLOOD, Hub
from perceptron_lab.app_logic.live_class.store import ClassStore


class Socket:
    """A socket that keeps what it is sent; ``stuck`` ones never finish sending."""

    def __init__(self, stuck: bool = False):
        self.sent: list[dict] = []
        self.closed: tuple[int, str] | None = None
        self.stuck = stuck

    async def send_text(self, text: str) -> None:
        if self.stuck:
            await asyncio.Event().wait()
        self.sent.append(json.loads(text))

    async def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)

    def last(self, kind: str = "class") -> dict | None:
        return next((m for m in reversed(self.sent) if m["type"] == kind), None)


@pytest.fixture
def store(tmp_path):
    database = Database(str(tmp_path / "class.sqlite3"))
    yield ClassStore(database, hours=1.0)
    database.close()


async def settle(predicate, seconds: float = 5.0) -> None:
    """Wait until ``predicate()`` holds (the hub answers through threads and tasks)."""
    for _ in range(int(seconds / 0.01)):
        if predicate():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the hub did not get there in time")


def on_a_hub(test):
    """The test ``test(hub, store)``, run in a fresh event loop with a hub of its own (pytest
    gives the returned function the ``store`` fixture)."""

    def runner(store):
        async def main():
            hub = Hub(store, asyncio.get_running_loop())
            try:
                await test(hub, store)
            finally:
                hub._sweeper.cancel()

        asyncio.run(main())

    runner.__name__, runner.__doc__ = test.__name__, test.__doc__
    return runner


def _class(store):
    started = store.start({"learner": "kw"}, 0)
    return started, [store.join(started.code, f"S{i}") for i in range(3)]


@on_a_hub
async def test_the_teachers_step_reaches_every_student_and_the_roster_the_teacher(hub, store):
    started, seats = _class(store)
    teacher = Socket()
    await hub.attach(teacher, {"teacher": started.teacher_key})
    students = [Socket() for _ in seats]
    for socket, seat in zip(students, seats):
        await hub.attach(socket, {"seat": seat.token})
    await settle(lambda: (teacher.last() or {}).get("roster", {}).get("connected") == 3)
    await settle(lambda: all(s.last() for s in students))
    assert all(s.last()["step"] == 0 and "roster" not in s.last() for s in students)
    teacher_member = next(m for m in hub.rooms[started.id].members if m.role == "teacher")
    assert await hub.receive(teacher_member, json.dumps({"type": "step", "t": 57}))
    await settle(lambda: all(s.last()["step"] == 57 for s in students))
    # one message per change: the step arrived once, not once per notice
    assert [m["step"] for m in students[0].sent if m["type"] == "class"] == [0, 57]


@on_a_hub
async def test_a_student_cannot_pace_ask_or_end_and_nothing_changes(hub, store):
    started, seats = _class(store)
    socket = Socket()
    student = await hub.attach(socket, {"seat": seats[0].token})
    rev = store.pace(started.id).rev
    for message in (
        {"type": "step", "t": 99},
        {"type": "pace", "mode": "free", "bring": True},
        {"type": "names", "show": True},
        {"type": "students"},
        {"type": "end"},
        {"type": "hello", "teacher": started.teacher_key},
        {"type": "state", "params": {"learner": "kw"}, "t": -1},
    ):
        assert await hub.receive(student, json.dumps(message))
    await settle(lambda: len([m for m in socket.sent if m["type"] == "error"]) == 7)
    errors = [m["message"] for m in socket.sent if m["type"] == "error"]
    assert errors[0] == "Only the class's teacher can do that (step)."
    assert all("teacher" in e for e in errors[:5])
    assert store.pace(started.id).rev == rev and store.pace(started.id).step == 0
    assert socket.last("students") is None


@on_a_hub
async def test_a_seat_or_key_of_no_live_class_is_closed_with_a_reason(hub, store):
    started, seats = _class(store)
    for hello in ({"seat": "x" * 32}, {"teacher": seats[0].token}):
        socket = Socket()
        assert await hub.attach(socket, hello) is None
        assert socket.closed[0] == CLOSE_ENDED
    teacher = Socket()
    member = await hub.attach(teacher, {"teacher": started.teacher_key})
    student = Socket()
    await hub.attach(student, {"seat": seats[0].token})
    await hub.receive(member, json.dumps({"type": "end"}))
    await settle(lambda: student.closed is not None and teacher.closed is not None)
    assert student.last("closed")["message"] == "The class has ended."


@on_a_hub
async def test_the_students_list_is_anonymous_until_the_teacher_shows_names(hub, store):
    started, seats = _class(store)
    store.set_student_view(seats[1].student_id, {"learner": "voted", "edits": "a1"}, 40)
    teacher = Socket()
    member = await hub.attach(teacher, {"teacher": started.teacher_key})
    await hub.receive(member, json.dumps({"type": "students"}))
    await settle(lambda: teacher.last("students") is not None)
    listed = teacher.last("students")["students"]
    assert [s["number"] for s in listed] == [1, 2, 3]
    assert all(s["name"] is None for s in listed)
    assert listed[1]["view"] == {"edits": "a1", "learner": "voted"} and listed[1]["step"] == 40
    await hub.receive(member, json.dumps({"type": "names", "show": True}))
    await settle(lambda: teacher.last()["show_names"])
    teacher.sent.clear()
    await hub.receive(member, json.dumps({"type": "students"}))
    await settle(lambda: teacher.last("students") is not None)
    assert [s["name"] for s in teacher.last("students")["students"]] == ["S0", "S1", "S2"]


@on_a_hub
async def test_a_stuck_socket_does_not_hold_up_the_others(hub, store):
    started, seats = _class(store)
    teacher = Socket()
    member = await hub.attach(teacher, {"teacher": started.teacher_key})
    stuck, fine = Socket(stuck=True), Socket()
    await hub.attach(stuck, {"seat": seats[0].token})
    await hub.attach(fine, {"seat": seats[1].token})
    for t in range(1, 6):
        await hub.receive(member, json.dumps({"type": "step", "t": t}))
    await settle(lambda: (fine.last() or {}).get("step") == 5)


@pytest.fixture
def no_refill(monkeypatch):
    """A socket's message bucket never refills (the test sends faster than any rate)."""
    monkeypatch.setattr(hub_module, "RATE", 0.0)


@pytest.mark.usefixtures("no_refill")
@on_a_hub
async def test_a_flooding_socket_is_closed(hub, store):
    started, seats = _class(store)
    socket = Socket()
    member = await hub.attach(socket, {"seat": seats[0].token})
    member.tokens = 3
    answers = [await hub.receive(member, '{"type": "ping"}') for _ in range(5)]
    assert answers == [True, True, True, False, False]
    assert socket.closed[0] == CLOSE_FLOOD


# -- questions to the class -------------------------------------------------------------------

QUESTION = {"step": 1, "lane": 0, "kind": "outcome", "seed": 3, "options": [0, 1, 2], "answer": 1}


async def _teacher_and_students(hub, store):
    started, seats = _class(store)
    teacher = Socket()
    member = await hub.attach(teacher, {"teacher": started.teacher_key})
    students = [Socket() for _ in seats]
    members = [await hub.attach(s, {"seat": seat.token}) for s, seat in zip(students, seats)]
    await settle(lambda: all(s.last() for s in students))
    return started, member, teacher, members, students


def _secret_in(message: dict) -> bool:
    """Whether a message holds anything of the pooled answers or the right answer."""
    text = json.dumps(message)
    return any(word in text for word in ('"pool"', '"counts"', '"answered": ', '"answer": '))


@on_a_hub
async def test_answers_are_pooled_on_the_teachers_page_and_hidden_from_the_students(hub, store):
    started, member, teacher, members, students = await _teacher_and_students(hub, store)
    await hub.receive(member, json.dumps({"type": "ask", "question": QUESTION}))
    await settle(lambda: all((s.last()["question"] or {}).get("state") for s in students))
    asked = students[0].last()["question"]
    assert asked == {
        "number": 1,
        "state": "open",
        "step": 1,
        "lane": 0,
        "kind": "outcome",
        "seed": 3,
        "options": [0, 1, 2],
    }
    for student, choice in zip(members, (1, 1, 2), strict=True):
        await hub.receive(student, json.dumps({"type": "answer", "number": 1, "choice": choice}))
    await settle(lambda: ((teacher.last() or {}).get("pool") or {}).get("answered") == 3)
    assert teacher.last()["pool"] == {
        "number": 1,
        "answered": 3,
        "right": 2,
        "counts": [0, 2, 1],
        "answer": 1,
    }
    # each student was told their own answer, and nothing of anyone else's
    for socket, choice in zip(students, (1, 1, 2), strict=True):
        told = {"type": "answered", "number": 1, "answer": {"choice": choice}}
        assert socket.last("answered") == told
        others = [m for m in socket.sent if m["type"] != "answered"]
        assert not any(_secret_in(m) for m in others), others
    # the reveal: every page gets the results and the step asked about
    await hub.receive(member, json.dumps({"type": "reveal"}))
    await settle(lambda: all(s.last()["question"]["state"] == "revealed" for s in students))
    for socket in students:
        shown = socket.last()
        assert shown["step"] == 1
        assert shown["question"]["results"] == {
            "answered": 3,
            "right": 2,
            "counts": [0, 2, 1],
            "answer": 1,
        }
        assert "pool" not in shown and "roster" not in shown


@on_a_hub
async def test_only_the_teacher_asks_reveals_and_closes_and_only_a_student_answers(hub, store):
    started, member, teacher, members, students = await _teacher_and_students(hub, store)
    student = members[0]
    for crafted in (
        {"type": "ask", "question": QUESTION},
        {"type": "reveal"},
        {"type": "close"},
    ):
        await hub.receive(student, json.dumps(crafted))
    await settle(lambda: len([m for m in students[0].sent if m["type"] == "error"]) == 3)
    assert store.pace(started.id).question is None
    await hub.receive(member, json.dumps({"type": "ask", "question": QUESTION}))
    await settle(lambda: store.pace(started.id).question is not None)
    await hub.receive(member, json.dumps({"type": "answer", "number": 1, "choice": 1}))
    await hub.receive(student, json.dumps({"type": "reveal"}))
    await hub.receive(student, json.dumps({"type": "close"}))
    await settle(lambda: teacher.last("error") is not None)
    assert teacher.last("error")["message"] == "Only a student sends that (answer)."
    await settle(lambda: len([m for m in students[0].sent if m["type"] == "error"]) == 5)
    assert store.pace(started.id).question["state"] == "open"
    assert store.pool(started.id)["answered"] == 0
    # a teacher's question out of shape is refused, and the question asked stays
    await hub.receive(member, json.dumps({"type": "ask", "question": {**QUESTION, "answer": 7}}))
    await settle(lambda: "choice's index" in teacher.last("error")["message"])
    assert store.pace(started.id).question["number"] == 1


@on_a_hub
async def test_an_answer_after_the_reveal_is_refused_and_a_page_back_gets_its_answer(hub, store):
    started, member, teacher, members, students = await _teacher_and_students(hub, store)
    await hub.receive(member, json.dumps({"type": "ask", "question": QUESTION}))
    await settle(lambda: store.pace(started.id).question is not None)
    await hub.receive(members[0], json.dumps({"type": "answer", "number": 1, "choice": 0}))
    await settle(lambda: students[0].last("answered") is not None)
    # the page closes and connects again (a reload): it is told its answer
    await hub.detach(members[0])
    again = Socket()
    await hub.attach(again, {"seat": members[0].seat.token})
    await settle(lambda: again.last("answered") is not None)
    assert again.last("answered")["answer"] == {"choice": 0}
    await hub.receive(member, json.dumps({"type": "reveal"}))
    await settle(lambda: students[1].last()["question"]["state"] == "revealed")
    await hub.receive(members[1], json.dumps({"type": "answer", "number": 1, "choice": 1}))
    await settle(lambda: students[1].last("error") is not None)
    assert "revealed" in students[1].last("error")["message"]
    assert store.pace(started.id).question["results"]["answered"] == 1
