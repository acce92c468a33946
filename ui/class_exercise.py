"""A lesson's exercise asked to the live class, from the lesson page the projector shows.

A teacher of a class (the session holds the class's teacher seat, ``ui/live_class.py``;
Streamlit keeps it across the app's pages) sees **Ask the class** in each exercise of a
lesson page that the class can answer away from the page (a number typed in, an option
picked, steps put in order: :data:`app_logic.live_class.exercises.ASKABLE`). It asks the
exercise as this page words it now, with the numbers of the run the projector shows: the
script builds the question on the server and hands it to the class's store with the
teacher's key, so the right answer never passes through a browser. The students answer in
the class bar of their own replay (``ui/playback/classexercise.js``).

Below the exercise the teacher's page then shows the answers pooled, read from the class's
store every second while the question is open (any app process sees every answer: they
share the store): how many answered, the answers per option or a histogram of the numbers
typed. The share right, the right answer and how many answers show each misconception are
off until the teacher turns them on (the page may be projected) or reveals; nobody's name is
shown. *Reveal to the class* shows every student the results and the exercise's verdict on
their own answer; *Put the question away* takes it off every page.
"""

from __future__ import annotations

import html

import streamlit as st

from perceptron_lab.app_logic.exercises.model import Exercise, Question
from perceptron_lab.app_logic.live_class.database import DatabaseError
from perceptron_lab.app_logic.live_class.exercises import ask_exercise, askable
from perceptron_lab.app_logic.live_class.messages import Refused
from perceptron_lab.app_logic.live_class.store import shared_store
from perceptron_lab.app_logic.visitor_text import as_text
from perceptron_lab.ui import live_class
from perceptron_lab.ui.announce import announce

#: How often the teacher's page reads the pool while the question is open, in seconds.
POOL_EVERY = 1.0
#: The session's keys of what the last ask said: asked (for the live region), or refused.
SAID, REFUSED = "class_exercise_said", "class_exercise_refused"
#: Why an exercise has no *Ask the class* (said to the class's teacher only).
NOT_ASKED = {
    "setting": "Live class: this exercise is answered with this page's own controls, so it is "
    "not asked to the class; students can do it on this lesson's page.",
    "replay": "Live class: to ask the class a prediction about a step, use “Ask the class” in "
    "the playground's class bar (predict mode's questions, on the class's view).",
}


def teacher_tools(exercise: Exercise, question: Question, heading: str) -> None:
    """In an exercise's box (headed ``heading`` on the page): *Ask the class*, or the class's
    answers to it once asked. Nothing for a page outside a class or a student's; for an
    exercise answered on the page, why it is not asked."""
    member = live_class.membership()
    if member is None or member.role != "teacher":
        return
    if not askable(exercise):
        st.caption(NOT_ASKED[exercise.form])
        return
    try:
        pace = shared_store().pace(member.class_id)
    except (DatabaseError, OSError) as error:
        st.error(f"The live class is not available now: {as_text(str(error), 300)}")
        return
    if pace is None:
        return
    asked = pace.question
    if said := st.session_state.pop(SAID, None):
        announce(said)
    if refused := st.session_state.pop(REFUSED, None):
        st.error(refused)
    if asked and asked.get("exercise") == exercise.id and asked.get("text") == question.text:
        if asked["state"] == "open":
            st.fragment(_pool, run_every=POOL_EVERY)(member, exercise.id, asked["number"])
        else:
            _pool(member, exercise.id, asked["number"])
        return
    st.button(
        "Ask the class",
        key=f"class_ask_{exercise.id}",
        type="secondary",
        icon=":material/groups:",
        on_click=_ask,
        args=(member, exercise, question, heading),
        help=f"Every student of class {member.code} answers this exercise, with these numbers, "
        "on their own device; their answers reach you pooled and stay hidden from them until "
        "you reveal them. It replaces the class's question before.",
    )


def _ask(member, exercise: Exercise, question: Question, heading: str) -> None:
    try:
        number = ask_exercise(shared_store(), member.secret, exercise, question, heading)
    except Refused as refused:
        st.session_state[REFUSED] = str(refused)
        return
    st.session_state[SAID] = f"Question {number} asked to the class. The answers appear below it."


def _pool(member, exercise_id: str, number: int) -> None:
    """The class's answers to the exercise, pooled (read again at every run)."""
    store = shared_store()
    pace = store.pace(member.class_id)
    asked = None if pace is None else pace.question
    if asked is None or asked["number"] != number:  # put away, or another asked elsewhere
        st.rerun()
    pool = asked["results"] if asked["state"] == "revealed" else store.pool(member.class_id)
    open_ = asked["state"] == "open"
    joined, connected = store.roster(member.class_id)
    with st.container(border=True, key=f"class_pool_{exercise_id}"):
        state = "answers hidden from the students" if open_ else "revealed to the class"
        st.markdown(f"**Question {number} to class {member.code}** · {state}")
        shown = not open_ or st.toggle(
            "Show the right answer and the misconceptions",
            key=f"class_show_{exercise_id}_{number}",
            help="On your screen only: it is off while the page may be projected, until you "
            "reveal the answers.",
        )
        st.html(pool_html(asked, pool, connected if open_ else None, shown))
        reveal, away = st.columns(2)
        if open_ and reveal.button("Reveal to the class", key=f"class_reveal_{number}"):
            store.reveal(member.class_id)
            st.rerun()
        if away.button("Put the question away", key=f"class_close_{number}"):
            store.close_question(member.class_id)
            st.rerun()


def _percent(part: int, whole: int) -> str:
    return f"{round(100 * part / whole)} %" if whole else "0 %"


def _bar(share: float) -> str:
    return (
        '<span class="pool-bar" aria-hidden="true">'
        f'<span style="width: {100 * share:.1f}%"></span></span>'
    )


def pool_html(asked: dict, pool: dict, connected: int | None, shown: bool) -> str:
    """The pooled answers as HTML (every text escaped): the count, the answers per option or
    the numbers' histogram, and with ``shown`` the share right, the right answer and the
    misconceptions the answers show.

    Examples
    --------
    >>> asked = {"form": "choice", "options": ["a <b>", "c"]}
    >>> pool = {"answered": 2, "right": 1, "counts": [1, 1], "answer": [0], "why": "So.",
    ...         "misconceptions": [{"name": "Not c.", "count": 1}]}
    >>> text = pool_html(asked, pool, 3, False)
    >>> "2 of 3 connected answered" in text, "a &lt;b&gt;" in text, "Not c." in text
    (True, True, False)
    >>> "✓ right" in pool_html(asked, pool, 3, True)
    True
    """
    answered = pool["answered"]
    of = f" of {connected} connected" if connected is not None else ""
    right = f" · {pool['right']} right ({_percent(pool['right'], answered)})" if shown else ""
    parts = [f'<p class="class-answered">{answered}{of} answered{right}</p>']
    form = asked["form"]
    if form == "choice":
        rows = []
        for n, option in enumerate(asked["options"]):
            is_right = shown and n in pool["answer"]
            mark = "<b>✓ right: </b>" if is_right else ""
            share = pool["counts"][n] / answered if answered else 0.0
            rows.append(
                f'<li class="{"right" if is_right else ""}"><span class="pool-words">{mark}'
                f'{html.escape(option)}</span>{_bar(share)}<span class="pool-count">'
                f"{pool['counts'][n]} ({_percent(pool['counts'][n], answered)})</span></li>"
            )
        parts.append(f'<ul class="pool-list" aria-label="Answers per option">{"".join(rows)}</ul>')
    elif form == "number" and answered:
        parts.append(_histogram_html(pool["histogram"]))
    if shown:
        parts.append(f"<p><b>The right answer:</b> {html.escape(_right_words(asked, pool))}</p>")
        parts.append(f"<p>{html.escape(pool['why'])}</p>")
        named = pool.get("misconceptions") or []
        if named:
            rows = "".join(
                f'<li><span class="pool-count">{m["count"]}</span> {html.escape(m["name"])}</li>'
                for m in named
            )
            parts.append(
                '<p class="pool-misconceptions-title">Misconceptions the wrong answers show</p>'
                f'<ul class="pool-misconceptions" aria-label="Misconceptions the wrong answers '
                f'show">{rows}</ul>'
            )
    return f'<div class="class-pool">{"".join(parts)}</div>'


def _right_words(asked: dict, pool: dict) -> str:
    """The right answer as the exercise writes it."""
    if asked["form"] == "number":
        return f"{pool['answer']:.4g} ({asked['tolerance_text']})"
    if asked["form"] == "choice":
        return " / ".join(asked["options"][n] for n in pool["answer"])
    return " → ".join(f"{k}. {asked['options'][n]}" for k, n in enumerate(pool["answer"], 1))


def _histogram_html(histogram: dict) -> str:
    """The numbers typed, as bars (drawn, hidden from a screen reader) and as a list of the
    bins (read, not drawn)."""
    counts, low, high = histogram["counts"], histogram["low"], histogram["high"]
    width, most = (high - low) / len(counts), max(1, *counts)
    bars = "".join(
        f'<span class="hist-bar" style="height: {100 * n / most:.0f}%"></span>' for n in counts
    )
    bins = "".join(
        f"<li>{low + b * width:.4g} to {low + (b + 1) * width:.4g}: {n}</li>"
        for b, n in enumerate(counts)
    )
    return (
        f'<figure class="hist"><div class="hist-bars" aria-hidden="true">{bars}</div>'
        f"<figcaption>The numbers typed, from {low:.4g} to {high:.4g}</figcaption>"
        f'<ul class="pl-sr-only">{bins}</ul></figure>'
    )
