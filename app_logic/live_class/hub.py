"""The class's websockets in one server process, and what each is sent when its class changes.

A socket is a :class:`Member` of its class once its ``hello`` named a teacher's key or a
student's seat (:mod:`.messages`). What it asks is checked against its role and stored
(:mod:`.store`); the store's notice of the change (:mod:`.database`: from this process or
another one) comes back to :meth:`Hub.changed`, and the hub sends the class's new pace to
its members in this process. So every process serving a class tells its own sockets, and no
message goes from process to process but through the database.

* **One read per change and process, not per socket.** Notices are gathered for
  :data:`GATHER_SECONDS` (a burst of joins is one read), then each class with members here is
  read once, and the same text goes to every student of it.
* **A slow socket slows nobody.** Each member has a writer of its own; the class's state is
  a whole picture, so a member that has not taken the last one yet gets only the newest.
* **Students are sent the pace only**: the view, the step, the mode, and the current
  question without its answer (its results once the teacher revealed them); each student is
  told their own answer, never another's, and after the reveal of one of a lesson's
  exercises, the exercise's verdict on it (:meth:`.store.ClassStore.your_verdict`: the
  server checks, never a page). The teacher is also sent the roster (how many
  joined and are connected) and the current question's answers pooled (counts only: nobody's
  answer by name or number), at every answer; the students' views only when the teacher
  asks, numbered, with nicknames only when the teacher turned them on.
* **Limits.** A socket may send :data:`RATE` messages a second (:data:`BURST` at once); more,
  and it is closed. A socket that has not said hello within :data:`HELLO_SECONDS` is closed.

The blocking database calls run in a pool of threads of the hub's own, so the event loop
(which also serves Streamlit's own websockets) never waits for the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from perceptron_lab.app_logic.live_class.database import POOL_SIZE
from perceptron_lab.app_logic.live_class.messages import Refused, parse
from perceptron_lab.app_logic.live_class.questions import checked_question
from perceptron_lab.app_logic.live_class.store import ClassStore, Pace, Seat

log = logging.getLogger("perceptron_lab")

#: Notices that arrive within this many seconds are handled with one read of each class.
GATHER_SECONDS = 0.01
#: Messages a socket may send per second, and at once.
RATE, BURST = 10.0, 40.0
#: A socket must say who it is within this many seconds.
HELLO_SECONDS = 10.0
#: A student's page counts as present when heard from within this long (their ``ping``s
#: refresh it at most this often).
SEEN_EVERY = 20.0
#: How often the hub deletes the classes whose time is up, in seconds.
SWEEP_SECONDS = 300.0
#: Close codes: the class ended or the key/seat is not valid; too many messages.
CLOSE_ENDED, CLOSE_FLOOD = 4404, 4429


@dataclass(eq=False)
class Member:
    """One socket of one class."""

    socket: object  # has `async send_text(text)` and `async close(code, reason)`
    role: str
    class_id: str
    seat: Seat | None = None
    latest: str | None = None
    replies: deque = field(default_factory=deque)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    tokens: float = BURST
    refilled: float = field(default_factory=time.monotonic)
    last_seen_write: float = 0.0
    rev: int = -1  # the class's revision this member was last sent
    told: int = 0  # the exercise question whose verdict this student was last sent
    closed: bool = False
    writer: asyncio.Task | None = None

    def offer(self, text: str) -> None:
        """The class's newest state, replacing one not sent yet."""
        self.latest = text
        self.wake.set()

    def reply(self, message: dict) -> None:
        """A message for this socket alone, after what it was sent before."""
        self.replies.append(json.dumps(message))
        self.wake.set()

    def allowed(self) -> bool:
        """Whether this message is within the socket's rate (a token bucket)."""
        now = time.monotonic()
        self.tokens = min(BURST, self.tokens + (now - self.refilled) * RATE)
        self.refilled = now
        self.tokens -= 1
        return self.tokens >= 0

    async def write(self) -> None:
        """Send what is offered, in order, until the socket closes."""
        try:
            while not self.closed:
                await self.wake.wait()
                self.wake.clear()
                while self.replies:
                    await self.socket.send_text(self.replies.popleft())
                if self.latest is not None:
                    text, self.latest = self.latest, None
                    await self.socket.send_text(text)
        except Exception:  # the socket went away: its reader ends the member
            self.closed = True


@dataclass
class Room:
    """The members of one class in this process, and the class's pace as last read."""

    members: set = field(default_factory=set)
    pace: Pace | None = None


class Hub:
    """The live classes' sockets of this process.

    Parameters
    ----------
    store : ClassStore
    loop : asyncio.AbstractEventLoop
        The server's event loop: the database's notices (from other threads) come back
        into it.
    """

    def __init__(self, store: ClassStore, loop: asyncio.AbstractEventLoop):
        self.store = store
        self.loop = loop
        self.rooms: dict[str, Room] = {}
        self.seated: dict[str, Member] = {}  # the students' sockets here, by their seat's token
        self._pending: dict[str | None, set[str]] = {}
        self._gathering: asyncio.TimerHandle | None = None
        self._pool = ThreadPoolExecutor(POOL_SIZE, thread_name_prefix="class-database")
        self._sweeper = loop.create_task(self._sweep_forever())
        store.database.listen(self._heard)

    async def blocking(self, function, *args):
        """``function(*args)`` (a database call) in the hub's threads, awaited."""
        return await self.loop.run_in_executor(self._pool, function, *args)

    # -- sockets ---------------------------------------------------------------------------

    async def attach(self, socket, hello: dict) -> Member | None:
        """The member a ``hello`` makes of ``socket``, sent its class's state; None (the socket
        told why and closed) when the key or seat opens no live class."""
        if "teacher" in hello:
            class_id = await self.blocking(self.store.teacher, hello["teacher"])
            member = Member(socket, "teacher", class_id) if class_id else None
        else:
            seat = await self.blocking(self.store.seat, hello["seat"])
            member = Member(socket, "student", seat.class_id, seat) if seat else None
        if member is None:
            await close_with_reason(socket, "This class has ended, or this link is not its link.")
            return None
        member.writer = self.loop.create_task(member.write())
        self.rooms.setdefault(member.class_id, Room()).members.add(member)
        if member.seat is not None:
            self.seated[member.seat.token] = member
            await self.blocking(self.store.seen, member.seat)
            member.last_seen_write = time.monotonic()
            yours = await self.blocking(self.store.your_answer, member.seat)
            if yours is not None:  # a page that connects again gets its answer back
                member.reply({"type": "answered", "number": yours[0], "answer": yours[1]})
            await self._tell_verdict(member)
        await self._refresh(member.class_id, {"pace", "roster"}, only=member)
        return member

    async def pace_of(self, seat_token: str) -> Pace | None:
        """The pace of the class of the seat ``seat_token``, or None: as this process last read
        it when the seat's page has its socket here (no database read), else from the store."""
        member = self.seated.get(seat_token)
        room = None if member is None else self.rooms.get(member.class_id)
        if room is not None and room.pace is not None:
            return room.pace
        seat = await self.blocking(self.store.seat, seat_token)
        return None if seat is None else await self.blocking(self.store.pace, seat.class_id)

    async def detach(self, member: Member) -> None:
        """The socket closed."""
        member.closed = True
        member.wake.set()
        room = self.rooms.get(member.class_id)
        if room is not None:
            room.members.discard(member)
            if not room.members:
                del self.rooms[member.class_id]
        if member.seat is not None:
            if self.seated.get(member.seat.token) is member:
                del self.seated[member.seat.token]
            with contextlib.suppress(Exception):  # the database may be what went away
                await self.blocking(self.store.seen, member.seat, False)

    async def receive(self, member: Member, text: str) -> bool:
        """Handle one message of ``member``; False when the socket must be closed."""
        if not member.allowed():
            await close_with_reason(member.socket, "Too many messages: disconnected.", CLOSE_FLOOD)
            return False
        try:
            message = parse(text, member.role)
            await getattr(self, f"_on_{message['type']}")(member, message)
        except Refused as refused:  # the message, or what it asks, is not accepted
            member.reply({"type": "error", "message": str(refused)})
        return True

    # -- what members ask ------------------------------------------------------------------

    async def _on_step(self, member: Member, message: dict) -> None:
        await self.blocking(self.store.set_step, member.class_id, message["t"])

    async def _on_pace(self, member: Member, message: dict) -> None:
        mode, bring = message["mode"], message["bring"]
        await self.blocking(self.store.set_mode, member.class_id, mode, bring)

    async def _on_names(self, member: Member, message: dict) -> None:
        await self.blocking(self.store.set_show_names, member.class_id, message["show"])

    async def _on_ask(self, member: Member, message: dict) -> None:
        question = checked_question(message["question"])
        await self.blocking(self.store.ask, member.class_id, question)

    async def _on_reveal(self, member: Member, message: dict) -> None:
        await self.blocking(self.store.reveal, member.class_id)

    async def _on_close(self, member: Member, message: dict) -> None:
        await self.blocking(self.store.close_question, member.class_id)

    async def _on_answer(self, member: Member, message: dict) -> None:
        number = message["number"]
        kept = await self.blocking(self.store.answer, member.seat, number, message["answer"])
        member.reply({"type": "answered", "number": number, "answer": kept})

    async def _on_end(self, member: Member, message: dict) -> None:
        await self.blocking(self.store.end, member.class_id)

    async def _on_students(self, member: Member, message: dict) -> None:
        pace = await self.blocking(self.store.pace, member.class_id)
        students = await self.blocking(self.store.students, member.class_id)
        member.reply(
            {
                "type": "students",
                "students": [
                    {
                        "number": s.number,
                        "name": s.nickname if pace and pace.show_names else None,
                        "view": s.view,
                        "step": s.step,
                        "connected": s.connected,
                    }
                    for s in students
                ],
            }
        )

    async def _on_state(self, member: Member, message: dict) -> None:
        await self.blocking(
            self.store.set_student_view, member.seat.student_id, message["params"], message["t"]
        )
        member.last_seen_write = time.monotonic()

    async def _on_ping(self, member: Member, message: dict) -> None:
        if member.seat is not None and time.monotonic() - member.last_seen_write > SEEN_EVERY:
            member.last_seen_write = time.monotonic()
            await self.blocking(self.store.seen, member.seat)

    # -- what members are sent -------------------------------------------------------------

    def _heard(self, class_id: str | None, kind: str) -> None:
        """A notice from the database (any thread): handled in the loop, gathered."""
        if not self.loop.is_closed():  # a hub of a loop that ended (a test's) hears nothing
            self.loop.call_soon_threadsafe(self._gather, class_id, kind)

    def _gather(self, class_id: str | None, kind: str) -> None:
        self._pending.setdefault(class_id, set()).add(kind)
        if self._gathering is None:
            self._gathering = self.loop.call_later(GATHER_SECONDS, self._flush)

    def _flush(self) -> None:
        self._gathering = None
        pending, self._pending = self._pending, {}
        everything = pending.pop(None, None)
        for class_id in list(self.rooms):
            kinds = pending.get(class_id, set()) | (everything or set())
            if kinds:
                self.loop.create_task(self._refresh(class_id, kinds))

    async def _refresh(self, class_id: str, kinds: set[str], only: Member | None = None) -> None:
        """Send the class's state to its members here (or to ``only``)."""
        room = self.rooms.get(class_id)
        if room is None:
            return
        pace = room.pace = await self.blocking(self.store.pace, class_id)
        members = [only] if only is not None else list(room.members)
        if pace is None:  # ended, or its time is up
            for member in members:
                await close_with_reason(member.socket, "The class has ended.")
            return
        teachers = [m for m in members if m.role == "teacher"]
        students = [m for m in members if m.role == "student"]
        behind = [m for m in students if m.rev != pace.rev]  # a roster change is not theirs
        if behind:
            text = json.dumps({"type": "class", **pace.public()})
            for member in behind:
                member.rev = pace.rev
                member.offer(text)
            question = pace.question
            if question and question["kind"] == "exercise" and question["state"] == "revealed":
                await asyncio.gather(*(self._tell_verdict(m) for m in behind))
        if teachers:
            joined, connected = await self.blocking(self.store.roster, class_id)
            pool = await self.blocking(self.store.pool, class_id) if pace.question else None
            text = json.dumps(
                {
                    "type": "class",
                    **pace.public(),
                    "show_names": pace.show_names,
                    "roster": {"joined": joined, "connected": connected},
                    "pool": pool,
                }
            )
            for member in teachers:
                member.offer(text)

    async def _tell_verdict(self, member: Member) -> None:
        """Send a student the verdict on their answer to the revealed exercise, once."""
        said = await self.blocking(self.store.your_verdict, member.seat)
        if said is not None and said[0] != member.told:
            member.told = said[0]
            member.reply({"type": "verdict", "number": said[0], **said[1]})

    async def _sweep_forever(self) -> None:
        while True:
            try:
                await self.blocking(self.store.delete_expired)
            except Exception:  # the database is away for now: try at the next sweep
                log.exception("Deleting the classes whose time is up failed")
            await asyncio.sleep(SWEEP_SECONDS)


async def close_with_reason(socket, reason: str, code: int = CLOSE_ENDED) -> None:
    """Tell the socket why, then close it."""
    with contextlib.suppress(Exception):
        await socket.send_text(json.dumps({"type": "closed", "message": reason}))
        await socket.close(code, reason[:120])
