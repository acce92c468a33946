"""The class's views shelved per process (app_logic/live_class/views.py) and the route that
hands them to the students' replays (``/class/view`` in class_socket.py, in Starlette's test
client on a real SQLite store): who gets a view, who draws it, who waits for it, and what a
request without a seat of the class gets."""

from __future__ import annotations

import asyncio
import json

import pytest

from perceptron_lab import class_socket
from perceptron_lab.app_logic.live_class.views import ViewShelf, packed
from tests import test_live_class_socket as socket_tests

# the class's routes in Starlette's test client, on a real SQLite store
store, client = socket_tests.store, socket_tests.client

ARGS = {
    "payload_id": "run-7",
    "meta": {"lanes": []},
    "header": {"X": {"dtype": "float64", "offset": 0, "shape": [1]}},
    "show": {"region": True},
    "texts": {"why": {}},
    "style": {"figure": {"height": 900}},
    "blob": bytes(range(8)),
    "options": {
        "image": "png",
        "link_params": {"seed": "7", "present": "1"},
        "record": {"steps": 3},
        "predict": {"on": False, "seed": 7},
        "classroom": {"role": "teacher", "secret": "the teacher's key"},
        "hide": {"math": False},
    },
}


def _unpacked(body: bytes) -> tuple[dict, bytes]:
    size = int.from_bytes(body[:4], "little")
    return json.loads(body[4 : 4 + size]), body[4 + size :]


def test_a_view_is_packed_without_what_is_each_pages_own():
    head, blob = _unpacked(packed(ARGS))
    assert blob == bytes(range(8))
    assert set(head) == {"payload_id", "meta", "header", "show", "texts", "options"}
    assert head["options"] == {
        "image": "png",
        "link_params": {"seed": "7"},  # the teacher's presentation mode is the teacher's
        "record": {"steps": 3},
        "predict": {"on": False, "seed": 7},
    }
    assert "the teacher's key" not in packed(ARGS).decode("latin-1")


def test_the_first_asker_draws_a_view_and_the_others_wait_for_it():
    async def main():
        shelf = ViewShelf()
        view = {"seed": "7", "learner": "kw"}
        assert await shelf.take("c", view, 5.0) is None  # the first: its page draws it
        waiting = [asyncio.create_task(shelf.take("c", view, 5.0)) for _ in range(3)]
        await asyncio.sleep(0.05)
        assert not any(task.done() for task in waiting)
        # a page's script thread shelves it (the key does not depend on the order of entries)
        await asyncio.to_thread(shelf.put, "c", {"learner": "kw", "seed": "7"}, b"drawn")
        assert await asyncio.gather(*waiting) == [b"drawn"] * 3
        assert await shelf.take("c", view, 5.0) == b"drawn"
        assert await shelf.take("other class", view, 5.0) is None

    asyncio.run(main())


def test_an_asker_waits_only_so_long_and_a_view_never_drawn_is_drawn_again():
    async def main():
        shelf = ViewShelf()
        assert await shelf.take("c", {}, 0.1) is None
        assert await shelf.take("c", {}, 0.1) is None  # waited 0.1 s for the first's page
        await asyncio.sleep(0.15)
        assert await shelf.take("c", {}, 0.1) is None  # the first's claim ran out: draws it
        assert shelf._waiting == {}

    asyncio.run(main())


def test_the_shelf_keeps_the_newest_views():
    shelf = ViewShelf(most=2)
    for seed in range(3):
        shelf.put("c", {"seed": str(seed)}, b"%d" % seed)
    assert [shelf.has("c", {"seed": str(seed)}) for seed in range(3)] == [False, True, True]


@pytest.fixture(autouse=True)
def _shelf(monkeypatch):
    """A shelf of the test's own; a fetch waits 0.2 s for a view another page draws."""
    monkeypatch.setattr(class_socket, "SHELF", ViewShelf())
    monkeypatch.setattr(class_socket, "VIEW_WAIT_SECONDS", 0.2)


def test_a_students_replay_fetches_the_class_view_its_process_shelved(client, store):
    started = store.start({"learner": "kw", "seed": "7"}, 0)
    seat = store.join(started.code)
    ask = {"json": {"seat": seat.token}, "headers": {"origin": "http://testserver"}}
    # nothing shelved: the first replay's page draws the view (204), the next waits, then 204
    assert client.post("/class/view", **ask).status_code == 204
    assert client.post("/class/view", **ask).status_code == 204
    class_socket.SHELF.put(started.id, {"seed": "7", "learner": "kw"}, packed(ARGS))
    answer = client.post("/class/view", **ask)
    assert answer.status_code == 200 and answer.headers["cache-control"] == "no-store"
    assert _unpacked(answer.content)[0]["payload_id"] == "run-7"
    # the teacher's new view is not shelved yet: 204 again, not the old view
    store.set_view(started.id, {"learner": "kw", "seed": "8"})
    assert client.post("/class/view", **ask).status_code == 204


@pytest.mark.parametrize(
    ("body", "headers", "status"),
    [
        ({"seat": "A" * 32}, {}, 404),  # no such seat
        ({"seat": "bad seat!"}, {}, 400),
        ({"teacher": "A" * 32}, {}, 400),
        ({"seat": "A" * 300}, {}, 400),  # over the body's limit
        ({"seat": None}, {"origin": "http://evil.example"}, 403),
    ],
)
def test_a_fetch_without_a_seat_of_a_live_class_gets_no_view(client, store, body, headers, status):
    started = store.start({"learner": "kw"}, 0)
    class_socket.SHELF.put(started.id, {"learner": "kw"}, packed(ARGS))
    answer = client.post("/class/view", json=body, headers=headers)
    assert answer.status_code == status and b"run-7" not in answer.content
    assert client.get("/class/view").status_code == 405


def test_an_ended_class_hands_out_no_view(client, store):
    started = store.start({"learner": "kw"}, 0)
    seat = store.join(started.code)
    class_socket.SHELF.put(started.id, {"learner": "kw"}, packed(ARGS))
    store.end(started.id)
    assert client.post("/class/view", json={"seat": seat.token}).status_code == 404
