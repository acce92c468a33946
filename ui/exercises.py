"""A lesson's checked exercises on its page, and the student's progress in the sidebar.

A lesson page ends with one call::

    exercises(1, seed=seed, eta=eta, data=data, run=run)

which asks the lesson's exercises (:mod:`app_logic.exercises`) with the page's facts: its
controls and what it trained. Each is answered in a form (typing an answer reruns nothing
until *Check* is pressed); the verdict is written into a status region that is on the page
before any answer, so a screen reader announces the text that appears in it (a live region
inserted together with its text is often not read). A wrong answer names the misconception
and the sentence or figure that resolves it; *Try another variant* asks the same exercise
again with other numbers or another order where the kind allows.

A teacher's link opens the lesson with a chosen set, ``?exercises=l01-score-change,...``;
an id the lesson does not have is refused with a message listing the ones it has, and the
page shows them all.

The exercise on the lesson's replay is answered in the figure itself (predict mode); its
box here says what it asks.

A teacher of a live class sees *Ask the class* in each exercise the class can answer on its
own devices (``ui/class_exercise.py``): the class gets it with this page's numbers, and the
answers come back pooled below it.

The progress (answers, verdicts, prediction scores, lessons done) is kept in the student's
browser, never on the server: :func:`progress_panel` puts the ``ui/progress/`` component in
the sidebar, which records this session's verdicts in the browser's ``localStorage``, listens
to the figure's predictions (the replay's ``playback-predict`` event) and keeps their score,
counts each lesson's exercises done ("4 of 7"), and saves or erases the record on the
student's request.
"""

from __future__ import annotations

import numbers
import uuid
import weakref
from datetime import UTC, datetime
from pathlib import Path

import streamlit as st
import streamlit.components.v1 as components
from streamlit.runtime.scriptrunner import get_script_run_ctx

import perceptron_core
from perceptron_lab.app_logic.datasource import DataRequest
from perceptron_lab.app_logic.exercises import EXERCISES, KINDS, chosen, for_lesson
from perceptron_lab.app_logic.exercises.model import Exercise, Question, check
from perceptron_lab.app_logic.exercises.replay import for_the_browser
from perceptron_lab.app_logic.visitor_text import as_text
from perceptron_lab.ui import class_exercise
from perceptron_lab.ui.lesson import lesson_title
from perceptron_lab.ui.safety import attempt

#: The component's folder: its page and script.
PROGRESS = Path(__file__).parent / "progress"
LESSON_DIR = Path(__file__).parents[1] / "lessons"
#: The session-state key of this session's verdicts, kept for the progress component.
RECORDS = "exercise_records"
#: How each kind is titled on the page.
TITLES = {
    "number": "Work it out",
    "order": "Put the steps in order",
    "choice": "Explain why",
    "table": "Read the research table",
    "setting": "Find a setting",
    "replay": "Predict on the replay",
}
#: Longest answer kept in the record (a typed answer is the student's text).
ANSWER_LIMIT = 200
#: The session-state key of each exercise's last question: ``{id: (variant, what the session
#: keeps of the page's facts, question)}`` (:func:`_asked`).
ASKED = "exercise_questions"


@st.cache_resource(show_spinner=False)
def _component():
    return components.declare_component("progress", path=str(PROGRESS))


def exercises(lesson: int, **facts) -> None:
    """The section "Exercises" of lesson ``lesson``, asked with the page's ``facts``, and the
    progress panel in the sidebar.

    Outside a script run (a lesson imported as a module, for its functions) it draws nothing:
    with Streamlit 1.67 a form drawn there stayed on the thread's stack of containers, and the
    next page run in that thread met its first download button inside the form.
    """
    if get_script_run_ctx() is None:
        return
    st.header("Exercises", anchor="exercises")
    link = st.query_params.get("exercises")
    try:
        shown = chosen(lesson, link)
    except ValueError as err:
        st.error(f"{err} The page shows them all.", icon="⚠️")
        shown = for_lesson(lesson)
    if link and len(shown) < len(for_lesson(lesson)):
        st.info(
            f"Your teacher's link sets {len(shown)} of this lesson's "
            f"{len(for_lesson(lesson))} exercises.",
            icon=":material/assignment:",
        )
    st.markdown(
        "Answer each, then press **Check**. Your answers stay in this browser only (nothing "
        "is stored on the server); the sidebar counts the exercises you have done."
    )
    for number, exercise in enumerate(shown, 1):
        with st.container(border=True, key=f"exercise-{exercise.id}"):
            _exercise(number, exercise, facts)
    progress_panel(lesson, _replays(lesson, facts))


def _key(exercise: Exercise, what: str) -> str:
    return f"ex_{exercise.id}_{what}"


def _exercise(number: int, exercise: Exercise, facts: dict) -> None:
    heading = f"Exercise {number}. {TITLES[exercise.kind]}"
    st.subheader(heading, anchor=exercise.id)
    missing = [name for name in exercise.needs if facts.get(name) is None]
    if missing:
        st.info(
            "This exercise asks about the figure, which is not drawn: change a setting above.",
            icon=":material/info:",
        )
        return
    variant = st.session_state.get(_key(exercise, "variant"), 0)
    question = _asked(exercise, facts, variant)
    if question is None:
        return
    st.markdown(question.text)
    if question.form == "replay":  # answered in the figure; the sidebar keeps the score
        st.caption(
            "You answer in the figure, in its panel “Predict, then step”, which scores the "
            "run; the sidebar's progress marks this exercise done once you reach it. Nothing "
            "is sent to the server."
        )
        class_exercise.teacher_tools(exercise, question, heading)
        return
    verdict_key = _key(exercise, "verdict")
    with st.form(_key(exercise, f"form{variant}"), border=False):
        response = _answer_input(exercise, question, facts, variant)
        submitted = st.form_submit_button("Check", type="primary")
    if submitted:
        _judge(exercise, question, response, variant)
    said = st.session_state.get(verdict_key)
    if said and said["variant"] != variant:
        said = None  # a new variant: the old verdict was about other numbers
    if said and question.form == "setting" and said["about"] != response:
        said = None  # the control moved since: the verdict was about another setting
    # The status region is on the page before any answer; only its text changes.
    css = {None: "", True: " exercise-right", False: " exercise-wrong"}[said and said["right"]]
    st.markdown(
        f'<div class="exercise-verdict{css}" role="status" aria-live="polite">'
        f"{_verdict_html(said['text'] if said else '')}</div>",
        unsafe_allow_html=True,
    )
    if said and said["right"] is False and question.form != "setting":
        st.button(
            "Try another variant",
            key=_key(exercise, f"again{variant}"),
            on_click=_next_variant,
            args=(exercise,),
            help="The same exercise again, with other numbers or another order of the options.",
        )
    class_exercise.teacher_tools(exercise, question, heading)


def _asked(exercise: Exercise, facts: dict, variant: int) -> Question | None:
    """``exercise``'s question at ``variant`` with the page's ``facts``, asked again only when
    one of them changed (None when asking failed: :func:`ui.safety.attempt` said so).

    Streamlit runs the whole page again at every click, and a question may train the
    learner again at every value of a control (a fifth to two fifths of a lesson's rerun,
    docs/benchmarks.md); the replay exercise was asked twice a run, for its box and for the
    progress panel. This session keeps each exercise's last question with what it was asked
    with (:data:`ASKED`, :func:`_known`).
    """
    kept = st.session_state.setdefault(ASKED, {})
    last = kept.get(exercise.id)
    if last is not None and last[0] == variant and _same(last[1], facts):
        return last[2]
    question = attempt("Preparing the exercise", exercise.question, facts, variant)
    if question is not None:
        kept[exercise.id] = (variant, _known(facts), question)
    return question


def _known(fact):
    """What the session keeps of a page's fact to know it again at the next run: a number,
    a text or a data request itself, a container as a container of what it keeps of each
    item, and any other object (a run, a data set, a table) by a weak reference. Those live
    in the server's memory budget (:mod:`app_logic.memory`), which may drop them; the session
    must not keep them alive. An object that takes no weak reference is never known again.
    """
    if isinstance(fact, dict):
        return {name: _known(value) for name, value in fact.items()}
    if isinstance(fact, tuple | list):
        return type(fact)(_known(item) for item in fact)
    if fact is None or isinstance(fact, numbers.Number | str | DataRequest):
        return fact
    try:
        return weakref.ref(fact)
    except TypeError:
        return _UNKNOWN


#: What :func:`_known` keeps of an object it cannot refer to weakly: the same as nothing.
_UNKNOWN = object()


def _same(known, now) -> bool:
    """Whether a page's fact ``now`` is the one the session knew (:func:`_known`): the same
    object (the caches hand a page the object they keep), or an equal value.

    Examples
    --------
    >>> import numpy as np
    >>> w = np.zeros(2)
    >>> facts = {"seed": 3, "eta": 0.5, "w": w}
    >>> _same(_known(facts), {"seed": 3, "eta": 0.5, "w": w})
    True
    >>> _same(_known(facts), {"seed": 3, "eta": 0.5, "w": np.zeros(2)})  # another array
    False
    """
    if isinstance(known, weakref.ref):
        return known() is now
    if isinstance(known, dict):
        return (
            isinstance(now, dict)
            and known.keys() == now.keys()
            and all(_same(known[k], now[k]) for k in known)
        )
    if isinstance(known, tuple | list):
        return type(now) is type(known) and len(now) == len(known) and all(map(_same, known, now))
    return known is not _UNKNOWN and type(known) is type(now) and known == now


def _verdict_html(text: str) -> str:
    """A verdict as HTML: its first word ("Right.", "Not yet.") in bold, the rest as text
    (a verdict may quote what the student typed).

    Examples
    --------
    >>> _verdict_html("Not yet. Divide <b> by 2.")
    '<strong>Not yet.</strong> Divide &lt;b&gt; by 2.'
    """
    text = as_text(text, 2000, markdown=False)
    escaped = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    for start in ("Right.", "Not yet."):
        if escaped.startswith(start):
            return f"<strong>{start}</strong>{escaped.removeprefix(start)}"
    return escaped


def _next_variant(exercise: Exercise) -> None:
    key = _key(exercise, "variant")
    st.session_state[key] = st.session_state.get(key, 0) + 1


def _answer_input(exercise: Exercise, question: Question, facts: dict, variant: int):
    """The input of the question's form; returns what it holds."""
    key = _key(exercise, f"answer{variant}")
    if question.form == "number":
        return st.text_input(
            f"Your answer: a number, {question.tolerance_text}",
            key=key,
            placeholder="for instance 0.25",
        )
    if question.form == "choice":
        return st.radio("Your answer", question.options, index=None, key=key)
    if question.form == "order":
        return st.multiselect(
            "Pick the steps in order: the first one you pick is step 1",
            question.options,
            key=key,
            placeholder="Pick step 1",
        )
    # a setting: the page's own control holds the answer
    current = facts.get(question.control)
    st.markdown(f"Now set: **{_written(question, current)}**.")
    return current


def _note(exercise: Exercise, text: str, variant: int) -> None:
    """A word about a response that is not an attempt (nothing typed, not a number)."""
    st.session_state[_key(exercise, "verdict")] = {
        "text": text,
        "right": None,
        "variant": variant,
        "about": None,
    }


def _judge(exercise: Exercise, question: Question, response, variant: int) -> None:
    """Check ``response``; keep the verdict on the page and the record for the browser."""
    if question.form == "number" and not (response or "").strip():
        return _note(exercise, "Type a number first, then press Check.", variant)
    if question.form == "choice" and response is None:
        return _note(exercise, "Pick an option first, then press Check.", variant)
    given = response
    if question.form == "choice":
        given = question.options.index(response)
    elif question.form == "order":
        given = [question.options.index(step) for step in response]
    try:
        verdict = check(question, given)
    except ValueError as err:  # not a number: not an attempt
        return _note(exercise, str(err), variant)
    st.session_state[_key(exercise, "verdict")] = {
        "text": verdict.text,
        "right": verdict.right,
        "variant": variant,
        "about": response if question.form == "setting" else None,
    }
    records = st.session_state.setdefault(RECORDS, {})
    earlier = records.get(exercise.id, {})
    written = (
        " → ".join(response)
        if question.form == "order"
        else _written(question, response)
        if question.form == "setting"
        else str(response)
    )
    records[exercise.id] = {
        "id": exercise.id,
        "lesson": exercise.lesson,
        "kind": exercise.kind,
        "answer": as_text(written, ANSWER_LIMIT, markdown=False),
        "right": verdict.right,
        "attempts": earlier.get("attempts", 0) + 1,
        "at": datetime.now(UTC).isoformat(timespec="seconds"),
        "nonce": uuid.uuid4().hex,
    }


def _written(question: Question, value) -> str:
    """A control's value as the exercise writes it (its own text when it is one of the
    question's values)."""
    return (
        question.options[question.values.index(value)] if value in question.values else str(value)
    )


def catalog() -> list[dict]:
    """Every lesson that has exercises: its number, menu title and exercise ids (what the
    progress panel counts against)."""
    titles = {int(path.name[:2]): title for path, title in _lesson_titles()}
    lessons = sorted({e.lesson for e in EXERCISES})
    return [
        {
            "lesson": n,
            "title": titles.get(n, f"Lesson {n}"),
            "ids": [e.id for e in EXERCISES if e.lesson == n],
        }
        for n in lessons
    ]


def _lesson_titles():
    return [(path, lesson_title(path)) for path in sorted(LESSON_DIR.glob("[0-9]*.py"))]


def _replays(lesson: int, facts: dict) -> list[dict]:
    """The lesson's replay exercises as the progress panel judges the figure's record: the
    questions the figure asks with the lab's answers (none when the figure is not drawn)."""
    specs = []
    for exercise in for_lesson(lesson):
        if exercise.form != "replay" or any(facts.get(n) is None for n in exercise.needs):
            continue
        question = _asked(exercise, facts, 0)
        if question is not None:
            specs.append(for_the_browser(exercise.id, question))
    return specs


def progress_panel(lesson: int, replays: list[dict] | None = None) -> None:
    """The progress kept in this browser, in the sidebar: each lesson's exercises done, this
    session's new verdicts handed to the browser to keep, and the lesson's ``replays`` (its
    replay exercises, :func:`app_logic.exercises.replay.for_the_browser`): the panel listens
    to the figure's predictions and keeps their score."""
    records = list(st.session_state.get(RECORDS, {}).values())
    with st.sidebar:
        _component()(
            catalog=catalog(),
            lesson=lesson,
            records=records,
            replays=replays or [],
            version=perceptron_core.__version__,
            kinds=KINDS,
            key="exercise_progress",
            default=None,
            height=300,
        )
