"""The class's websocket route (``class_socket.py``) in Starlette's test client, on a real
SQLite store: what a page of another site, a socket without a valid hello and crafted
messages get. (The same against the running app with a raw websocket client is in
tests/browser/test_live_class_browser.py.)"""

from __future__ import annotations

import json

import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from perceptron_lab import class_socket
from perceptron_lab.app_logic.live_class import store as store_module
from perceptron_lab.app_logic.live_class.database import Database
from perceptron_lab.app_logic.live_class.store import ClassStore


@pytest.fixture
def store(tmp_path, monkeypatch):
    store = ClassStore(Database(str(tmp_path / "class.sqlite3")), hours=1.0)
    monkeypatch.setattr(class_socket, "shared_store", lambda: store)
    class_socket._hub.cache_clear()
    yield store
    class_socket._hub.cache_clear()
    store_module.shared_store.cache_clear()


@pytest.fixture
def client(store):
    with TestClient(Starlette(routes=class_socket.routes())) as client:
        yield client


def _messages(socket, count: int) -> list[dict]:
    return [json.loads(socket.receive_text()) for _ in range(count)]


def test_a_page_of_another_site_is_refused(client, store):
    with pytest.raises(WebSocketDisconnect) as closed:
        with client.websocket_connect(
            "/class/ws", headers={"origin": "http://evil.example", "host": "testserver"}
        ) as socket:
            socket.receive_text()
    assert closed.value.code == 1008


def test_the_teacher_paces_and_a_student_socket_cannot(client, store):
    started = store.start({"learner": "kw"}, 0)
    seat = store.join(started.code, "Ada")
    with (
        client.websocket_connect("/class/ws", headers={"origin": "http://testserver"}) as teacher,
        client.websocket_connect("/class/ws") as student,
    ):
        teacher.send_text(json.dumps({"type": "hello", "teacher": started.teacher_key}))
        assert _messages(teacher, 1)[0]["code"] == started.code
        student.send_text(json.dumps({"type": "hello", "seat": seat.token}))
        first = _messages(student, 1)[0]
        assert first["view"] == {"learner": "kw"} and "roster" not in first
        for crafted in (
            '{"type": "step", "t": 99}',
            '{"type": "pace", "mode": "free", "bring": true}',
            '{"type": "end"}',
            '{"type": "names", "show": true}',
            '{"type": "students"}',
            "not json",
            json.dumps({"type": "state", "params": {"x": "y" * 5000}, "t": 1}),
            "[" * 20_000,
        ):
            student.send_text(crafted)
        errors = [m for m in _messages(student, 8) if m["type"] == "error"]
        assert len(errors) == 8
        assert store.pace(started.id).step == 0 and store.pace(started.id).mode == "follow"
        teacher.send_text(json.dumps({"type": "step", "t": 57}))
        assert _messages(student, 1)[0]["step"] == 57


def test_a_socket_must_say_hello_with_a_valid_key_or_seat(client, store):
    for hello in ('{"type": "step", "t": 1}', '{"type": "hello", "seat": "no such seat"}'):
        with client.websocket_connect("/class/ws") as socket:
            socket.send_text(hello)
            assert _messages(socket, 1)[0]["type"] == "closed"
    with client.websocket_connect("/class/ws") as socket:
        socket.send_text(json.dumps({"type": "hello", "seat": "A" * 32}))
        (closed,) = _messages(socket, 1)
        assert closed == {
            "type": "closed",
            "message": "This class has ended, or this link is not its link.",
        }


def test_a_student_socket_cannot_ask_reveal_or_close_and_sees_no_pool(client, store):
    started = store.start({"learner": "kw"}, 0)
    seat = store.join(started.code, "Ada")
    question = {"step": 1, "lane": 0, "kind": "side", "seed": 0, "options": [1, -1], "answer": 0}
    with (
        client.websocket_connect("/class/ws") as teacher,
        client.websocket_connect("/class/ws") as student,
    ):
        teacher.send_text(json.dumps({"type": "hello", "teacher": started.teacher_key}))
        student.send_text(json.dumps({"type": "hello", "seat": seat.token}))
        _messages(teacher, 1)
        _messages(student, 1)
        for crafted in (
            {"type": "ask", "question": question},
            {"type": "reveal"},
            {"type": "close"},
        ):
            student.send_text(json.dumps(crafted))
        errors = _messages(student, 3)
        assert all(m["type"] == "error" and "teacher" in m["message"] for m in errors), errors
        assert store.pace(started.id).question is None
        teacher.send_text(json.dumps({"type": "ask", "question": question}))
        asked = _messages(student, 1)[0]["question"]
        assert asked["kind"] == "side" and "answer" not in asked and "results" not in asked
        student.send_text(json.dumps({"type": "answer", "number": 1, "choice": 0}))
        told = _messages(student, 1)[0]
        assert told == {"type": "answered", "number": 1, "answer": {"choice": 0}}
        pool = None
        while not (pool or {}).get("answered"):  # the teacher's picture after the answer
            pool = json.loads(teacher.receive_text()).get("pool")
        assert pool == {"number": 1, "answered": 1, "right": 1, "counts": [1, 0], "answer": 0}
