"""The live class's websocket, ``/class/ws``, and its views, ``/class/view``: routes of the
app's own beside Streamlit's.

``app.py`` serves the pages with ``st.App`` (Streamlit's Starlette application), which takes
routes of ours. The replay's frame (``ui/playback/classroom.js``) is served by the same
origin, so it opens this socket directly: pacing, answers and snapshots cost no Streamlit
script run per student, only a message on this socket
(:mod:`app_logic.live_class.hub` says what is sent, :mod:`app_logic.live_class.messages`
what is accepted).

A student's replay fetches the class's new view from ``/class/view`` (a POST naming its
seat): the replay's arguments of the view, as a page of this process shelved them
(:mod:`app_logic.live_class.views`), so that a new view reaches every student's figure without
a script run per page on the way; 204 (no content) asks the replay's page to run its script
for it, which shelves it for the others.

A socket or a fetch from a page of another origin is refused (a browser always sends the
``Origin`` of the page that opens a websocket or posts; behind the nginx recipe of
``docs/deploy.md`` the ``Host`` header is the one the browser asked for).
"""

from __future__ import annotations

import asyncio
import functools
import json
from urllib.parse import urlsplit

from starlette.requests import HTTPConnection, Request
from starlette.responses import Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from perceptron_lab.app_logic.live_class.hub import HELLO_SECONDS, Hub, close_with_reason
from perceptron_lab.app_logic.live_class.messages import Refused, parse, token
from perceptron_lab.app_logic.live_class.store import shared_store
from perceptron_lab.app_logic.live_class.views import SHELF

#: The socket's path and the views' (under Streamlit's ``server.baseUrlPath``, if one is set).
PATH, VIEW_PATH = "class/ws", "class/view"
#: A fetch of a view that another page of this process is drawing waits this long for it.
VIEW_WAIT_SECONDS = 5.0
#: The most a fetch's body may hold (its seat: ``{"seat": "..."}``).
VIEW_BODY_LIMIT = 200


@functools.cache
def _hub(loop: asyncio.AbstractEventLoop) -> Hub:
    return Hub(shared_store(), loop)


def same_origin(connection: HTTPConnection) -> bool:
    """Whether the page that opened the socket (or posted) is one of this server's (or no
    browser's)."""
    origin = connection.headers.get("origin")
    if origin is None:  # not a browser: it holds a key or a seat, or it is refused anyway
        return True
    return urlsplit(origin).netloc.lower() == connection.headers.get("host", "").lower()


async def class_socket(websocket: WebSocket) -> None:
    """One socket of a live class, from its hello to its close."""
    if not same_origin(websocket):
        await websocket.close(code=1008, reason="Another site's page may not join this class.")
        return
    await websocket.accept()
    hub = _hub(asyncio.get_running_loop())
    member = None
    try:
        text = await asyncio.wait_for(websocket.receive_text(), HELLO_SECONDS)
        try:
            hello = parse(text, None)
        except Refused as refused:
            await close_with_reason(websocket, str(refused))
            return
        member = await hub.attach(websocket, hello)
        while member is not None and await hub.receive(member, await websocket.receive_text()):
            pass
    except (WebSocketDisconnect, TimeoutError, RuntimeError):
        pass  # the page went away (RuntimeError: a message after the close), or said nothing
    finally:
        if member is not None:
            await hub.detach(member)


async def _seat_of(request: Request) -> str | None:
    """The seat a fetch names in its body (at most :data:`VIEW_BODY_LIMIT` bytes), or None."""
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > VIEW_BODY_LIMIT:
            return None
    try:
        return token(json.loads(body).get("seat"))
    except (ValueError, AttributeError, Refused):
        return None


async def class_view(request: Request) -> Response:
    """The class's current view for a student's replay, as a page of this process shelved it;
    204 when none has yet: the replay's page runs its script for it (and shelves it)."""
    if not same_origin(request):
        return Response("Another site's page may not fetch this class's view.", 403)
    seat_token = await _seat_of(request)
    if seat_token is None:
        return Response('A fetch of the class\'s view names its seat: {"seat": "..."}.', 400)
    pace = await _hub(asyncio.get_running_loop()).pace_of(seat_token)
    if pace is None:
        return Response("This class has ended, or this seat is not in it.", 404)
    shelved = await SHELF.take(pace.id, pace.view, VIEW_WAIT_SECONDS)
    if shelved is None:
        return Response(status_code=204)
    return Response(
        shelved, media_type="application/octet-stream", headers={"Cache-Control": "no-store"}
    )


def routes(base_path: str = "") -> list[Route | WebSocketRoute]:
    """The class's routes for ``st.App``, under ``base_path`` (``server.baseUrlPath``).

    Examples
    --------
    >>> [route.path for route in routes("lab/")]
    ['/lab/class/ws', '/lab/class/view']
    """
    base = "/".join(part for part in base_path.strip("/").split("/") if part)
    under = f"/{base}/" if base else "/"
    return [
        WebSocketRoute(f"{under}{PATH}", class_socket),
        Route(f"{under}{VIEW_PATH}", class_view, methods=["POST"]),
    ]
