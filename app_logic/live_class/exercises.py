"""One of a lesson's exercises asked to the class: as the lesson page asks it, checked by the
server with the exercise's own rule (:func:`app_logic.exercises.model.check`).

The teacher asks it from the lesson page (``ui/class_exercise.py``), where the exercise is
worded with the page's facts (its controls and its run): the page's script builds the
:class:`~app_logic.exercises.model.Question` on the server and hands it to
:func:`ask_exercise` with the teacher's key; no browser sends it, so no message of a socket
can ask one or choose its right answer (the websocket's ``ask`` takes predict mode's kinds
only, :mod:`.questions`). Only exercises answered away from the page can be asked
(:data:`ASKABLE`): a typed number, an option picked, steps put in order. A "setting" one is
answered with the lesson's own controls and a "replay" one is predict mode, which the class
asks from the replay already.

The class keeps it as any question to the class (:mod:`.store`), in two parts:

* its **public part**, which every page of the class is sent: the kind ``"exercise"``, the
  exercise's id and lesson, its form, its text with the run's numbers, its options (a
  choice's, or the steps as shown, shuffled) and how close a number must be (the lesson
  page says it too);
* its **key**: the right answer, the tolerance, what each misconception answers and its
  feedback, and the reason given with a right answer. It stays on the server: the teacher's
  page is sent the pooled answers with the right answer and the reason
  (:func:`shown_key`), the students the same only with the results at the reveal, and each
  student their own verdict then (:func:`verdict`), never before.

A student's **answer** is the text of a number (:func:`~app_logic.exercises.model.parse_number`
reads it, as on the lesson page), an option's index, or every step's index in the order the
student put them. :func:`pooled` counts them: how many answered and how many are right, how
many answers show each misconception (by its feedback: what a teacher discusses, never who
gave it), and the answers per option (a choice) or a histogram of the numbers typed.

Examples
--------
>>> from perceptron_lab.app_logic.exercises import BY_ID
>>> exercise = BY_ID["l01-why-it-helps"]
>>> asked = exercise_question(exercise, exercise.question({"seed": 0}))
>>> sorted(asked["public"]), "answer" in asked["public"]
(['exercise', 'form', 'heading', 'kind', 'lesson', 'options', 'text', 'tolerance_text'], False)
>>> right = min(asked["key"]["answer"])
>>> pool = pooled(asked, [{"choice": right}, {"choice": (right + 1) % 4}])
>>> pool["answered"], pool["right"], sum(m["count"] for m in pool["misconceptions"])
(2, 1, 1)
"""

from __future__ import annotations

import math

from perceptron_lab.app_logic.exercises import BY_ID
from perceptron_lab.app_logic.exercises.model import (
    Exercise,
    Misconception,
    Question,
    check,
    parse_number,
)
from perceptron_lab.app_logic.live_class.messages import Refused
from perceptron_lab.app_logic.live_class.tally import histogram

#: The forms a class answers away from the lesson page.
ASKABLE = ("number", "choice", "order")
#: The longest text of an exercise (its prompt with the run's numbers), of an option or step,
#: and of a misconception's feedback or a reason, in characters.
TEXT_LIMIT, OPTION_LIMIT, FEEDBACK_LIMIT = 2_000, 400, 1_000
#: The longest heading of an exercise ("Exercise 2. Work it out"), in characters.
HEADING_LIMIT = 120
#: The most options or steps an exercise shows.
MAX_OPTIONS = 8
#: The longest number a student may type, in characters.
NUMBER_CHARS = 40


def askable(exercise: Exercise) -> bool:
    """Whether the class can answer ``exercise`` away from the lesson page.

    Examples
    --------
    >>> askable(BY_ID["l01-theta-after"]), askable(BY_ID["l01-fewest-updates"])
    (True, False)
    """
    return exercise.form in ASKABLE


def _text(value, limit: int, what: str) -> str:
    if not isinstance(value, str) or not 0 < len(value) <= limit:
        raise Refused(f"{what} is text of 1 to {limit:,} characters.")
    return value


def _finite(value, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise Refused(f"{what} is a finite number.")
    return float(value)


def _indices(value, size: int, what: str) -> list[int]:
    if not isinstance(value, list) or not all(
        isinstance(i, int) and not isinstance(i, bool) and 0 <= i < size for i in value
    ):
        raise Refused(f"{what} is a list of indices from 0 to {size - 1}.")
    return value


def exercise_question(exercise: Exercise, question: Question, heading: str = "") -> dict:
    """The question as the class keeps it (checked by :func:`checked_exercise_question`):
    its public part and its key; ``heading`` is how the lesson page heads it ("Exercise 2.
    Work it out"). :class:`~.messages.Refused` for an exercise the class cannot answer away
    from the page."""
    if not askable(exercise) or question.form != exercise.form:
        raise Refused(
            f"Exercise {exercise.id} is answered on the lesson page ({exercise.form}): the class "
            f"can be asked {', '.join(ASKABLE)} exercises."
        )
    answer = question.answer
    if question.form == "choice":
        answer = sorted(answer)
    elif question.form == "order":
        answer = list(answer)
    return checked_exercise_question(
        {
            "public": {
                "kind": "exercise",
                "exercise": exercise.id,
                "lesson": exercise.lesson,
                "heading": heading or f"Lesson {exercise.lesson}'s exercise",
                "form": question.form,
                "text": question.text,
                "options": list(question.options),
                "tolerance_text": question.tolerance_text,
            },
            "key": {
                "answer": answer,
                "tolerance": question.tolerance,
                "slips": dict(question.slips),
                "misconceptions": {
                    k: [m.feedback, m.see] for k, m in question.misconceptions.items()
                },
                "why": question.why,
            },
        }
    )


def checked_exercise_question(raw) -> dict:
    """An exercise question as the class keeps it; :class:`~.messages.Refused` says what is
    wrong with one that is not of its shape (an unknown exercise, a form the class cannot
    answer, a right answer that is not one of its options, texts too long).

    Examples
    --------
    >>> try:
    ...     checked_exercise_question({"public": {"kind": "exercise", "exercise": "l01-nope"},
    ...                                "key": {}})
    ... except Refused as refused:
    ...     print(refused)
    No lesson has the exercise 'l01-nope'.
    """
    if not isinstance(raw, dict) or not isinstance(raw.get("public"), dict):
        raise Refused("An exercise question has a public part and a key.")
    public, key = raw["public"], raw.get("key")
    exercise = (
        BY_ID.get(public.get("exercise")) if isinstance(public.get("exercise"), str) else None
    )
    if exercise is None:
        raise Refused(f"No lesson has the exercise {str(public.get('exercise'))[:40]!r}.")
    if public.get("kind") != "exercise" or public.get("form") != exercise.form:
        raise Refused(f"Exercise {exercise.id} is a {exercise.form} exercise.")
    if not askable(exercise):
        raise Refused(f"The class can be asked {', '.join(ASKABLE)} exercises only.")
    if public.get("lesson") != exercise.lesson:
        raise Refused(f"Exercise {exercise.id} is lesson {exercise.lesson}'s.")
    _text(public.get("text"), TEXT_LIMIT, "An exercise's text")
    _text(public.get("heading"), HEADING_LIMIT, "An exercise's heading")
    options = public.get("options")
    if not isinstance(options, list) or len(options) > MAX_OPTIONS:
        raise Refused(f"An exercise shows at most {MAX_OPTIONS} options.")
    for option in options:
        _text(option, OPTION_LIMIT, "An option")
    if not isinstance(public.get("tolerance_text"), str) or len(public["tolerance_text"]) > 60:
        raise Refused("A tolerance is said in at most 60 characters.")
    if not isinstance(key, dict):
        raise Refused("An exercise question has a key.")
    _text(key.get("why"), FEEDBACK_LIMIT, "An exercise's reason")
    if not isinstance(key.get("misconceptions"), dict):
        raise Refused("An exercise's key names its misconceptions.")
    for name, said in key["misconceptions"].items():
        if not isinstance(said, list) or len(said) != 2:
            raise Refused(f"Misconception {str(name)[:40]!r} is [feedback, where to look].")
        for part in said:
            _text(part, FEEDBACK_LIMIT, "A misconception's feedback")
    slips = key.get("slips")
    if not isinstance(slips, dict) or any(name not in key["misconceptions"] for name in slips):
        raise Refused("An exercise's slips are misconceptions of its key.")
    form = exercise.form
    if form == "number":
        _finite(key.get("answer"), "A number exercise's answer")
        if _finite(key.get("tolerance"), "A tolerance") < 0:
            raise Refused("A tolerance is at least 0.")
        for value in slips.values():
            _finite(value, "A slip")
        if options:
            raise Refused("A number exercise shows no options.")
    else:
        if len(options) < 2:
            raise Refused(f"A {form} exercise shows 2 to {MAX_OPTIONS} options.")
        answer = _indices(key.get("answer"), len(options), "The right answer")
        if form == "order" and sorted(answer) != list(range(len(options))):
            raise Refused("An order's answer puts every step once.")
        if form == "choice" and not answer:
            raise Refused("A choice has a right option.")
        _indices(list(slips.values()), len(options), "A choice's slips")
    missing = _needed(form, key["answer"], len(options)) - set(key["misconceptions"])
    if missing:  # check() would name one of them
        raise Refused(f"An exercise's key names its misconceptions: {', '.join(sorted(missing))}.")
    return {"public": public, "key": key}


def _needed(form: str, answer, size: int) -> set[str]:
    """The misconceptions :func:`~app_logic.exercises.model.check` may name for the form."""
    if form == "number":
        return {"off"}
    if form == "choice":
        return {f"option {n}" for n in range(size) if n not in answer}
    return {"incomplete", *(f"early {k}" for k in range(1, size))}


def question_of(asked: dict) -> Question:
    """The :class:`~app_logic.exercises.model.Question` a kept exercise question stands for,
    which :func:`~app_logic.exercises.model.check` checks answers against."""
    public, key = asked["public"], asked["key"]
    form, answer = public["form"], key["answer"]
    return Question(
        text=public["text"],
        answer=frozenset(answer)
        if form == "choice"
        else tuple(answer)
        if form == "order"
        else answer,
        form=form,
        why=key["why"],
        misconceptions={k: Misconception(*said) for k, said in key["misconceptions"].items()},
        tolerance=key["tolerance"],
        tolerance_text=public["tolerance_text"],
        options=tuple(public["options"]),
        slips=key["slips"],
    )


def checked_exercise_answer(public: dict, raw: dict) -> dict:
    """A student's answer to the exercise question of ``public``, as stored: ``{"text": ...}``
    (a number as typed), ``{"choice": index}`` or ``{"order": [indices]}``;
    :class:`~.messages.Refused` says what is wrong.

    Examples
    --------
    >>> public = {"form": "number", "options": []}
    >>> checked_exercise_answer(public, {"text": " −0,5 "})
    {'text': '−0,5'}
    >>> try:
    ...     checked_exercise_answer(public, {"text": "about 3"})
    ... except Refused as refused:
    ...     print(refused)
    'about 3' is not a number: type digits, with a point for decimals (such as 2.5 or -0.75).
    """
    form, size = public["form"], len(public["options"])
    if form == "number":
        text = raw.get("text")
        if not isinstance(text, str) or not 0 < len(text.strip()) <= NUMBER_CHARS:
            raise Refused(f"Type a number (at most {NUMBER_CHARS} characters).")
        try:
            parse_number(text)
        except ValueError as error:
            raise Refused(str(error)) from None
        return {"text": text.strip()}
    if form == "choice":
        picked = raw.get("choice")
        if not isinstance(picked, int) or isinstance(picked, bool) or not 0 <= picked < size:
            raise Refused(f"Your choice is a whole number from 0 to {size - 1}.")
        return {"choice": picked}
    order = raw.get("order")
    if not isinstance(order, list) or sorted(_indices(order, size, "Your order")) != list(
        range(size)
    ):
        raise Refused(f"Put each of the {size} steps in a place of its own.")
    return {"order": order}


def _response(answer: dict):
    """What :func:`~app_logic.exercises.model.check` takes of a stored answer."""
    return answer.get("text", answer.get("choice", answer.get("order")))


def verdict(asked: dict, answer: dict) -> dict:
    """The exercise's own verdict on a stored answer: ``right`` and its feedback ``text``.

    Examples
    --------
    >>> exercise = BY_ID["l01-why-it-helps"]
    >>> asked = exercise_question(exercise, exercise.question({"seed": 0}))
    >>> verdict(asked, {"choice": min(asked["key"]["answer"])})["text"][:6]
    'Right.'
    """
    said = check(question_of(asked), _response(answer))
    return {"right": said.right, "text": said.text}


def shown_key(asked: dict) -> dict:
    """What the teacher's page is sent of the key (with the pooled answers), and every page
    with the results at the reveal: the right answer, the tolerance and the reason. The
    misconceptions' slips and feedback stay on the server (each student gets their own
    feedback, :func:`verdict`)."""
    key = asked["key"]
    return {"answer": key["answer"], "tolerance": key["tolerance"], "why": key["why"]}


def _histogram(values: list[float]) -> dict:
    """The numbers typed, in bins from the smallest to the largest."""
    low, high = (min(values), max(values)) if values else (0.0, 1.0)
    if high <= low:  # every answer alike: one bin around it
        low, high = low - 0.5 * max(1.0, abs(low)), high + 0.5 * max(1.0, abs(high))
    return histogram(values, low, high)


def pooled(asked: dict, answers: list[dict]) -> dict:
    """The answers counted: ``answered``, ``right``, ``misconceptions`` (each shown by at
    least one answer: its feedback and how many show it, the most first), and ``counts``
    per option (a choice) or a ``histogram`` of the numbers typed. Nothing in it says who
    answered what."""
    question = question_of(asked)
    verdicts = [check(question, _response(answer)) for answer in answers]
    shown: dict[str, int] = {}
    for said in verdicts:
        if said.misconception is not None:
            shown[said.misconception] = shown.get(said.misconception, 0) + 1
    pool = {
        "answered": len(answers),
        "right": sum(said.right for said in verdicts),
        "misconceptions": [
            {"name": question.misconceptions[name].feedback, "count": n}
            for name, n in sorted(shown.items(), key=lambda item: (-item[1], item[0]))
        ],
    }
    if question.form == "choice":
        counts = [0] * len(question.options)
        for answer in answers:
            counts[answer["choice"]] += 1
        pool["counts"] = counts
    elif question.form == "number":
        pool["histogram"] = _histogram([parse_number(a["text"]) for a in answers])
    return pool


def ask_exercise(
    store, teacher_key: str, exercise: Exercise, question: Question, heading: str = ""
) -> int:
    """Ask the class of the teacher's key ``exercise`` as the lesson page words and heads it
    (``question``, ``heading``), replacing the question before; its number.
    :class:`~.messages.Refused` when the key is not a live class's teacher's (a student's
    seat asks nothing)."""
    class_id = store.teacher(teacher_key)
    if class_id is None:
        raise Refused("Only the class's teacher can ask it, while the class lasts.")
    asked = exercise_question(exercise, question, heading)
    number = store.ask(class_id, asked, about="exercise")
    if number is None:
        raise Refused("The class has ended.")
    return number
