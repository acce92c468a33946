"""The class's view as a student's replay takes it without a script run: one per process.

When the teacher changes the class's view (data, learner, settings), every following
student's replay needs the new run. A Streamlit page gets one by running its script, about
22 ms of the process's CPU per page and one page at a time under Python's lock, so the last
of 100 students on one process had it seconds later. Instead, the first page of a process
that draws the class's view (the teacher's; in a process without the teacher, the first
student's page that runs its script for it) puts the replay's arguments of that view on this
process's shelf (:data:`SHELF`), and every student's replay of the process fetches them from
the class's route (``class_socket.py``, ``/class/view``) and draws them at once; its page's
script run follows in the background, to bring the page's controls and address along, and is
no longer between the teacher's change and the students' figures.

What is shelved is the view's part of the replay's arguments (:data:`VIEW_ARGS`,
:data:`VIEW_OPTIONS`: the run, the words, what the figure draws, the link's parameters), not a
page's own (its style, its place in the class, what it hides), packed as the route sends it
(:func:`packed`). The shelf keeps the last :data:`MOST` views of each process.

Examples
--------
>>> import asyncio
>>> shelf = ViewShelf()
>>> async def fetch():  # the first asker draws it itself; then it is there
...     return await shelf.take("c1", {"seed": "7"}, 1.0)
>>> asyncio.run(fetch()) is None
True
>>> shelf.put("c1", {"seed": "7"}, b"the view")
>>> asyncio.run(fetch())
b'the view'
"""

from __future__ import annotations

import asyncio
import json
import struct
import threading
import time
from collections import OrderedDict

from perceptron_lab.app_logic.live_class.messages import view_params

#: The replay's arguments that are the view's, not a page's own.
VIEW_ARGS = ("payload_id", "meta", "header", "show", "texts")
#: ... and of its options.
VIEW_OPTIONS = ("image", "link_params", "record", "predict")
#: Views a process keeps on its shelf (the newest).
MOST = 4


def _key(class_id: str, view: dict) -> str:
    return f"{class_id} {json.dumps(view, sort_keys=True)}"


def packed(args: dict) -> bytes:
    """The view's part of the replay's arguments ``args``
    (:func:`app_logic.playback_args.component_args`) as the route sends it: the JSON's length
    (4 bytes, little-endian), the JSON, then the payload's blob.

    Examples
    --------
    >>> args = {"payload_id": "p", "meta": {}, "header": {}, "show": {}, "texts": {},
    ...         "style": {"big": 1}, "blob": b"\\x01\\x02",
    ...         "options": {"image": "png", "link_params": {"seed": "7", "present": "1"},
    ...                     "record": None, "predict": {}, "classroom": {"secret": "s"}}}
    >>> body = packed(args)
    >>> size = int.from_bytes(body[:4], "little")
    >>> head = json.loads(body[4 : 4 + size])
    >>> head["options"]["link_params"], "style" in head, "classroom" in head["options"]
    ({'seed': '7'}, False, False)
    >>> body[4 + size :]
    b'\\x01\\x02'
    """
    head = {name: args[name] for name in VIEW_ARGS}
    head["options"] = {name: args["options"][name] for name in VIEW_OPTIONS}
    # the link of the view: without a screen's own entries (the teacher's presentation mode)
    head["options"]["link_params"] = view_params(head["options"]["link_params"])
    text = json.dumps(head, separators=(",", ":")).encode()
    return struct.pack("<I", len(text)) + text + bytes(args["blob"])


class ViewShelf:
    """The class views of one process, packed (:func:`packed`), the newest :data:`MOST`.

    Pages put views from their script threads; the route takes them in the server's event
    loop. A view not on the shelf is drawn by the first page that asks for it (:meth:`take`
    answers it None at once: its page runs its script, which shelves the view); the pages that
    ask meanwhile wait for it, up to a limit.
    """

    def __init__(self, most: int = MOST):
        self.most = most
        self._shelf: OrderedDict[str, bytes] = OrderedDict()
        self._claimed: dict[str, float] = {}  # a view some page is drawing: since when
        self._waiting: dict[str, list] = {}  # a view's waiting askers: (loop, future)
        self._lock = threading.Lock()

    def has(self, class_id: str, view: dict) -> bool:
        """Whether the view is on the shelf."""
        with self._lock:
            return _key(class_id, view) in self._shelf

    def put(self, class_id: str, view: dict, body: bytes) -> None:
        """Shelve the view (from any thread); the pages waiting for it get it."""
        key = _key(class_id, view)
        with self._lock:
            self._shelf[key] = body
            self._shelf.move_to_end(key)
            while len(self._shelf) > self.most:
                self._shelf.popitem(last=False)
            self._claimed.pop(key, None)
            waiting = self._waiting.pop(key, [])
        for loop, future in waiting:
            loop.call_soon_threadsafe(_settle, future, body)

    async def take(self, class_id: str, view: dict, wait: float) -> bytes | None:
        """The shelved view; None for the first asker of a view not shelved (its page draws
        it), and for later askers when it did not come within ``wait`` seconds."""
        key = _key(class_id, view)
        now = time.monotonic()
        with self._lock:
            if key in self._shelf:
                self._shelf.move_to_end(key)
                return self._shelf[key]
            for old in [k for k, since in self._claimed.items() if since < now - wait]:
                del self._claimed[old]  # its page never shelved it: the next asker draws it
            if key not in self._claimed:
                self._claimed[key] = now
                return None
            future = asyncio.get_running_loop().create_future()
            self._waiting.setdefault(key, []).append((asyncio.get_running_loop(), future))
        try:
            return await asyncio.wait_for(future, wait)
        except TimeoutError:
            return None
        finally:
            with self._lock:
                askers = [(loop, f) for loop, f in self._waiting.get(key, []) if f is not future]
                if askers:
                    self._waiting[key] = askers
                else:
                    self._waiting.pop(key, None)


def _settle(future: asyncio.Future, body: bytes) -> None:
    if not future.done():
        future.set_result(body)


#: This process's shelf.
SHELF = ViewShelf()
