"""The live class on the playground: start one, join one, and what the page shows of it.

A **teacher** presses *Start a class* (the sidebar's *Live class* section): the page gets a
short code, a join link and its QR code to project (the join box, above the figure), and a
private teacher link to rejoin from another device or after closing the tab (``?teach=``,
read once and taken out of the address at once, so it never shows on the projector). The
teacher's view (the share link's parameters) becomes the class's at every run of the page
(:func:`publish`), after the page has put the view's run on the process's shelf, which the
students' replays fetch it from (:func:`shelve`); pacing, snapshots and the roster are in the
replay's class bar (``ui/playback/classroom.js``), over the class's websocket
(``class_socket.py``).

A **student** types the code (a nickname is optional), or opens the join link
(``?join=CODE``), and gets a seat: its token stays in the page's address (``seat=``), so a
reload keeps the seat. When the teacher brings everyone to their view, the replay asks the
page to load it (:func:`component_changed`): the link's parameters replace the page's
controls' values, as when the link itself is opened (``ui/state.py``'s :func:`load_link`).

Nothing personal is asked: a nickname is optional, cut to 24 characters and shown as text.
"""

from __future__ import annotations

import html
import uuid
from dataclasses import dataclass
from urllib.parse import urlencode, urlsplit

import streamlit as st

from perceptron_lab.app_logic.live_class.database import DatabaseError
from perceptron_lab.app_logic.live_class.messages import (
    NICKNAME_LIMIT,
    clean_nickname,
    view_params,
)
from perceptron_lab.app_logic.live_class.store import JoinRefused, normal_code, shared_store
from perceptron_lab.app_logic.live_class.views import SHELF, packed
from perceptron_lab.app_logic.visitor_text import as_text
from perceptron_lab.ui.state import load_link

#: The session's seat in a class (a :class:`Membership`), and the student view the
#: teacher projects (its number), if any.
SESSION, PROJECTING = "live_class", "live_class_projecting"
#: The last view the class opened on this page, and its step (for the replay).
OPENED = "live_class_opened"
#: The class's view as this run of the page read it.
CLASS_VIEW = "live_class_view"
#: The link's entries of the class: the teacher's key (read once), a join code, a seat.
TEACH, JOIN, SEAT = "teach", "join", "seat"
#: The class's websocket and views, relative to the app's base path (``class_socket.PATH``,
#: ``class_socket.VIEW_PATH``).
SOCKET_PATH, VIEW_PATH = "class/ws", "class/view"


@dataclass(frozen=True)
class Page:
    """The page a class is on: its controls' prefix and its replay component's key (whose
    browser state a new view keeps)."""

    prefix: str
    component: str

    def load(self, params: dict) -> None:
        """Open the view ``params`` on this page (``ui/state.py``'s :func:`load_link`), at
        its step: the replay, which keeps its step across views, is told to go there."""
        load_link(self.prefix, params, keep=(self.component,))
        step = params.get("t", "0")
        st.session_state[OPENED] = {
            "nonce": uuid.uuid4().hex,
            "t": int(step) if str(step).isdigit() else 0,
        }


@dataclass(frozen=True)
class Membership:
    """This session's place in a class: ``secret`` is the teacher's key or the seat's token."""

    role: str
    class_id: str
    code: str
    secret: str
    number: int = 0
    student_id: str = ""


def _store():
    """The class store; None (after a message) when its database cannot be opened."""
    try:
        return shared_store()
    except (DatabaseError, OSError, ValueError) as error:
        st.error(f"The live class is not available on this server: {as_text(str(error), 300)}")
        return None


def membership() -> Membership | None:
    """This session's class, while it lasts."""
    return st.session_state.get(SESSION)


def _app_base() -> str:
    """The app's address without page or query (``http://host:port/`` or its base path)."""
    parts = urlsplit(st.context.url or "")
    path = parts.path
    if not path.endswith("/"):  # a page's address: the app's folder is its parent
        path = path.rsplit("/", 1)[0] + "/"
    return f"{parts.scheme}://{parts.netloc}{path}" if parts.netloc else "/"


def join_link(code: str) -> str:
    """The address a student opens to join the class of ``code``."""
    return f"{_app_base()}?{urlencode({JOIN: code})}"


def teacher_link(key: str) -> str:
    """The teacher's private address for rejoining the class."""
    return f"{_app_base()}?{urlencode({TEACH: key})}"


def _seated(seat) -> Membership:
    return Membership(
        "student", seat.class_id, seat.code, seat.token, seat.number, seat.student_id
    )


def _enter(member: Membership, store, page: Page) -> None:
    """Take the seat: the address keeps a student's seat; the page loads the class's view."""
    st.session_state[SESSION] = member
    st.session_state.pop(PROJECTING, None)
    pace = store.pace(member.class_id)
    if pace is None:
        return
    kept = {SEAT: member.secret} if member.role == "student" else {}
    page.load({**pace.view, **kept, "t": str(pace.step)})


def _leave() -> None:
    st.session_state.pop(SESSION, None)
    st.session_state.pop(PROJECTING, None)
    for name in (SEAT, TEACH, JOIN):
        if name in st.query_params:
            del st.query_params[name]


def _from_link(store, page: Page) -> None:
    """A teacher's key, a join code or a seat in the address (the first run of a session)."""
    params = st.query_params
    if TEACH in params:
        key = params[TEACH]
        del params[TEACH]  # never on the projector's address bar
        class_id = store.teacher(key) if len(key) < 100 else None
        if class_id is None:
            st.error("This teacher link opens no class now: the class has ended.")
            return
        pace = store.pace(class_id)
        _enter(Membership("teacher", class_id, pace.code, key), store, page)
        st.rerun()
    if SEAT in params and membership() is None:
        seat = store.seat(params[SEAT]) if len(params[SEAT]) < 100 else None
        if seat is None:
            del params[SEAT]
            st.info("The class this page was in has ended.")
            return
        st.session_state[SESSION] = _seated(seat)
    if JOIN in params and membership() is None:
        _join(store, page, params[JOIN], "")


def _join(store, page: Page, code: str, nickname: str) -> None:
    try:
        seat = store.join(code[:40], nickname)
    except JoinRefused as refused:
        st.session_state["live_class_message"] = str(refused)
        return
    _enter(_seated(seat), store, page)
    st.session_state["live_class_nickname"] = st.session_state["live_class_named"] = (
        clean_nickname(nickname)
    )
    st.rerun()


def _start(store) -> None:
    params = dict(st.query_params)  # the view of the page's last run
    step = int(params["t"]) if params.get("t", "").isdigit() else 0
    started = store.start(view_params(params), step)
    st.session_state[SESSION] = Membership(
        "teacher", started.id, started.code, started.teacher_key
    )
    st.session_state["live_class_started"] = True


def sidebar(page: Page) -> None:
    """The sidebar's *Live class* section: start or join a class, or the class's links."""
    store = _store()
    if store is None:
        return
    if membership() is None:
        _from_link(store, page)
    member = membership()
    pace = None if member is None else store.pace(member.class_id)
    if member is not None and pace is None:
        _leave()
        st.info("The class has ended.")
        member = None
    st.session_state[CLASS_VIEW] = None if pace is None else pace.view
    st.header("Live class")
    if member is None:
        _outside(store, page)
    elif member.role == "teacher":
        _teacher(store, member)
    else:
        _student(store, member)


def _outside(store, page: Page) -> None:
    if message := st.session_state.pop("live_class_message", None):
        st.error(message)
    with st.form("live_class_join", border=False):
        code = st.text_input("Class code", max_chars=12, placeholder="e.g. K7QM4P")
        nickname = st.text_input(
            "Nickname (optional)",
            max_chars=NICKNAME_LIMIT,
            help="Shown to your teacher only if they turn names on; nothing else is asked.",
        )
        if st.form_submit_button("Join the class"):
            _join(store, page, normal_code(code), nickname)
    st.button(
        "Start a class",
        help="Teach this view live: students join with a code, your steps and settings "
        "become theirs, and you can project a student's view.",
        on_click=_start,
        args=(store,),
    )


def _teacher(store, member: Membership) -> None:
    st.caption(f"You are teaching class **{member.code}**. Pace it from the replay's class bar.")
    with st.expander("Your teacher link (private: not for the projector)"):
        st.caption(
            "Open it on another device, or after closing this tab, to go on teaching this class."
        )
        st.code(teacher_link(member.secret), language=None, wrap_lines=True)
    if st.button("End the class", help="Every student's page leaves it; its data are deleted."):
        store.end(member.class_id)
        _leave()
        st.rerun()


def _student(store, member: Membership) -> None:
    st.caption(f"You are in class **{member.code}** (you are student {member.number}).")
    name = st.text_input(
        "Nickname (optional)",
        key="live_class_nickname",
        max_chars=NICKNAME_LIMIT,
        help="Shown to your teacher only if they turn names on.",
    )
    if name != st.session_state.get("live_class_named", ""):
        st.session_state["live_class_named"] = store.set_nickname(member.student_id, name)
    if st.button("Leave the class"):
        _leave()
        st.rerun()


def _qr_image(link: str) -> str:
    """The join link's QR code as an image of SVG in a data URI (made here: nothing is
    fetched), named for a screen reader by the link it holds. (Streamlit's HTML element keeps
    HTML only, so the SVG cannot be inline.)"""
    import segno

    uri = segno.make(link, error="m").svg_data_uri(
        scale=1, border=2, dark="#000000", light="#ffffff", omitsize=True
    )
    name = html.escape(f"QR code of the join link {link}")
    return f'<img class="join-qr" src="{html.escape(uri)}" alt="{name}">'


def above_figure(page: Page) -> None:
    """The teacher's join box and, while a student's view is projected, the way back: in one
    container that every page has, in or out of a class, so the replay after it keeps its
    place on the page (Streamlit would draw a replay whose place moved anew, from scratch)."""
    with st.container():
        _join_box()
        _projecting_bar(page)


def _join_box() -> None:
    """Above the teacher's figure: the code, the join link and its QR code, to project."""
    member = membership()
    if member is None or member.role != "teacher":
        return
    link = join_link(member.code)
    with st.expander(f"Join this class: code {member.code}", expanded=True):
        st.html(
            '<div class="join-box">'
            f"{_qr_image(link)}"
            '<div class="join-words"><p>Scan the code, or open</p>'
            f'<p class="join-link">{html.escape(link)}</p>'
            "<p>and type the class code</p>"
            f'<p class="join-code">{html.escape(member.code)}</p></div></div>'
        )


def _projecting_bar(page: Page) -> None:
    """While the teacher projects a student's view: what it is, and the way back."""
    member, number = membership(), st.session_state.get(PROJECTING)
    if member is None or member.role != "teacher" or number is None:
        return
    with st.container(border=True):
        st.markdown(f"**Projecting a student's view** (student {int(number)}, anonymous).")
        back, adopt = st.columns(2)
        if back.button("Back to the class's view"):
            pace = shared_store().pace(member.class_id)
            st.session_state.pop(PROJECTING, None)
            if pace is not None:
                page.load({**pace.view, "t": str(pace.step)})
            st.rerun()
        if adopt.button("Make this the class's view"):
            st.session_state.pop(PROJECTING, None)
            st.rerun()


def shelve(params: dict, args) -> None:
    """Put this page's view on the process's shelf for the class's students
    (:mod:`app_logic.live_class.views`) when it is the class's: the teacher's (not while
    projecting a student's), or a student's page on the class's view. ``args()`` builds the
    replay's arguments; it is called once per view and process."""
    member = membership()
    if member is None or st.session_state.get(PROJECTING) is not None:
        return
    view = view_params(params)
    if member.role == "student" and st.session_state.get(CLASS_VIEW) != view:
        return
    if not SHELF.has(member.class_id, view):
        SHELF.put(member.class_id, view, packed(args()))


def publish(params: dict) -> None:
    """The teacher's view becomes the class's (once per change; not while projecting)."""
    member = membership()
    if member is None or member.role != "teacher" or st.session_state.get(PROJECTING):
        return
    view = view_params(params)
    if st.session_state.get("live_class_published") != (member.class_id, view):
        shared_store().set_view(member.class_id, view)
        st.session_state["live_class_published"] = (member.class_id, view)


def component_info() -> dict | None:
    """What the replay's class bar needs: the role, the code, the secret, the socket's path."""
    member = membership()
    if member is None:
        return None
    return {
        "role": member.role,
        "code": member.code,
        "secret": member.secret,
        "path": SOCKET_PATH,
        "view_path": VIEW_PATH,
        "projecting": st.session_state.get(PROJECTING),
        "opened": st.session_state.get(OPENED),
    }


def component_changed(page: Page) -> bool:
    """The replay asked for a view (the class's, or a student's to project); True if so."""
    value = st.session_state.get(page.component)
    member = membership()
    if member is None or not isinstance(value, dict) or value.get("action") != "class_view":
        return False
    try:
        params = view_params(value.get("params"))
        step = max(0, int(value.get("t", 0)))
    except (ValueError, TypeError):
        return True
    projected = value.get("student")
    if member.role == "teacher" and isinstance(projected, int):
        st.session_state[PROJECTING] = projected
    kept = {SEAT: member.secret} if member.role == "student" else {}
    page.load({**params, **kept, "t": str(step)})
    return True
