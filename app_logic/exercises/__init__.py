"""The lessons' checked exercises, without Streamlit: what the pages ask, the command line
lists and the tests check.

Each lesson's exercises are in ``lesson_NN.py`` (:data:`EXERCISES` gathers them in lesson
order); what an exercise is and how an answer is checked is :mod:`.model`. The page
(``ui/exercises.py``) asks each one with the page's facts; ``perceptron-lab exercises``
lists them (:func:`listing`); a teacher's link names a set of a lesson's exercises with
``exercises=id1,id2`` (:func:`chosen`).

Examples
--------
>>> len(for_lesson(1)) >= 5
True
>>> [e.id for e in chosen(1, "l01-score-change")]
['l01-score-change']
"""

from __future__ import annotations

from perceptron_lab.app_logic.exercises import (
    lesson_01,
    lesson_02,
    lesson_03,
    lesson_04,
    lesson_05,
    lesson_06,
    lesson_07,
    lesson_08,
    lesson_09,
    lesson_10,
    lesson_11,
    lesson_12,
)
from perceptron_lab.app_logic.exercises.model import FORMS, KINDS, Exercise

#: Every exercise of the course, in lesson order, then in page order.
EXERCISES: tuple[Exercise, ...] = (
    *lesson_01.EXERCISES,
    *lesson_02.EXERCISES,
    *lesson_03.EXERCISES,
    *lesson_04.EXERCISES,
    *lesson_05.EXERCISES,
    *lesson_06.EXERCISES,
    *lesson_07.EXERCISES,
    *lesson_08.EXERCISES,
    *lesson_09.EXERCISES,
    *lesson_10.EXERCISES,
    *lesson_11.EXERCISES,
    *lesson_12.EXERCISES,
)

BY_ID = {exercise.id: exercise for exercise in EXERCISES}
if len(BY_ID) != len(EXERCISES):
    raise ValueError("two exercises share an id")

__all__ = ["BY_ID", "EXERCISES", "FORMS", "KINDS", "chosen", "for_lesson", "listing"]


def for_lesson(lesson: int) -> tuple[Exercise, ...]:
    """The exercises of lesson ``lesson`` in page order (none for a lesson without)."""
    return tuple(e for e in EXERCISES if e.lesson == lesson)


def chosen(lesson: int, text: str | None) -> tuple[Exercise, ...]:
    """The exercises a link's ``exercises=`` names for lesson ``lesson``, in the lesson's
    order; every exercise of the lesson when ``text`` is None or empty.

    Raises
    ------
    ValueError
        When an id is not one of the lesson's, naming the ids the lesson accepts.

    Examples
    --------
    >>> [e.id for e in chosen(1, " l01-theta-after , l01-score-change")]
    ['l01-score-change', 'l01-theta-after']
    >>> try:
    ...     chosen(1, "l01-nothing")
    ... except ValueError as err:
    ...     print(str(err)[:72])
    The link asks for exercise 'l01-nothing', which lesson 1 does not have.
    """
    own = for_lesson(lesson)
    if not text or not text.strip():
        return own
    asked = [part.strip() for part in text.split(",") if part.strip()]
    ids = {e.id for e in own}
    unknown = [a for a in asked if a not in ids]
    if unknown:
        names = ", ".join(repr(u) for u in unknown)
        raise ValueError(
            f"The link asks for exercise{'s' if len(unknown) > 1 else ''} {names}, which "
            f"lesson {lesson} does not have. Its exercises are: "
            f"{', '.join(e.id for e in own)}."
        )
    return tuple(e for e in own if e.id in asked)


def is_multiple_choice(exercise: Exercise) -> bool:
    """Whether the student picks one of a list of options (kind "choice", or a table
    exercise answered by picking)."""
    if exercise.kind == "replay":
        return False
    return exercise.form == "choice"


def listing() -> list[dict]:
    """Every exercise as the teachers' listing shows it: id, lesson, kind, how it is
    answered, whether it is multiple choice, and its prompt.

    Examples
    --------
    >>> sorted(listing()[0])
    ['answer', 'id', 'kind', 'lesson', 'multiple_choice', 'prompt']
    """
    return [
        {
            "id": e.id,
            "lesson": e.lesson,
            "kind": e.kind,
            "answer": e.form,
            "multiple_choice": is_multiple_choice(e),
            "prompt": e.prompt,
        }
        for e in EXERCISES
    ]
