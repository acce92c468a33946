"""What the class's websocket accepts, checked before anything is stored or sent on.

Every message is one JSON object with a ``type``. The first one a socket sends says who it
is (``hello`` with the teacher's key or a student's seat); after that:

===============  =========  ====================================================
type             who        what
===============  =========  ====================================================
``step``         teacher    the teacher's replay is at step ``t``
``pace``         teacher    ``mode`` "follow" or "free"; ``bring``: bring everyone
                            to the teacher's view and step now
``names``        teacher    ``show``: nicknames on the teacher's screen or not
``students``     teacher    send me every student's current view (for a snapshot)
``ask``          teacher    ask the class ``question`` (:mod:`.questions`), replacing the
                            question asked before
``reveal``       teacher    show the answers and the right one to all, and the step
``close``        teacher    put the question away
``end``          teacher    end the class now (its data are deleted)
``state``        student    my page shows the view ``params`` at step ``t``
``answer``       student    my answer to question ``number``: ``choice`` (an option's
                            index), ``point`` (``[w1, w2]``), or to an exercise ``text``
                            (a number typed) or ``order`` (the steps' indices); it
                            replaces an earlier one
``ping``         anyone     I am still here
===============  =========  ====================================================

A message of another type, one the sender's role may not send, a malformed or oversized
one is refused with a reason (:class:`Refused`) and changes nothing. A student's view
(``params``: the share link's query, ``app_logic/share_link.py``) is only checked for
shape here: names of letters, digits and underscores, values of at most
:data:`PARAM_VALUE_LIMIT` characters, at most :data:`MAX_PARAMS` of them. Its meaning is
checked where it is shown, as any link's is (``ui/state.py``).
"""

from __future__ import annotations

import json
import re

from perceptron_lab.app_logic.visitor_text import as_text

#: The longest message a socket may send, in characters.
MAX_MESSAGE_CHARS = 16_000
#: The longest nickname, in characters (longer ones are cut).
NICKNAME_LIMIT = 24
#: A view's parameters: at most this many, each value at most this long (a link value's
#: limit, ``ui/state.py``'s ``MAX_LINK_VALUE``).
MAX_PARAMS = 60
PARAM_VALUE_LIMIT = 1_000
#: The largest step a message may name.
MAX_STEP = 10**9
#: The longest key or seat token accepted (they are 32 characters).
TOKEN_LIMIT = 64
#: The link's entries that are not the class's view: the step travels on its own, the
#: presentation mode is each screen's own, the rest say who the page is in the class.
NOT_VIEW = frozenset({"t", "present", "hide", "teach", "join", "seat"})
_PARAM_NAME = re.compile(r"[a-z][a-z0-9_]{0,39}")
_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")

#: Who may send which type (besides ``hello``).
ALLOWED = {
    "teacher": frozenset(
        {"step", "pace", "names", "students", "ask", "reveal", "close", "end", "ping"}
    ),
    "student": frozenset({"state", "answer", "ping"}),
}
MODES = ("follow", "free")
#: What an answer carries: a choice's index, a point, a number as typed, the steps' order.
ANSWER_FIELDS = ("choice", "point", "text", "order")


class Refused(ValueError):
    """A message that is not accepted; its text says why, for the sender."""


def clean_nickname(text) -> str:
    """A nickname as it is kept: plain text on one line, at most :data:`NICKNAME_LIMIT`.

    Examples
    --------
    >>> clean_nickname("  Ada\\n<b>L</b>  ")
    'Ada <b>L</b>'
    >>> len(clean_nickname("x" * 100))
    24
    """
    text = " ".join(as_text(str(text)[:200], 200, markdown=False).split())
    return text if len(text) <= NICKNAME_LIMIT else text[: NICKNAME_LIMIT - 1] + "…"


def view_params(params) -> dict[str, str]:
    """A view's link parameters as the class keeps them (:data:`NOT_VIEW` left out); Refused
    for anything not of a link's shape.

    Examples
    --------
    >>> view_params({"learner": "kw", "t": "9", "seat": "x"})
    {'learner': 'kw'}
    >>> try:
    ...     view_params({"Bad-Name": "1"})
    ... except Refused as refused:
    ...     print(refused)
    A view's parameter name must be lower-case letters, digits and underscores.
    """
    if not isinstance(params, dict) or len(params) > MAX_PARAMS:
        raise Refused(f"A view is an object of at most {MAX_PARAMS} parameters.")
    out = {}
    for name, value in params.items():
        if not isinstance(name, str) or not _PARAM_NAME.fullmatch(name):
            raise Refused(
                "A view's parameter name must be lower-case letters, digits and underscores."
            )
        if not isinstance(value, str) or len(value) > PARAM_VALUE_LIMIT:
            raise Refused(
                f"A view's parameter value is text of at most {PARAM_VALUE_LIMIT} characters."
            )
        if name not in NOT_VIEW:
            out[name] = value
    return dict(sorted(out.items()))


def _step(value) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_STEP:
        raise Refused(f"A step is a whole number from 0 to {MAX_STEP:,}.")
    return value


def _flag(value) -> bool:
    if not isinstance(value, bool):
        raise Refused("Expected true or false.")
    return value


def token(value) -> str:
    """A key or seat as sent; Refused when it cannot be one."""
    if not isinstance(value, str) or not _TOKEN.fullmatch(value):
        raise Refused("This class link is not valid.")
    return value


def parse(text: str, role: str | None) -> dict:
    """The message ``text`` from a socket whose sender is ``role`` ("teacher", "student", or
    None before its ``hello``), checked; :class:`Refused` says what was wrong.

    Examples
    --------
    >>> parse('{"type": "step", "t": 57}', "teacher")
    {'type': 'step', 't': 57}
    >>> try:
    ...     parse('{"type": "step", "t": 57}', "student")
    ... except Refused as refused:
    ...     print(refused)
    Only the class's teacher can do that (step).
    """
    if len(text) > MAX_MESSAGE_CHARS:
        raise Refused(f"A message may have at most {MAX_MESSAGE_CHARS:,} characters.")
    try:
        message = json.loads(text)
    except ValueError:
        raise Refused("A message must be a JSON object.") from None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise Refused("A message must be a JSON object with a type.")
    kind = message["type"]
    if role is None:
        if kind != "hello":
            raise Refused("Say hello first, with the teacher's key or your seat.")
        if "teacher" in message:
            return {"type": "hello", "teacher": token(message["teacher"])}
        return {"type": "hello", "seat": token(message.get("seat"))}
    if kind not in ALLOWED[role]:
        if kind in ALLOWED["teacher"]:
            raise Refused(f"Only the class's teacher can do that ({kind}).")
        if kind in ALLOWED["student"]:
            raise Refused(f"Only a student sends that ({kind}).")
        raise Refused(f"Unknown message type {as_text(kind, 20, markdown=False)!r}.")
    if kind == "step":
        return {"type": kind, "t": _step(message.get("t"))}
    if kind == "pace":
        if message.get("mode") not in MODES:
            raise Refused("The mode is 'follow' or 'free'.")
        return {"type": kind, "mode": message["mode"], "bring": _flag(message.get("bring", False))}
    if kind == "names":
        return {"type": kind, "show": _flag(message.get("show"))}
    if kind == "state":
        params = view_params(message.get("params"))
        return {"type": kind, "params": params, "t": _step(message.get("t"))}
    if kind == "ask":  # checked in full by .questions, where the class keeps it
        if not isinstance(message.get("question"), dict):
            raise Refused("An ask carries a question (an object).")
        return {"type": kind, "question": message["question"]}
    if kind == "answer":
        number = message.get("number")
        if not isinstance(number, int) or isinstance(number, bool) or number < 1:
            raise Refused("An answer names its question's number.")
        given = {name: message[name] for name in ANSWER_FIELDS if name in message}
        if len(given) != 1:
            raise Refused("An answer is one of a choice, a point, a number's text or an order.")
        return {"type": kind, "number": number, "answer": given}
    return {"type": kind}
