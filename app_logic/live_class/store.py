"""What a live class is, and every change made to it: one transaction each.

A class has a short **code** that students type (:data:`CODE_LENGTH` characters of
:data:`CODE_ALPHABET`, which leaves out the look-alikes I, L, O, 0 and 1) and a **teacher's
key** (192 random bits) that paces, asks and projects; each student who joins gets a
**seat** (a token of 192 random bits) that their page keeps. The database keeps only the
SHA-256 of a key or a seat, so a copy of it gives nobody the class.

The class's **pace** is the teacher's view (the share link's parameters,
``app_logic/share_link.py``), its revision, the teacher's step, the mode ("follow": every
student's page is put on the teacher's view and step; "free": students explore) and a
counter that "Bring everyone here" raises. Each change raises the class's revision and sends
a notice (:mod:`.database`), which the hub of every process turns into messages.

**Joins are rate-limited**: a wrong code is counted (for every process, in the database),
and once :data:`JOIN_FAILURES` wrong codes were tried within :data:`JOIN_WINDOW` seconds,
joins by code are refused until the window has passed. So in 12 hours at most 21,600 codes
can be tried, against 887,503,681 possible codes: a given class is found by enumeration with
a chance under 1 in 40,000 (``docs/deploy.md``).

The teacher **asks the class** a question (:mod:`.questions`) at a step, or one of a
lesson's exercises (:mod:`.exercises`): the class has one current question at a time, "open"
(students answer; a student's changed answer replaces their first), then "revealed" (the
answers pooled are kept with it and shown to all; after a prediction the class's step becomes
the step asked about, and after an exercise each student is told the exercise's verdict on
their own answer, :meth:`ClassStore.your_verdict`), until the teacher closes it, asks the
next one, or, for a prediction, changes the view (it is about the view it was asked on; an
exercise is about its lesson's run, which the class's view does not change).

A class **expires** ``hours`` after it started (:mod:`.settings`): it is then deleted with its
students, questions and answers (:meth:`ClassStore.delete_expired`, run at every start of a
class and by the hub every few minutes) and no key or seat opens it any more.
"""

from __future__ import annotations

import functools
import hashlib
import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass

from perceptron_lab.app_logic.live_class.database import Database, Transaction
from perceptron_lab.app_logic.live_class.messages import (
    MODES,
    Refused,
    clean_nickname,
    view_params,
)
from perceptron_lab.app_logic.live_class.questions import (
    checked_answer,
    pooled,
    shown_key,
    verdict,
)
from perceptron_lab.app_logic.live_class.settings import (
    database_from_environment,
    hours_from_environment,
)

#: A class code's characters: capitals and digits without I, L, O, 0 and 1.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
#: The rate limit of joins: at most this many wrong codes ...
JOIN_FAILURES = 30
#: ... within this many seconds, over every process that shares the database.
JOIN_WINDOW = 60.0
#: A student counts as connected when their page was heard from this recently (seconds).
CONNECTED_SECONDS = 60.0


class JoinRefused(ValueError):
    """A join that did not happen; the message says why, for the student."""


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def normal_code(text: str) -> str:
    """A typed code as stored: capitals, without spaces or dashes.

    Examples
    --------
    >>> normal_code(" k7q-m4p ")
    'K7QM4P'
    """
    return "".join(str(text).split()).replace("-", "").upper()


@dataclass(frozen=True)
class Started:
    """A new class: its id, the code students type, the teacher's key (shown once)."""

    id: str
    code: str
    teacher_key: str


@dataclass(frozen=True)
class Seat:
    """A student's place in a class: ``token`` is their page's secret; ``number`` names them
    on the teacher's screen ("Student 3") while nicknames are hidden."""

    class_id: str
    student_id: str
    token: str
    number: int
    code: str


@dataclass(frozen=True)
class Pace:
    """What every page of the class follows."""

    id: str
    code: str
    mode: str
    view: dict
    view_rev: int
    step: int
    bring: int
    rev: int
    show_names: bool
    expires: float
    question: dict | None = None

    def public(self) -> dict:
        """The pace as every page of the class is sent it: with the current question's public
        part and state (its results once revealed), never its right answer before that.

        Examples
        --------
        >>> Pace("i", "ABC234", "follow", {}, 1, 5, 0, 3, False, 0.0).public()["step"]
        5
        """
        return {
            "code": self.code,
            "mode": self.mode,
            "view": self.view,
            "view_rev": self.view_rev,
            "step": self.step,
            "bring": self.bring,
            "rev": self.rev,
            "expires": self.expires,
            "question": self.question,
        }


@dataclass(frozen=True)
class StudentView:
    """One student as the teacher's screen may list them."""

    number: int
    nickname: str
    view: dict | None
    step: int | None
    connected: bool


_PACE = (
    "SELECT id, code, mode, view_params, view_rev, step, bring, rev, show_names, expires "
    "FROM classes WHERE id = ? AND expires > ?"
)
#: The class's current question: the last one asked, unless it was closed.
_QUESTION = (
    "SELECT id, number, public, answer_key, state, results FROM questions "
    "WHERE class_id = ? AND state <> 'closed' ORDER BY number DESC LIMIT 1"
)


def _current_question(tx: Transaction, class_id: str) -> dict | None:
    """The class's current question: its id, number, state, public part, key and results."""
    row = tx.one(_QUESTION, (class_id,))
    if row is None:
        return None
    id_, number, public, key, state, results = row
    return {
        "id": id_,
        "number": int(number),
        "state": state,
        "public": json.loads(public),
        "key": json.loads(key),
        "results": json.loads(results) if results else None,
    }


def _answers(tx: Transaction, question_id: str) -> list[dict]:
    rows = tx.all("SELECT answer FROM answers WHERE question_id = ?", (question_id,))
    return [json.loads(answer) for (answer,) in rows]


class ClassStore:
    """The live classes of one database.

    Parameters
    ----------
    database : Database
    hours : float
        How long a class lives after it started.
    clock : callable, optional
        The time in seconds since the epoch (``time.time``; tests pass their own).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> store = ClassStore(Database(str(pathlib.Path(tempfile.mkdtemp()) / "c.sqlite3")), 1.0)
    >>> started = store.start({"learner": "kw"}, step=0)
    >>> seat = store.join(started.code.lower(), "Ada")
    >>> store.pace(seat.class_id).view, seat.number
    ({'learner': 'kw'}, 1)
    >>> try:
    ...     store.join("ZZZZZZ", "")
    ... except JoinRefused as refused:
    ...     print(refused)
    No class has the code ZZZZZZ now: check the code on the board.
    """

    def __init__(self, database: Database, hours: float, clock: Callable[[], float] = time.time):
        self.database = database
        self.hours = float(hours)
        self._clock = clock

    def _write(self, work):
        return self.database.run(work, write=True)

    # -- starting, joining, rejoining --------------------------------------------------------

    def start(self, view: dict, step: int = 0) -> Started:
        """Start a class on the teacher's ``view`` and ``step``."""
        self.delete_expired()
        now = self._clock()
        key = secrets.token_urlsafe(24)
        class_id = secrets.token_hex(16)
        params = json.dumps(view_params(view))

        def start(tx: Transaction) -> str:
            for _ in range(20):  # a code of a live class is not handed out twice
                code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
                if tx.one("SELECT 1 FROM classes WHERE code = ?", (code,)) is None:
                    break
            else:
                raise RuntimeError("no free class code found")
            tx.run(
                "INSERT INTO classes (id, code, teacher_hash, created, expires, mode, "
                "view_params, view_rev, step, bring, rev, seats, show_names) "
                "VALUES (?, ?, ?, ?, ?, 'follow', ?, 1, ?, 0, 1, 0, 0)",
                (class_id, code, _hash(key), now, now + 3600 * self.hours, params, int(step)),
            )
            return code

        return Started(class_id, self._write(start), key)

    def teacher(self, key: str) -> str | None:
        """The live class whose teacher's key is ``key``, or None."""
        row = self.database.run(
            lambda tx: tx.one(
                "SELECT id FROM classes WHERE teacher_hash = ? AND expires > ?",
                (_hash(key), self._clock()),
            )
        )
        return None if row is None else row[0]

    def join(self, code: str, nickname: str = "") -> Seat:
        """A new seat in the live class of ``code``; :class:`JoinRefused` for a wrong code, or
        while too many wrong codes were tried (:data:`JOIN_FAILURES`)."""
        code = normal_code(code)
        nickname = clean_nickname(nickname)
        now = self._clock()
        token = secrets.token_urlsafe(24)

        def join(tx: Transaction) -> Seat | float:
            tx.run("DELETE FROM join_failures WHERE failed_at <= ?", (now - JOIN_WINDOW,))
            failures = tx.all(
                "SELECT failed_at FROM join_failures ORDER BY failed_at LIMIT ?", (JOIN_FAILURES,)
            )
            if len(failures) >= JOIN_FAILURES:  # wait until the oldest leaves the window
                return failures[0][0] + JOIN_WINDOW - now
            # the update first: it locks the class's row, so two joins at once get two numbers
            if not tx.run(
                "UPDATE classes SET seats = seats + 1 WHERE code = ? AND expires > ?", (code, now)
            ):
                tx.run("INSERT INTO join_failures (failed_at) VALUES (?)", (now,))
                return 0.0
            class_id, seats = tx.one("SELECT id, seats FROM classes WHERE code = ?", (code,))
            student_id = secrets.token_hex(16)
            tx.run(
                "INSERT INTO students (id, class_id, token_hash, number, nickname, joined, seen) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (student_id, class_id, _hash(token), seats, nickname, now, now),
            )
            tx.notice(class_id, "roster")
            return Seat(class_id, student_id, token, int(seats), code)

        found = self._write(join)
        if isinstance(found, Seat):
            return found
        if found > 0:
            raise JoinRefused(
                "Too many wrong class codes were tried on this server just now; try again in "
                f"{max(1, round(found))} s."
            )
        raise JoinRefused(
            f"No class has the code {clean_nickname(code)} now: check the code on the board."
        )

    def seat(self, token: str) -> Seat | None:
        """The seat whose token is ``token`` in a live class, or None."""
        row = self.database.run(
            lambda tx: tx.one(
                "SELECT s.class_id, s.id, s.number, c.code FROM students s "
                "JOIN classes c ON c.id = s.class_id WHERE s.token_hash = ? AND c.expires > ?",
                (_hash(token), self._clock()),
            )
        )
        if row is None:
            return None
        class_id, student_id, number, code = row
        return Seat(class_id, student_id, token, int(number), code)

    # -- the pace ------------------------------------------------------------------------------

    def pace(self, class_id: str) -> Pace | None:
        """The class's pace, or None when it ended."""

        def read(tx: Transaction):
            row = tx.one(_PACE, (class_id, self._clock()))
            return None if row is None else (row, _current_question(tx, class_id))

        found = self.database.run(read)
        if found is None:
            return None
        (id_, code, mode, view, view_rev, step, bring, rev, names, expires), question = found
        shown = None
        if question is not None:  # its public part; the results (with the key) once revealed
            shown = {"number": question["number"], "state": question["state"]}
            shown |= question["public"]
            if question["results"] is not None:
                shown["results"] = question["results"]
        return Pace(
            id_, code, mode, json.loads(view), int(view_rev), int(step), int(bring), int(rev),
            bool(names), float(expires), shown,
        )  # fmt: skip

    def _change(self, class_id: str, assignments: str, params: tuple, kind: str = "pace") -> bool:
        def change(tx: Transaction) -> bool:
            changed = tx.run(
                f"UPDATE classes SET {assignments}, rev = rev + 1 WHERE id = ? AND expires > ?",
                (*params, class_id, self._clock()),
            )
            if changed:
                tx.notice(class_id, kind)
            return bool(changed)

        return self._write(change)

    def set_view(self, class_id: str, view: dict) -> bool:
        """The teacher's view becomes the class's (when it differs from it); a question asked
        about another view is closed."""
        params = json.dumps(view_params(view))

        def change(tx: Transaction) -> bool:
            changed = tx.run(
                "UPDATE classes SET view_rev = view_rev + "
                "(CASE WHEN view_params = ? THEN 0 ELSE 1 END), view_params = ?, rev = rev + 1 "
                "WHERE id = ? AND expires > ?",
                (params, params, class_id, self._clock()),
            )
            if changed:
                tx.run(
                    "UPDATE questions SET state = 'closed' WHERE class_id = ? AND state <> "
                    "'closed' AND about = 'view' "
                    "AND view_rev <> (SELECT view_rev FROM classes WHERE id = ?)",
                    (class_id, class_id),
                )
                tx.notice(class_id, "pace")
            return bool(changed)

        return self._write(change)

    def set_step(self, class_id: str, step: int) -> bool:
        """The teacher's replay is at ``step``."""
        return self._change(class_id, "step = ?", (int(step),))

    def set_mode(self, class_id: str, mode: str, bring: bool = False) -> bool:
        """Follow the teacher, or explore freely; ``bring``: every page to the teacher's now."""
        if mode not in MODES:
            raise ValueError(f"mode is one of {MODES}, not {mode!r}")
        return self._change(class_id, "mode = ?, bring = bring + ?", (mode, int(bring)))

    def set_show_names(self, class_id: str, show: bool) -> bool:
        """Nicknames on the teacher's screen, or "Student 3" only."""
        return self._change(class_id, "show_names = ?", (int(show),), kind="roster")

    # -- questions to the class ----------------------------------------------------------------

    def _question_change(self, class_id: str, work) -> object:
        """``work(tx)`` on a live class; when it returns something, the class's revision is
        raised and every page told. The class's row is taken first, then the questions', so
        two changes at once wait for each other instead of deadlocking."""

        def change(tx: Transaction):
            if not tx.run(
                "UPDATE classes SET rev = rev WHERE id = ? AND expires > ?",
                (class_id, self._clock()),
            ):
                return None
            done = work(tx)
            if done is not None:
                tx.run("UPDATE classes SET rev = rev + 1 WHERE id = ?", (class_id,))
                tx.notice(class_id, "pace")
            return done

        return self._write(change)

    def ask(self, class_id: str, question: dict, about: str = "view") -> int | None:
        """Ask the class ``question``, putting away the question before; its number, or None
        (ended). ``about`` is "view" for a prediction about the class's view now (as
        :func:`.questions.checked_question` keeps it), "exercise" for one of a lesson's
        exercises (:func:`.exercises.exercise_question`)."""
        if about not in ("view", "exercise"):
            raise ValueError(f"a question is about 'view' or 'exercise', not {about!r}")

        def ask(tx: Transaction) -> int:
            tx.run(
                "UPDATE questions SET state = 'closed' WHERE class_id = ? AND state <> 'closed'",
                (class_id,),
            )
            (view_rev,) = tx.one("SELECT view_rev FROM classes WHERE id = ?", (class_id,))
            (last,) = tx.one(
                "SELECT coalesce(max(number), 0) FROM questions WHERE class_id = ?", (class_id,)
            )
            tx.run(
                "INSERT INTO questions (id, class_id, number, asked, view_rev, public, "
                "answer_key, state, about) VALUES (?, ?, ?, ?, ?, ?, ?, 'open', ?)",
                (
                    secrets.token_hex(16), class_id, int(last) + 1, self._clock(), int(view_rev),
                    json.dumps(question["public"]), json.dumps(question["key"]), about,
                ),
            )  # fmt: skip
            return int(last) + 1

        return self._question_change(class_id, ask)

    def reveal(self, class_id: str) -> bool:
        """Reveal the open question: its answers pooled, with the right one, are kept with it
        for every page, and, for a prediction, the class's step becomes the step it asked
        about."""

        def reveal(tx: Transaction) -> bool | None:
            question = _current_question(tx, class_id)
            if question is None or question["state"] != "open":
                return None
            tx.run("UPDATE questions SET state = 'revealed' WHERE id = ?", (question["id"],))
            results = pooled(question, _answers(tx, question["id"])) | shown_key(question)
            tx.run(
                "UPDATE questions SET results = ? WHERE id = ?",
                (json.dumps(results), question["id"]),
            )
            if "step" in question["public"]:  # a prediction: the step it asked about
                step = question["public"]["step"]
                tx.run("UPDATE classes SET step = ? WHERE id = ?", (step, class_id))
            return True

        return bool(self._question_change(class_id, reveal))

    def close_question(self, class_id: str) -> bool:
        """Put the current question away (on every page)."""

        def close(tx: Transaction) -> bool | None:
            closed = tx.run(
                "UPDATE questions SET state = 'closed' WHERE class_id = ? AND state <> 'closed'",
                (class_id,),
            )
            return True if closed else None

        return bool(self._question_change(class_id, close))

    def answer(self, seat: Seat, number: int, raw: dict) -> dict:
        """The student's answer to question ``number`` of their class, as kept (it replaces
        their earlier one); :class:`~.messages.Refused` when that question takes no answer
        now, or for an answer it cannot take."""
        now = self._clock()

        def answer(tx: Transaction) -> dict | str:  # the answer kept, or why not
            row = tx.one(
                "SELECT id, public, state FROM questions WHERE class_id = ? AND number = ?",
                (seat.class_id, number),
            )
            if row is None or row[2] == "closed":
                return "Your teacher has put this question away."
            # the question's row, taken (PostgreSQL waits here for a reveal under way), then
            # read again: an answer that comes after the reveal is refused, never lost
            if not tx.run(
                "UPDATE questions SET state = state WHERE id = ? AND state = 'open'", (row[0],)
            ):
                return "The answers have been revealed: this question takes no more."
            try:
                kept = checked_answer({"public": json.loads(row[1])}, raw)
            except Refused as refused:
                return str(refused)
            tx.run(
                "INSERT INTO answers (question_id, student_id, answer, answered) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (question_id, student_id) "
                "DO UPDATE SET answer = excluded.answer, answered = excluded.answered",
                (row[0], seat.student_id, json.dumps(kept), now),
            )
            tx.notice(seat.class_id, "answers")
            return kept

        kept = self._write(answer)
        if isinstance(kept, str):
            raise Refused(kept)
        return kept

    def your_answer(self, seat: Seat) -> tuple[int, dict] | None:
        """The student's own answer to the class's current question (its number and the
        answer), or None."""

        def read(tx: Transaction):
            question = _current_question(tx, seat.class_id)
            if question is None:
                return None
            row = tx.one(
                "SELECT answer FROM answers WHERE question_id = ? AND student_id = ?",
                (question["id"], seat.student_id),
            )
            return None if row is None else (question["number"], json.loads(row[0]))

        return self.database.run(read)

    def your_verdict(self, seat: Seat) -> tuple[int, dict] | None:
        """The exercise's verdict on the student's answer to the class's current question
        (its number and ``{right, text}``), once the teacher revealed it; None before the
        reveal, without an answer, or for a prediction (which the page judges itself)."""

        def read(tx: Transaction):
            question = _current_question(tx, seat.class_id)
            if question is None or question["state"] != "revealed":
                return None
            row = tx.one(
                "SELECT answer FROM answers WHERE question_id = ? AND student_id = ?",
                (question["id"], seat.student_id),
            )
            said = None if row is None else verdict(question, json.loads(row[0]))
            return None if said is None else (question["number"], said)

        return self.database.run(read)

    def pool(self, class_id: str) -> dict | None:
        """The current question's answers pooled, with its right answer (for the teacher's
        page only: :func:`.questions.pooled`), or None without a question."""

        def read(tx: Transaction) -> dict | None:
            question = _current_question(tx, class_id)
            if question is None:
                return None
            counted = pooled(question, _answers(tx, question["id"]))
            return {"number": question["number"], **counted, **shown_key(question)}

        return self.database.run(read)

    # -- the students ------------------------------------------------------------------------

    def set_nickname(self, student_id: str, nickname: str) -> str:
        """The student's nickname, as kept (cleaned and cut)."""
        nickname = clean_nickname(nickname)

        def rename(tx: Transaction) -> None:
            row = tx.one("SELECT class_id FROM students WHERE id = ?", (student_id,))
            tx.run("UPDATE students SET nickname = ? WHERE id = ?", (nickname, student_id))
            if row is not None:
                tx.notice(row[0], "roster")

        self._write(rename)
        return nickname

    def set_student_view(self, student_id: str, view: dict, step: int) -> None:
        """What the student's page shows now (for the teacher's snapshots)."""
        params = json.dumps(view_params(view))
        self._write(
            lambda tx: tx.run(
                "UPDATE students SET view_params = ?, step = ?, seen = ? WHERE id = ?",
                (params, int(step), self._clock(), student_id),
            )
        )

    def seen(self, seat: Seat, connected: bool = True) -> None:
        """The student's page was heard from now (or, ``connected=False``, it left)."""
        when = self._clock() if connected else 0.0

        def seen(tx: Transaction) -> None:
            tx.run("UPDATE students SET seen = ? WHERE id = ?", (when, seat.student_id))
            tx.notice(seat.class_id, "roster")

        self._write(seen)

    def students(self, class_id: str) -> list[StudentView]:
        """Every student of the class, by their number."""
        since = self._clock() - CONNECTED_SECONDS
        rows = self.database.run(
            lambda tx: tx.all(
                "SELECT number, nickname, view_params, step, seen FROM students "
                "WHERE class_id = ? ORDER BY number",
                (class_id,),
            )
        )
        return [
            StudentView(
                int(number),
                nickname,
                json.loads(view) if view else None,
                None if step is None else int(step),
                seen > since,
            )
            for number, nickname, view, step, seen in rows
        ]

    def roster(self, class_id: str) -> tuple[int, int]:
        """``(students who joined, students connected now)``."""
        row = self.database.run(
            lambda tx: tx.one(
                "SELECT count(*), sum(CASE WHEN seen > ? THEN 1 ELSE 0 END) FROM students "
                "WHERE class_id = ?",
                (self._clock() - CONNECTED_SECONDS, class_id),
            )
        )
        return int(row[0]), int(row[1] or 0)

    # -- the end -------------------------------------------------------------------------------

    def end(self, class_id: str) -> None:
        """End the class now: it is deleted with everything about its students, its questions
        and their answers."""

        def end(tx: Transaction) -> None:
            tx.run("DELETE FROM classes WHERE id = ?", (class_id,))
            tx.notice(class_id, "ended")

        self._write(end)

    def delete_expired(self) -> int:
        """Delete the classes whose time is up (with their students); how many."""
        now = self._clock()

        def sweep(tx: Transaction) -> int:
            ended = [row[0] for row in tx.all("SELECT id FROM classes WHERE expires <= ?", (now,))]
            for class_id in ended:
                tx.run("DELETE FROM classes WHERE id = ?", (class_id,))
                tx.notice(class_id, "ended")
            return len(ended)

        return self._write(sweep)


@functools.cache
def shared_store() -> ClassStore:
    """The server process's store, on the database the environment names (:mod:`.settings`),
    opened (and migrated) when the first class is started or joined."""
    return ClassStore(Database(database_from_environment()), hours_from_environment())
