"""The playground: pick data and a learner, then move through its training step by step.

The run is trained once (cached) with every visit recorded and sent to the
browser once (:mod:`ui.player`): stepping, playing and scrubbing happen
there, the server is asked again only when the data, the learner, a setting
or the points change. Points of 2-D data can be added and removed by
clicking on the plot or in a table (:mod:`ui.edit_panel`); that retrains.
Every setting, the point edits and the step live in the URL. Session keys
start with ``pg_``.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import streamlit as st

from perceptron_lab.app_logic.export import run_record
from perceptron_lab.app_logic.learners import LEARNERS
from perceptron_lab.app_logic.playback_args import component_args
from perceptron_lab.app_logic.style import PRESENT, STYLE, Show
from perceptron_lab.app_logic.visitor_text import MESSAGE_LIMIT, as_text
from perceptron_lab.ui import live_class, state
from perceptron_lab.ui.announce import announce_change
from perceptron_lab.ui.data_panel import data_panel
from perceptron_lab.ui.edit_panel import (
    drop_edits,
    edit_bar,
    plot_clicked,
    points_table,
    url_entry,
    with_edits,
)
from perceptron_lab.ui.learner_panel import learner_panel
from perceptron_lab.ui.player import (
    HIDEABLE,
    DownloadView,
    View,
    download_button,
    page_payload,
    playback,
    rule_box,
    shown_step,
    step_reported,
    url_predict,
)
from perceptron_lab.ui.runs import get_dataset, train, view_estimate, view_key
from perceptron_lab.ui.safety import attempt
from perceptron_lab.ui.state import control, hidden
from perceptron_lab.ui.waiting import Cancelled, view_turn

PREFIX = "pg_"
PLAYER = f"{PREFIX}player"
DOWNLOADS_OPEN = f"{PREFIX}downloads_open"
CLASS_PAGE = live_class.Page(PREFIX, PLAYER)


def _replay_changed() -> None:
    """The replay's value: the step on screen, a live class's view to open, or a click on the
    plot."""
    step_reported(PLAYER)
    if not live_class.component_changed(CLASS_PAGE):
        plot_clicked(PREFIX, PLAYER)


def _view_toggles() -> tuple[Show, str, tuple[str, ...], bool]:
    """The View section: presentation mode, what the picture draws, the image format, compare."""

    def toggle(label, name, default, help_text):
        return control(
            st.toggle,
            label,
            f"{PREFIX}{name}",
            default,
            prefix=PREFIX,
            group="view",
            help=help_text,
        )

    present = toggle(
        "Presentation mode",
        "present",
        False,
        "For a projector: larger type and marks, thicker lines, the figure sized to the window. "
        "A link with present=1 also opens with the sidebar closed.",
    )
    show = Show(
        region=toggle("Decision region", "region", True, "Light tint of each side."),
        band=toggle(
            "Margin band", "band", True, "Grey band: correct points inside it still update."
        ),
        arrows=toggle(
            "w and update arrows",
            "arrows",
            True,
            "w from the line, and the update vector when the current example changes it.",
        ),
        test_points=toggle("Test points", "show_test", True, "Hollow markers."),
        flips=toggle("Mark flipped labels", "flips", True, "× on labels flipped by the noise."),
        target=toggle(
            "True boundary",
            "target",
            False,
            "Dashed: the line the data came from (generated sets).",
        ),
        ensemble=toggle(
            "Voted ensemble",
            "ensemble",
            False,
            "Stored hypotheses at opacity ∝ votes, and the voted region (not a straight line).",
        ),
        averaged=toggle(
            "Averaged line", "averaged", False, "Dashed green: the vote-weighted mean hypothesis."
        ),
        longest=toggle(
            "Longest survivor",
            "longest",
            False,
            "Dash-dotted purple: the hypothesis with the longest run of correct predictions so "
            "far.",
        ),
    )
    image = control(
        st.segmented_control,
        "Image download format",
        f"{PREFIX}image",
        "png",
        options=["png", "svg"],
        prefix=PREFIX,
        group="view",
        help="The figure's download button (and the camera button above it) saves this format.",
    )
    compare = control(
        st.multiselect,
        "Compare with",
        f"{PREFIX}compare",
        [],
        options=list(LEARNERS),
        format_func=lambda k: LEARNERS[k].title,
        max_selections=3,
        prefix=PREFIX,
        group="view",
        help="Up to three more learners side by side, same data and seed, "
        "shared axes and time step (their default settings).",
    )
    return show, image or "png", tuple(compare), present


def _data(request):
    """The requested data, or None after a message."""
    data = attempt("Loading the data", get_dataset, request) if request else None
    if data is not None and len(np.unique(data.y)) < 2:
        st.error("The training part has only one class; choose another class, data set or split.")
        return None
    return data


def _train(key, values, epochs, data, seed):
    return train(
        key,
        tuple(sorted(values.items())),
        epochs,
        seed,
        *data.fit_data(LEARNERS[key].learns_classes),
    )


def _last_good(request, data, key, values, epochs):
    """Train on the requested data; after any error keep showing the last good view.

    Returns ``(request, data, run)`` (all None before anything worked): the
    data and the run always belong together, so an error never mixes new
    data with an old run. The session keeps what the last good view was
    asked with, not its data and run: those live in the server's memory
    budget (:mod:`app_logic.memory`), which may drop them, and are made
    again, the same, when needed.
    """
    ss = st.session_state
    run = attempt("Training", _train, key, values, epochs, data, request.seed) if data else None
    if run is not None:
        ss[f"{PREFIX}last_good"] = (request, key, values, epochs)
        return request, data, run
    if f"{PREFIX}last_good" not in ss:
        return None, None, None
    st.caption("Still showing the last view that worked.")
    request, key, values, epochs = ss[f"{PREFIX}last_good"]
    data = attempt("Loading the data", get_dataset, request)
    run = attempt("Training", _train, key, values, epochs, data, request.seed) if data else None
    return (request, data, run) if run is not None else (None, None, None)


def _downloads(request, run, show, image, predict) -> None:
    """The trace and the points as CSV, and the replay as one web page (the link, the figure
    and the JSON are in the component), built when asked for (``ui.player.download_button``)."""
    view = DownloadView.of(
        request, run, show=show, step=shown_step(PLAYER), image=image, predict=predict
    )
    downloads = [  # key, kind, label, file name, help
        ("csv", "trace", "Every step as CSV (the trace)", "perceptron-trace.csv", None),
        (
            "points",
            "points",
            "Training points as CSV",
            "perceptron-points.csv",
            "After noise and your edits: the file can be uploaded again.",
        ),
        (
            "html",
            "page",
            "Download as web page",
            # the step in the name: Streamlit's file store tells two large files apart by
            # their name, length, start, middle and end only, and two steps' pages differ in
            # none of those but the name
            f"perceptron-run-step-{view.step}.html",
            "One file that replays this run in any browser, offline and with no server "
            "(Plotly.js travels inside it): for a course page, slides or an e-mail.",
        ),
    ]
    # opening it reruns: the web page then opens at the step on screen (the address's), and
    # while it is open the component reports each step that rests (``View.report_step``)
    with st.expander(
        "Download the trace, the points or a web page", key=DOWNLOADS_OPEN, on_change="rerun"
    ):
        for column, (key, kind, label, file_name, help_text) in zip(
            st.columns(len(downloads)), downloads, strict=True
        ):
            download_button(
                column,
                kind,
                view,
                label,
                file_name,
                key=f"{PREFIX}dl_{key}",
                width="stretch",
                help=help_text,
            )


def _player(request, data, runs, show, image, params, click, present, predict) -> None:
    """The browser component: figure(s), playback, math panel, diagnostics, share box."""
    run = runs[0]
    compare = len(runs) > 1
    payload = page_payload(request, data, runs, seed=request.seed)
    hide = frozenset(group for group in HIDEABLE if hidden(group))
    share = {
        "base": st.context.url or "",
        "params": {k: v for k, v in params.items() if k not in ("t", live_class.SEAT)},
        "record": run_record(run, data, request),
    }
    view = View(
        show=show,
        initial_t=shown_step(PLAYER),
        click="off" if compare else click,
        image=image,
        hide=hide,
        share=share,
        style=PRESENT if present else STYLE,
        classroom=live_class.component_info(),
        predict=predict,
        # while the downloads are open, the step on screen comes back for the web page's
        report_step=bool(st.session_state.get(DOWNLOADS_OPEN)),
    )
    live_class.shelve(params, lambda: component_args(payload, run, data, view))
    playback(PLAYER, payload, run, data, view, on_click=_replay_changed)


def _view_sentence(titles: list[str], data, run) -> str:
    """What the replay now shows, in a sentence for the page's live region.

    Examples
    --------
    >>> from types import SimpleNamespace as N
    >>> data, run = N(title="XOR"), N(timeline=N(n_events=400))
    >>> _view_sentence(["Voted perceptron", "PA", "ALMA"], data, run)
    'Compare mode: Voted perceptron, PA and ALMA side by side on XOR.'
    >>> _view_sentence(["PA"], data, run)
    'The replay now shows PA on XOR: 400 steps.'
    """
    if len(titles) > 1:
        who = f"{', '.join(titles[:-1])} and {titles[-1]}"
        return f"Compare mode: {who} side by side on {data.title}."
    return f"The replay now shows {titles[0]} on {data.title}: {run.timeline.n_events:,} steps."


def _view(request, data, key, values, epochs, compare, show, image, present):
    """The view's runs, figure and playback (made in the view's turn, ``ui/waiting.py``):
    ``(request, data, run, predict)`` of what is drawn, or None when nothing is."""
    request, data, run = _last_good(request, data, key, values, epochs)
    if run is None:
        st.info("Choose or upload data to start.")
        return None
    live_class.above_figure(CLASS_PAGE)
    figure = st.container()  # playback and the figure first: they fit the window
    for note in run.notes:  # the learner's word on the data's scale
        st.warning(note, icon=":material/straighten:")
    for note in data.notes:  # they quote the visitor's file: text, never Markdown
        st.caption(as_text(note, MESSAGE_LIMIT))
    compare_runs = []
    if compare:
        if data.n_features != 2:
            st.info("Compare mode draws 2-D data side by side; choose a 2-D set.")
        else:
            others = [
                attempt(
                    f"Training {LEARNERS[k].title}",
                    _train,
                    k,
                    LEARNERS[k].defaults(),
                    epochs,
                    data,
                    request.seed,
                )
                for k in compare
                if k != key
            ]
            compare_runs = [run] + [r for r in others if r is not None]
    if not compare_runs and not hidden("math"):
        rule_box(run, key=f"{PREFIX}rule")
    click = edit_bar(PREFIX, data, clicks=not compare_runs)  # compare charts take no clicks
    # write the URL before the component: its link shows the current values
    state.mark_url_read(PREFIX)
    params = state.write_url(PREFIX, extra=url_entry(PREFIX))
    runs = compare_runs or [run]
    predict = url_predict(request.seed)  # predict mode, as the replay keeps it in the URL
    # a new learner, compare mode or data are seen in the figure at once: a screen reader hears it
    titles = [r.learner.title for r in runs]
    announce_change(f"{PREFIX}view", (*titles, data.title), _view_sentence(titles, data, run))
    with figure:
        attempt(
            "Drawing the run",
            _player,
            request,
            data,
            runs,
            show,
            image,
            params,
            click,
            present,
            predict,
        )
    # a teacher's view is the class's: published once the player shelved it for the students
    live_class.publish(params)
    return request, data, run, predict


def render() -> None:
    state.begin_run()
    with st.sidebar:
        live_class.sidebar(CLASS_PAGE)
        if not hidden("data"):
            st.header("Data")
        request = with_edits(PREFIX, data_panel(PREFIX))
        if not hidden("learner"):
            st.header("Learner")
        key, values, epochs = learner_panel(PREFIX)
        if not hidden("view"):
            st.header("View")
        show, image, compare, present = _view_toggles()
    if not present:  # on a projector the figure and playback come first
        st.title("Playground")
        st.caption(
            "Pick data and a learner in the sidebar; step through training with the "
            "buttons or the keys → ← U E P. With the figure focused, the arrow keys walk "
            "its points (H lists its keys)."
        )
    else:  # the page keeps its heading for a screen reader, out of the projector's picture
        with st.container(key="unseen_title"):
            st.title("Playground", anchor=False)  # no link icon: a hidden Tab stop
    data = _data(request)
    if data is None and request is not None and request.edits:
        # only a link's edits can fail here (clicks and the table are checked first)
        drop_edits(PREFIX)
        request = replace(request, edits=None)
        data = _data(request)
    lanes = (key, *(k for k in compare if k != key)) if compare else (key,)
    try:
        with view_turn(
            PREFIX, view_key(request, lanes, values, epochs), view_estimate(data, lanes, epochs)
        ):
            made = _view(request, data, key, values, epochs, compare, show, image, present)
            if made is not None and not hidden("export"):  # in the view's turn: the CPU of
                request, _, run, predict = made  # the files they build counts as the view's
                _downloads(request, run, show, image, predict)
    except Cancelled:
        return
    if made is None:
        return
    data = made[1]
    if data.n_features == 2 and not hidden("data") and not hidden("edits"):
        # Built only while open: the table's editor on the page delays the component's frame,
        # and the first figure with it (docs/benchmarks.md).
        table = st.expander(
            "Points table: edit, add or delete rows", key=f"{PREFIX}table_open", on_change="rerun"
        )
        if table.open:
            with table:
                points_table(PREFIX, data)


attempt("Drawing the page", render)  # last resort: a message, never a traceback
