"""Protocol-level visitors of a live class, for benchmarks/bench_class.py (not a benchmark).

A browser per student cannot run 100 times on a 2-core machine, so each visitor here speaks
the two protocols a student's browser speaks, and nothing else:

* **Streamlit's** (:class:`PageSession`): the page's websocket (``/_stcore/stream``, the
  ``BackMsg``/``ForwardMsg`` protobufs Streamlit's frontend sends and reads): a script run
  for a query string, a button pressed, a number field changed, and the replay component's
  value (the class's view asked for), each until the run has finished. It keeps what the
  page's replay would get: the component's arguments (its payload's id, its class
  arguments) and the page's address (the seat).
* **the class's** (:class:`ClassSocket`): ``/class/ws`` as ``ui/playback/classroom.js``
  speaks it: the hello, the teacher's steps and pace, and the arrival time of every class
  message; it connects again after a drop, as the page does; and a new view of the class
  fetched from ``/class/view``.

What a browser does besides (drawing the payload, about 10 ms a step:
docs/benchmarks.md) is not in these times: they end when the message has arrived.
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field
from urllib.parse import parse_qs

import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

#: How long one script run may take before the visitor gives up, in seconds.
RUN_TIMEOUT = 300.0


@dataclass
class PageState:
    """What the page shows, as far as a class is concerned."""

    query: dict = field(default_factory=dict)
    component_id: str | None = None
    options: dict = field(default_factory=dict)
    payload_id: str | None = None
    widgets: dict = field(default_factory=dict)  # label -> (kind, id)


class PageSession:
    """One browser tab's Streamlit session, at the protocol level."""

    def __init__(self, base: str):
        self.address = base.replace("http://", "ws://") + "/_stcore/stream"
        self.socket = None
        self.state = PageState()
        self.page_hash = ""

    async def open(self, query: str) -> float:
        """Connect and run the page for ``query``; the seconds until its run finished."""
        self.socket = await websockets.connect(
            self.address, subprotocols=["streamlit"], max_size=2**27, open_timeout=60
        )
        return await self.run(query=query)

    async def run(self, query: str | None = None, widgets: list | None = None) -> float:
        """One script run (the page's query string, and widget states sent); its seconds."""
        message = BackMsg()
        state = message.rerun_script
        state.query_string = query if query is not None else _query_string(self.state.query)
        state.page_script_hash = self.page_hash
        for widget in widgets or []:
            state.widget_states.widgets.append(widget)
        start = time.perf_counter()
        await self.socket.send(message.SerializeToString())
        await asyncio.wait_for(self._until_finished(), RUN_TIMEOUT)
        return time.perf_counter() - start

    async def _until_finished(self) -> None:
        started = False
        while True:
            data = await self.socket.recv()
            forward = ForwardMsg()
            forward.ParseFromString(data)
            kind = forward.WhichOneof("type")
            if kind == "new_session":
                started = True
                self.page_hash = forward.new_session.page_script_hash
            elif kind == "page_info_changed":
                self.state.query = {
                    k: v[-1] for k, v in parse_qs(forward.page_info_changed.query_string).items()
                }
            elif kind == "delta" and forward.delta.WhichOneof("type") == "new_element":
                self._element(forward.delta.new_element)
            elif kind == "script_finished" and started:
                # a run that ends for st.rerun() is followed by the next one
                if forward.script_finished != ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                    return

    def _element(self, element) -> None:
        kind = element.WhichOneof("type")
        if kind == "component_instance":
            args = json.loads(element.component_instance.json_args)
            self.state.component_id = element.component_instance.id
            self.state.options = args.get("options", {})
            self.state.payload_id = args.get("payload_id")
        elif kind in ("button", "number_input", "text_input"):
            widget = getattr(element, kind)
            self.state.widgets[widget.label] = (kind, widget.id)

    async def press(self, label: str) -> float:
        """Press the button of ``label``; the run's seconds."""
        from streamlit.proto.WidgetStates_pb2 import WidgetState

        widget = WidgetState(id=self.state.widgets[label][1], trigger_value=True)
        return await self.run(widgets=[widget])

    async def set_number(self, label: str, value: int) -> float:
        """Set the integer field of ``label``; the run's seconds."""
        from streamlit.proto.WidgetStates_pb2 import WidgetState

        widget = WidgetState(id=self.state.widgets[label][1], int_value=value)
        return await self.run(widgets=[widget])

    async def send_component_value(self, value: dict) -> float:
        """The replay component's value (``classroom.js``'s request for a view)."""
        from streamlit.proto.WidgetStates_pb2 import WidgetState

        widget = WidgetState(id=self.state.component_id, json_value=json.dumps(value))
        return await self.run(widgets=[widget])

    async def close(self) -> None:
        if self.socket is not None:
            await self.socket.close()

    @property
    def classroom(self) -> dict | None:
        return self.state.options.get("classroom")


def _query_string(query: dict) -> str:
    from urllib.parse import urlencode

    return urlencode(query)


_CLIENT = None


def _http():
    """One HTTP client for every visitor (a browser has its own; making one per visitor would
    cost this process more than the server's answer)."""
    global _CLIENT
    if _CLIENT is None:
        import httpx

        _CLIENT = httpx.AsyncClient(timeout=60, limits=httpx.Limits(max_connections=200))
    return _CLIENT


class ClassSocket:
    """``/class/ws`` as a page's class bar speaks it, reconnecting after a drop."""

    def __init__(self, bases: list[str], path: str, hello: dict):
        self.addresses = [b.replace("http://", "ws://") + "/" + path for b in bases]
        self.hello = hello
        self.heard: list[tuple[float, dict]] = []  # (arrival, message)
        self.latest: dict | None = None
        self.reconnects = 0
        self.connections = 0  # connections made (and greeted by the class) so far
        self.socket = None
        self._task: asyncio.Task | None = None
        self._connected = asyncio.Event()
        self.stopped = False
        self.offline_until = 0.0  # a dropped network: no connection before this time
        self.preferred = 0

    async def start(self) -> None:
        self._task = asyncio.create_task(self._run())
        await asyncio.wait_for(self._connected.wait(), 60)

    async def _run(self) -> None:
        attempt = 0
        while not self.stopped:
            address = self.addresses[(self.preferred + attempt) % len(self.addresses)]
            try:
                if time.perf_counter() < self.offline_until:
                    raise OSError("the network is down")
                async with websockets.connect(address, open_timeout=10) as socket:
                    self.socket = socket
                    await socket.send(json.dumps({"type": "hello", **self.hello}))
                    attempt = 0
                    self.connections += 1
                    self._connected.set()
                    async for text in socket:
                        message = json.loads(text)
                        self.heard.append((time.perf_counter(), message))
                        if message["type"] == "class":
                            self.latest = message
                        if message["type"] == "closed" and "ended" in message["message"]:
                            self.stopped = True
            except (TimeoutError, OSError, websockets.WebSocketException):
                pass
            self.socket = None
            if self.stopped:
                return
            self.reconnects += 1
            attempt += 1  # the next process in turn, as nginx's round robin would
            await asyncio.sleep(min(0.5 * attempt, 5.0))

    async def drop(self, seconds: float) -> None:
        """The network drops for ``seconds``: the socket breaks, and connecting again fails
        until the network is back (the page keeps trying, as ``classroom.js`` does)."""
        self.offline_until = time.perf_counter() + seconds
        if self.socket is not None:
            self.socket.transport.abort()

    async def send(self, message: dict) -> None:
        if self.socket is not None:
            await self.socket.send(json.dumps(message))

    async def send_marked(self, message: dict) -> float:
        """Send ``message``; the time it was sent."""
        sent = time.perf_counter()
        await self.send(message)
        return sent

    async def fetch_view(self, classroom: dict) -> str | None:
        """The class's view from ``/class/view``, as a student's replay fetches it (its seat in
        the body); its payload's id, or None when the process has not shelved it (204)."""
        address = self.addresses[self.preferred].replace("ws://", "http://")
        address = address.removesuffix(classroom["path"]) + classroom["view_path"]
        response = await _http().post(address, json={"seat": classroom["secret"]})
        if response.status_code != 200:
            return None
        size = int.from_bytes(response.content[:4], "little")
        return json.loads(response.content[4 : 4 + size])["payload_id"]

    def arrival_of(self, predicate, since: float) -> float | None:
        """The arrival time of the first class message after ``since`` that ``predicate``
        accepts, or None."""
        for arrival, message in self.heard:
            if arrival >= since and message["type"] == "class" and predicate(message):
                return arrival
        return None

    async def stop(self) -> None:
        self.stopped = True
        if self.socket is not None:
            await self.socket.close()
        if self._task is not None:
            self._task.cancel()
