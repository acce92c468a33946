"""A question to the class: what the teacher asks, what a student answers, the answers pooled.

The teacher's replay words a question of predict mode's kinds about the step after its own
(``ui/playback/questions.js``): every student's replay runs the same generator with the same
seed on the same run, so every page asks the same question in the same words. The teacher's
page sends the class what identifies it and its right answer, checked here:

* its **public part**, which every page of the class is sent: the step it is asked before,
  the lane (compare mode), the kind, the seed, the choices' values (none for "where") and,
  for "where", the view's range (the histograms' bins);
* its **key**, the right answer: the index of the right choice, or ``w`` after the step and
  how far from it a mark still counts. The teacher's page is sent it; a student's page only
  with the results, once the teacher reveals them.

A student's **answer** is the index of a choice, or for "where" a point (two finite numbers);
one per student and question, a changed answer replacing the first, none after the reveal.
One of a lesson's exercises asked to the class (kind ``"exercise"``) is not asked through
here but from the lesson page; its answers are checked and pooled by :mod:`.exercises`, to
which :func:`checked_answer`, :func:`pooled` and :func:`shown_key` hand it.
:func:`pooled` counts them: how many answered, how many chose each option (or, for "where",
a histogram of each coordinate over the view), and how many are right. Nothing in a pool
says who answered what.

Examples
--------
>>> question = checked_question(
...     {"step": 58, "lane": 0, "kind": "side", "seed": 7, "options": [1, -1], "answer": 1}
... )
>>> answers = [checked_answer(question, {"choice": c}) for c in (0, 0, 1)]
>>> pool = pooled(question, answers)
>>> pool["answered"], pool["counts"], pool["right"]
(3, [2, 1], 1)
"""

from __future__ import annotations

import math

from perceptron_lab.app_logic.live_class import exercises
from perceptron_lab.app_logic.live_class.messages import MAX_STEP, Refused
from perceptron_lab.app_logic.live_class.tally import histogram
from perceptron_lab.app_logic.predictions import KINDS

#: The most choices a question offers (predict mode's offer at most four).
MAX_OPTIONS = 6
#: A choice's value: a small whole number (an event code, a label) or a short word.
OPTION_CHARS = 12
#: The most lanes a page has (the playground compares up to four runs).
MAX_LANES = 4
#: The largest size a coordinate of a mark, a range or an answer may have.
MAX_COORDINATE = 1e12
#: The coordinates' names in a "where" pool.
COORDINATES = ("w₁", "w₂")


def _whole(value, low: int, high: int, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise Refused(f"{what} is a whole number from {low:,} to {high:,}.")
    return value


def _number(value, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise Refused(f"{what} is a number.")
    value = float(value)
    if not math.isfinite(value) or abs(value) > MAX_COORDINATE:
        raise Refused(f"{what} is a finite number of size at most {MAX_COORDINATE:g}.")
    return value


def _pair(value, what: str) -> list[float]:
    if not isinstance(value, list) or len(value) != 2:
        raise Refused(f"{what} is a pair of numbers.")
    return [_number(v, what) for v in value]


def _option(value):
    if isinstance(value, int) and not isinstance(value, bool) and -9 <= value <= 9:
        return value
    if isinstance(value, str) and 0 < len(value) <= OPTION_CHARS and value.isascii():
        if value.replace(" ", "").isalpha():
            return value
    raise Refused(
        f"A choice's value is a whole number from -9 to 9 or a word of at most {OPTION_CHARS} "
        "letters."
    )


def checked_question(raw) -> dict:
    """The teacher's question as the class keeps it; :class:`Refused` says what is wrong.

    ``raw`` holds ``step``, ``lane``, ``kind`` (of predict mode's :data:`KINDS`), ``seed``,
    and either ``options`` (2 to :data:`MAX_OPTIONS` values) with ``answer`` (the right
    one's index), or, for "where", ``answer`` (``[w1, w2]``), ``tolerance`` and ``range``
    (``[x0, x1, y0, y1]``, the view).

    Examples
    --------
    >>> checked_question({"step": 3, "lane": 0, "kind": "where", "seed": 1, "answer": [1, 2],
    ...                   "tolerance": 0.2, "range": [-4, 4, -4, 4]})["public"]["kind"]
    'where'
    >>> try:
    ...     checked_question({"step": 3, "lane": 0, "kind": "guess", "seed": 1})
    ... except Refused as refused:
    ...     print(refused)
    A question's kind is one of outcome, side, lines, where, predictor, vote, noisy.
    """
    if not isinstance(raw, dict):
        raise Refused("A question is an object.")
    kind = raw.get("kind")
    if kind not in KINDS:
        raise Refused(f"A question's kind is one of {', '.join(KINDS)}.")
    public = {
        "step": _whole(raw.get("step"), 1, MAX_STEP, "A question's step"),
        "lane": _whole(raw.get("lane"), 0, MAX_LANES - 1, "A question's lane"),
        "kind": kind,
        "seed": _whole(raw.get("seed"), 0, 2**32 - 1, "A question's seed"),
    }
    if kind == "where":
        ends = raw.get("range")
        if not isinstance(ends, list) or len(ends) != 4:
            raise Refused("A range is [x0, x1, y0, y1].")
        x0, x1, y0, y1 = (_number(end, "A range's end") for end in ends)
        if not (x0 < x1 and y0 < y1):
            raise Refused("A range is [x0, x1, y0, y1], each pair in increasing order.")
        tolerance = _number(raw.get("tolerance"), "A tolerance")
        if tolerance <= 0:
            raise Refused("A tolerance is a number above 0.")
        public["range"] = [x0, x1, y0, y1]
        key = {"answer": _pair(raw.get("answer"), "The answer"), "tolerance": tolerance}
        return {"public": public, "key": key}
    options = raw.get("options")
    if not isinstance(options, list) or not 2 <= len(options) <= MAX_OPTIONS:
        raise Refused(f"A question offers 2 to {MAX_OPTIONS} choices.")
    public["options"] = [_option(value) for value in options]
    if len(set(map(repr, public["options"]))) != len(options):
        raise Refused("A question's choices are all different.")
    answer = _whole(raw.get("answer"), 0, len(options) - 1, "The answer (a choice's index)")
    return {"public": public, "key": {"answer": answer}}


def checked_answer(question: dict, raw) -> dict:
    """A student's answer to ``question`` (as :func:`checked_question` keeps it), as stored:
    ``{"choice": index}`` or ``{"point": [w1, w2]}``; :class:`Refused` says what is wrong.

    Examples
    --------
    >>> side = checked_question({"step": 3, "lane": 0, "kind": "side", "seed": 1,
    ...                          "options": [1, -1], "answer": 0})
    >>> checked_answer(side, {"choice": 1})
    {'choice': 1}
    >>> try:
    ...     checked_answer(side, {"choice": 2})
    ... except Refused as refused:
    ...     print(refused)
    Your choice is a whole number from 0 to 1.
    """
    if not isinstance(raw, dict):
        raise Refused("An answer is an object.")
    if question["public"]["kind"] == "exercise":
        return exercises.checked_exercise_answer(question["public"], raw)
    if question["public"]["kind"] == "where":
        if "point" not in raw:
            raise Refused("This question takes a point: two numbers for w.")
        return {"point": _pair(raw["point"], "Your point")}
    if "choice" not in raw:
        raise Refused("This question takes one of its choices.")
    last = len(question["public"]["options"]) - 1
    return {"choice": _whole(raw["choice"], 0, last, "Your choice")}


def is_right(question: dict, answer: dict) -> bool:
    """Whether ``answer`` is the right one (a point: within the tolerance of ``w``).

    Examples
    --------
    >>> where = {"public": {"kind": "where"}, "key": {"answer": [1.0, 2.0], "tolerance": 0.5}}
    >>> is_right(where, {"point": [1.3, 2.0]}), is_right(where, {"point": [2.0, 2.0]})
    (True, False)
    """
    key = question["key"]
    if "point" in answer:
        (x, y), (ax, ay) = answer["point"], key["answer"]
        return math.hypot(x - ax, y - ay) <= key["tolerance"]
    return answer.get("choice") == key["answer"]


def pooled(question: dict, answers: list[dict]) -> dict:
    """The answers counted: ``answered``, ``right``, and ``counts`` (per choice) or, for
    "where", ``histograms`` (one per coordinate: :func:`.tally.histogram` across the view,
    with the marks below and above it). Nothing in it says who answered what.

    Examples
    --------
    >>> where = checked_question({"step": 3, "lane": 0, "kind": "where", "seed": 1,
    ...     "answer": [0.5, 0.5], "tolerance": 0.2, "range": [0, 1, 0, 1]})
    >>> pool = pooled(where, [{"point": [0.55, 0.45]}, {"point": [0.05, 2.0]}])
    >>> pool["right"], pool["histograms"][0]["counts"][:6], pool["histograms"][1]["above"]
    (1, [1, 0, 0, 0, 0, 1], 1)
    """
    public = question["public"]
    if public["kind"] == "exercise":
        return exercises.pooled(question, answers)
    pool = {
        "answered": len(answers),
        "right": sum(is_right(question, answer) for answer in answers),
    }
    if public["kind"] == "where":
        x0, x1, y0, y1 = public["range"]
        points = [answer["point"] for answer in answers]
        pool["histograms"] = [
            {"name": name, **histogram([p[c] for p in points], low, high)}
            for c, (name, low, high) in enumerate(zip(COORDINATES, (x0, y0), (x1, y1)))
        ]
    else:
        counts = [0] * len(public["options"])
        for answer in answers:
            counts[answer["choice"]] += 1
        pool["counts"] = counts
    return pool


def shown_key(question: dict) -> dict:
    """What of the question's key the teacher's page is sent with the pool, and every page
    with the results at the reveal: all of a prediction's (its right answer), an exercise's
    right answer and reason (:func:`.exercises.shown_key`).

    Examples
    --------
    >>> shown_key({"public": {"kind": "side"}, "key": {"answer": 1}})
    {'answer': 1}
    """
    if question["public"]["kind"] == "exercise":
        return exercises.shown_key(question)
    return question["key"]


def verdict(question: dict, answer: dict) -> dict | None:
    """The server's verdict on a student's answer to a revealed exercise (its feedback is the
    exercise's own, :func:`.exercises.verdict`); None for a prediction, which every page
    judges from the results it is sent."""
    if question["public"]["kind"] != "exercise":
        return None
    return exercises.verdict(question, answer)
