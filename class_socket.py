"""The live class's websocket, ``/class/ws``: a route of the app's own beside Streamlit's.

``app.py`` serves the pages with ``st.App`` (Streamlit's Starlette application), which takes
routes of ours. The replay's frame (``ui/playback/classroom.js``) is served by the same
origin, so it opens this socket directly: pacing, answers and snapshots cost no Streamlit
script run per student, only a message on this socket
(:mod:`app_logic.live_class.hub` says what is sent, :mod:`app_logic.live_class.messages`
what is accepted).

A socket opened from a page of another origin is refused (a browser always sends the
``Origin`` of the page that opens a websocket; behind the nginx recipe of ``docs/deploy.md``
the ``Host`` header is the one the browser asked for).
"""

from __future__ import annotations

import asyncio
import functools
from urllib.parse import urlsplit

from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from perceptron_lab.app_logic.live_class.hub import HELLO_SECONDS, Hub, close_with_reason
from perceptron_lab.app_logic.live_class.messages import Refused, parse
from perceptron_lab.app_logic.live_class.store import shared_store

#: The socket's path (under Streamlit's ``server.baseUrlPath``, if one is set).
PATH = "class/ws"


@functools.cache
def _hub(loop: asyncio.AbstractEventLoop) -> Hub:
    return Hub(shared_store(), loop)


def same_origin(websocket: WebSocket) -> bool:
    """Whether the page that opened the socket is one of this server's (or no browser's)."""
    origin = websocket.headers.get("origin")
    if origin is None:  # not a browser: it holds a key or a seat, or it is refused anyway
        return True
    return urlsplit(origin).netloc.lower() == websocket.headers.get("host", "").lower()


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


def routes(base_path: str = "") -> list[WebSocketRoute]:
    """The class's routes for ``st.App``, under ``base_path`` (``server.baseUrlPath``).

    Examples
    --------
    >>> [route.path for route in routes("lab/")]
    ['/lab/class/ws']
    """
    base = "/".join(part for part in base_path.strip("/").split("/") if part)
    return [WebSocketRoute(f"/{base}/{PATH}" if base else f"/{PATH}", class_socket)]
