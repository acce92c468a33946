"""The parts every lesson page is made of.

A lesson (``lessons/NN_name.py``) is a page with a preset, not a second
implementation: its figure is the playground's browser component
(:mod:`ui.player`), trained by the same cached :func:`ui.runs.train`, moved
through time by the same playback controls. This module adds what a lesson
has and the playground has not:
the goal, the "try this" tasks, a check question with immediate feedback,
the research finding next to numbers computed live, and the source of the
rule being animated.

A lesson page reads top to bottom::

    lesson_header(1, "The perceptron rule", "See what one update does to the line.")
    st.markdown(...)                     # the explanation, with st.latex formulas
    stage("l01_", DataRequest("separable", (("n_samples", 20),), seed=3), "perceptron",
          extras=my_panels)   # per-step numbers beside the figure (app_logic.payload.extras)
    try_this("Press **Next update** ...", "...")
    check_question("l01_", "What happens to w after a mistake on a positive point?",
                   ["w moves towards x", "w moves away from x"], answer=0,
                   why="The update adds η·y·x with y = +1.")
    research("Rosenblatt (1958) ...", "Rosenblatt, F. (1958) ...", compute=my_cached_numbers)
    show_code(perceptron_core.engine.kw_trainer._epoch)

Session keys of a lesson start with its own prefix (``l01_``, ``l02_``, ...).
"""

from __future__ import annotations

import ast
import functools
import inspect
import textwrap
from collections.abc import Callable, Sequence
from pathlib import Path

import streamlit as st

from perceptron_lab.app_logic.datasource import DataRequest
from perceptron_lab.app_logic.predictions import Predict
from perceptron_lab.app_logic.style import Show
from perceptron_lab.ui.announce import announce_change
from perceptron_lab.ui.charts import chart
from perceptron_lab.ui.player import (
    DownloadView,
    View,
    download_button,
    page_payload,
    playback,
    rule_box,
    url_predict,
    url_step,
)
from perceptron_lab.ui.runs import get_dataset, train
from perceptron_lab.ui.safety import attempt


def lessons(folder: Path) -> list[tuple[Path, str]]:
    """The lessons in ``folder`` (files named ``<number>_....py``) in file-name order, with
    their menu titles (:func:`lesson_title`)."""
    return [(path, lesson_title(path)) for path in sorted(folder.glob("[0-9]*.py"))]


def lesson_title(path: Path) -> str:
    """The menu title of a lesson: its number and the title its docstring gives it.

    A docstring that starts "Lesson 4. From on-line to batch: the longest ..." gives
    "4 · From on-line to batch", so the menu and the lesson's heading say the same words.

    Examples
    --------
    >>> lesson_title(Path(__file__).parents[1] / "lessons" / "04_from_online_to_batch.py")
    '4 · From on-line to batch'
    """
    return _title(path, path.stat().st_mtime_ns)


def document_title(menu_title: str, lesson: bool) -> str:
    """The browser tab's title of a page, from its menu title: each page has its own.

    Examples
    --------
    >>> document_title("3 · When data are not separable", lesson=True)
    'Lesson 3 · When data are not separable — Perceptron Lab'
    >>> document_title("Playground", lesson=False)
    'Playground — Perceptron Lab'
    """
    return f"{'Lesson ' if lesson else ''}{menu_title} — Perceptron Lab"


@functools.cache
def _title(path: Path, modified: int) -> str:
    """:func:`lesson_title` once per version of the file: the menu is built on every run of
    every visitor, and parsing every lesson at each run slowed every page."""
    first = (ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or "").splitlines()
    number, _, rest = (first[0] if first else "").removeprefix("Lesson ").partition(". ")
    return f"{number} · {rest.partition(':')[0]}" if number.isdigit() and rest else path.stem


#: The parts every lesson has, in page order: (title, anchor), for its table of contents.
SECTIONS = (
    ("Try this", "try-this"),
    ("Check yourself", "check-yourself"),
    ("What the research found", "what-the-research-found"),
    ("The code", "the-code"),
    ("Exercises", "exercises"),
)


def lesson_header(number: int, title: str, goal: str) -> None:
    """The lesson's title, its goal in one sentence and a table of contents."""
    st.title(f"Lesson {number}. {title}")
    st.info(f"**Goal.** {goal}", icon=":material/flag:")
    st.markdown(
        "On this page: the idea and the figure, then "
        + " · ".join(f"[{name}](#{anchor})" for name, anchor in SECTIONS)
        + "."
    )


#: A lesson's figure's height in pixels (the playground's fits the window instead).
FIGURE_HEIGHT = 520


def stage(
    prefix: str,
    request: DataRequest,
    learner_key: str,
    values: dict | None = None,
    epochs: int = 10,
    show: Show = Show(),
    math: bool = True,
    extras: Callable | None = None,
    start: Callable | None = None,
    predict: Predict | Callable | None = None,
):
    """Train a preset run (cached) and draw it with the playground's component.

    Parameters
    ----------
    prefix : str
        The lesson's session-key prefix (``"l03_"``); two stages on one page
        need two prefixes (``"l03a_"``, ``"l03b_"``).
    request : DataRequest
        The data (a 2-D set; see :mod:`app_logic.datasource`).
    learner_key : str
        A key of :data:`app_logic.learners.LEARNERS`.
    values : dict, optional
        Settings that differ from the learner's defaults.
    epochs : int
    show : Show
        What the figure draws.
    math : bool
        Show the update rule above the figure and the math panel, with the
        current numbers, beside it.
    extras : callable, optional
        ``extras(run, data) -> list of app_logic.payload.extras.Panel``: the
        lesson's numbers for every step, computed once per run and shown
        beside the figure by the browser (under the math panel).
    start : callable, optional
        ``start(timeline) -> t``: the step a session sees first (for instance
        ``lambda tl: tl.next_update(0)``, or ``lambda tl: tl.n_events`` for the
        end of training), so the first view shows what the lesson is about.
        The step in the URL wins when there is one.
    predict : Predict or callable, optional
        Predict mode for this figure: a lesson opens it on, asking before the steps it
        chooses (``Predict(on=True, ask="steps", steps=(3, 7, 12))``), or
        ``predict(run, data) -> Predict`` when the steps depend on the run (its replay
        exercise's, ``app_logic.exercises.replay.Replay.predict``); by default as the page's
        URL asks (``predict=1``), seeded with the data's seed.

    Returns
    -------
    (data, run) : (Dataset, Run), or (None, None) after an error message.
    """
    # the menu imports every learner: keep the page's import light
    from perceptron_lab.app_logic.learners import LEARNERS

    learner = LEARNERS[learner_key]
    settings = {**learner.defaults(), **(values or {})}
    data = attempt("Loading the data", get_dataset, request)
    if data is None:
        return None, None
    run = attempt(
        "Training",
        train,
        learner_key,
        tuple(sorted(settings.items())),
        epochs,
        request.seed,
        *data.fit_data(learner.learns_classes),
    )
    if run is None:
        return None, None
    for note in run.notes:  # the learner's word on the data's scale
        st.warning(note, icon=":material/straighten:")
    if math:
        rule_box(run, key=f"{prefix}rule")
    payload = attempt(
        "Preparing the figure", page_payload, request, data, [run], extras, request.seed
    )
    if payload is None:
        return None, None
    view = View(
        show=show,
        initial_t=url_step(int(start(run.timeline)) if start else 0),
        height=FIGURE_HEIGHT,
        hide=frozenset() if math else frozenset({"math"}),
        diagnostics=False,
        predict=_predict(predict, run, data) or url_predict(request.seed),
    )
    playback(f"{prefix}player", payload, run, data, view)
    download_button(
        st,
        "page",
        DownloadView.of(
            request,
            run,
            show=show,
            step=view.initial_t,
            extras=getattr(extras, "__qualname__", None),
            predict=view.predict,
        ),
        "Download this figure as a web page",
        f"perceptron-{prefix.strip('_')}-{learner_key}.html",
        key=f"{prefix}dl_html",
        icon=":material/download:",
        help="One file that replays this figure in any browser, offline and with no server: "
        "for a course page, slides or an e-mail.",
    )
    return data, run


def _predict(predict, run, data) -> Predict | None:
    """A lesson's predict mode for its figure of ``run`` (None: the URL's)."""
    if callable(predict):
        return attempt("Choosing the steps that ask", predict, run, data)
    return predict


def try_this(*tasks: str) -> None:
    """Numbered tasks; each changes one control and says what to look for."""
    with st.container(border=True):
        st.header("Try this", anchor="try-this")
        st.markdown("\n".join(f"{i}. {task}" for i, task in enumerate(tasks, 1)))


def check_question(
    prefix: str,
    question: str,
    options: Sequence[str],
    answer: int,
    why: str,
    hints: dict[int, str] | None = None,
    heading: bool = True,
) -> bool | None:
    """A multiple-choice question that answers as soon as an option is picked.

    Parameters
    ----------
    prefix : str
        The lesson's prefix; the radio's key is ``prefix + "check"``.
    question : str
    options : sequence of str
    answer : int
        Index of the right option.
    why : str
        Shown with a right answer: the reason, in a sentence or two.
    hints : dict, optional
        ``{option index: text}`` shown after that wrong option (default: a
        general nudge to look at the figure again).
    heading : bool
        Write the "Check yourself" heading (a second question on the page
        sits under the first one's heading).

    Returns
    -------
    bool or None
        Whether the picked option is right; None before any pick.
    """
    if heading:
        st.header("Check yourself", anchor="check-yourself")
    choice = st.radio(question, options, index=None, key=f"{prefix}check")
    picked = None if choice is None else list(options).index(choice)
    right = f"Right. {why}"
    # A right answer's box is a status that comes with its text, which screen readers often
    # skip: it is said in the page's live region, there before any answer (4.1.3). A wrong
    # answer's box is an alert, which they say as it appears.
    announce_change(f"{prefix}check", picked, right if picked == answer else None)
    if picked is None:
        return None
    if picked == answer:
        st.success(right, icon=":material/check_circle:")
        return True
    hint = (hints or {}).get(picked, "Look at the figure again while you step through it.")
    st.error(f"Not quite. {hint}", icon=":material/cancel:")
    return False


def research(
    finding: str, reference: str, compute: Callable | None = None, caption: str = ""
) -> object:
    """The paper's finding, next to the same quantity computed by this app.

    Parameters
    ----------
    finding : str
        What the paper found, in words (markdown).
    reference : str
        The citation.
    compute : callable, optional
        Returns what to show beside the finding (a DataFrame, a dict of
        name -> number, or a Plotly figure), computed live from
        ``perceptron_core``: a study that takes seconds through
        :func:`ui.studies.lesson_study` (prepared ahead, else computed under a
        progress bar). Never typed-in figures.
    caption : str
        How the live numbers were computed (data, seed, settings).

    Returns
    -------
    The computed result (None without ``compute`` or after an error).
    """
    st.header("What the research found", anchor="what-the-research-found")
    st.markdown(finding)
    result = None
    if compute is not None:
        # no spinner: a study shows its own progress bar (ui.studies), the rest is instant
        result = attempt("Computing the numbers", compute)
        if isinstance(result, dict):
            # two per row: four side by side cut their labels and values at 1024 px
            cols = st.columns(min(len(result), 2) or 1)
            for i, (name, value) in enumerate(result.items()):
                cols[i % len(cols)].metric(name, value)
        elif hasattr(result, "to_plotly_json"):
            chart(result)
        elif result is not None:
            st.dataframe(result, hide_index=True)
        if caption:
            st.caption(caption)
    st.caption(f"Reference: {reference}")
    return result


def source_of(obj) -> str:
    """The source text of a function or class (numba-compiled ones included).

    Examples
    --------
    >>> print(source_of(source_of).splitlines()[0])
    def source_of(obj) -> str:
    """
    return textwrap.dedent(inspect.getsource(getattr(obj, "py_func", obj)))


def show_code(*objects, intro: str = "") -> None:
    """The exact code from ``perceptron_core`` that the lesson animates, one switch per piece.

    Switched off, nothing of it is drawn: the browser loads Streamlit's code
    highlighter only when a reader asks for the code (loaded with every
    lesson, as a folded expander did, it held back the lesson's first figure).
    """
    st.header("The code", anchor="the-code")
    if intro:
        st.markdown(intro)
    for obj in objects:
        func = getattr(obj, "py_func", obj)
        name = f"{func.__module__}.{func.__qualname__}"
        if st.toggle(f"`{name}`", key=f"code_{name}"):
            st.code(source_of(obj), language="python", line_numbers=True)
