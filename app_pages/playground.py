"""The playground: pick data and a learner, then move through its training step by step.

The run is trained once (cached) with every visit recorded; the controls
move the time step and only the stage (figure, math, diagnostics) redraws.
Points of 2-D data can be added and removed by clicking on the plot or in a
table (:mod:`ui.edit_panel`); that retrains. Every setting, the point edits
and the step live in the URL. Session keys start with ``pg_``.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial

import numpy as np
import streamlit as st

from ui import state
from ui.controls import learner_panel, play_interval, playback_controls
from ui.data_panel import data_panel
from ui.diagnostics import accuracies_at, diagnostics_panel
from ui.edit_panel import (
    drop_edits,
    edit_bar,
    edits_changed,
    plot_clicked,
    points_table,
    url_entry,
    with_edits,
)
from ui.export import events_csv, points_csv, run_json, run_record
from ui.figures import (
    Show,
    angle_figure,
    axis_box,
    margin_histogram,
    plane_figure,
    projection_figure,
)
from ui.learners import LEARNERS
from ui.math_panel import math_panel
from ui.runs import get_dataset, train
from ui.safety import attempt
from ui.state import control, hidden

PREFIX = "pg_"
CHART_CONFIG = {"displaylogo": False, "modeBarButtonsToRemove": ["select2d", "lasso2d"]}


def _view_toggles() -> tuple[Show, str, tuple[str, ...]]:
    """The View section: what the picture draws, the image format, compare mode."""

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
            "Dotted: the line the data came from (generated sets).",
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
            "Dotted purple: the hypothesis with the longest run of correct predictions so far.",
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
        help="The camera button above the figure downloads it in this format.",
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
    return show, image or "png", tuple(compare)


def _data(request):
    """The requested data, or None after a message."""
    data = attempt("Loading the data", get_dataset, request) if request else None
    if data is not None and len(np.unique(data.y)) < 2:
        st.error("The training part has only one class; choose another class, data set or split.")
        return None
    return data


def _train(key, values, epochs, data, seed):
    return train(
        key, tuple(sorted(values.items())), epochs, seed, data.X, data.y, data.X_test, data.y_test
    )


def _last_good(request, data, key, values, epochs):
    """Train on the requested data; after any error keep showing the last good view.

    Returns ``(request, data, run)`` (all None before anything worked): the
    data and the run always belong together, so an error never mixes new
    data with an old run.
    """
    ss = st.session_state
    run = attempt("Training", _train, key, values, epochs, data, request.seed) if data else None
    if run is not None:
        ss[f"{PREFIX}last_good"] = (request, data, run)
    elif f"{PREFIX}last_good" in ss:
        st.caption("Still showing the last view that worked.")
    return ss.get(f"{PREFIX}last_good", (None, None, None))


def _share_and_export(run, data, request, t, params):
    st.markdown(
        "**Link to this view** (settings, seed, point edits and step; an uploaded file is "
        "not part of the link). Add `&hide=data,learner` to hide control groups from students."
    )
    st.code(state.share_link({**params, "t": str(t)}), language=None, wrap_lines=True)
    record = run_record(run, data, request, t, accuracies_at(run, data, t))
    downloads = [  # key, label, data (a callable runs on click), file name, MIME type, help
        ("json", "Run as JSON (settings, metrics)", run_json(record), "perceptron-run.json",
         "application/json", None),
        ("csv", "Every step as CSV (the trace)", lambda: events_csv(run), "perceptron-trace.csv",
         "text/csv", None),
        ("points", "Training points as CSV", lambda: points_csv(data), "perceptron-points.csv",
         "text/csv", "After noise and your edits: the file can be uploaded again."),
    ]  # fmt: skip
    for column, (key, label, content, file_name, mime, help_text) in zip(
        st.columns(len(downloads)), downloads, strict=True
    ):
        column.download_button(
            label,
            content,
            file_name=file_name,
            mime=mime,
            key=f"{PREFIX}dl_{key}",
            width="stretch",
            on_click="ignore",
            help=help_text,
        )


def _stage(request, data, run, show, image, compare_runs, params, clickable):
    """Everything that depends on the time step: redrawn alone when the step changes."""
    if edits_changed(PREFIX, request):
        st.rerun()  # a click changed the points: retrain, which is the whole page's work
    tl = run.timeline
    t = playback_controls(PREFIX, tl)
    config = CHART_CONFIG | {
        "toImageButtonOptions": {"format": image, "filename": "perceptron-lab"}
    }
    mode = run.learner.shown_mode(run.values)
    show = Show(**{**show.__dict__, "mode": mode})
    two_d = data.n_features == 2
    if compare_runs:
        box = axis_box(data.X, data.X_test)
        cols = st.columns(len(compare_runs))
        for col, other in zip(cols, compare_runs):
            with col:
                st.markdown(f"**{other.learner.title}**")
                other_show = Show(
                    **{**show.__dict__, "mode": other.learner.shown_mode(other.values)}
                )
                col.plotly_chart(
                    plane_figure(
                        data,
                        other,
                        min(t, other.timeline.n_events),
                        other_show,
                        height=420,
                        box=box,
                    ),
                    width="stretch",
                    config=config,
                    key=f"{PREFIX}cmp_{other.learner_key}",
                )
        return
    fig_col, math_col = st.columns([3, 2]) if not hidden("math") else (st.container(), None)
    with fig_col:
        if two_d:
            click = partial(plot_clicked, PREFIX, f"{PREFIX}figure") if clickable else "ignore"
            st.plotly_chart(
                plane_figure(data, run, t, show, clickable=clickable),
                width="stretch",
                config=config,
                key=f"{PREFIX}figure",
                on_select=click,
                selection_mode="points",
            )
        elif tl.W.shape[2] == 0 or tl.n_members > 1:
            st.info(
                "This learner has no single weight vector to project on; use 2-D data "
                "to see its boundary."
            )
        else:
            st.plotly_chart(
                projection_figure(data, run, t, show, seed=request.seed),
                width="stretch",
                config=config,
                key=f"{PREFIX}projection",
            )
            a, b = st.columns(2)
            if data.w_star is not None:
                a.plotly_chart(
                    angle_figure(data, run, t),
                    width="stretch",
                    config=config,
                    key=f"{PREFIX}angle",
                )
            b.plotly_chart(
                margin_histogram(data, run, t),
                width="stretch",
                config=config,
                key=f"{PREFIX}margins",
            )
    if math_col is not None:
        with math_col, st.container(border=True, key=f"{PREFIX}math"):
            math_panel(run, data, t)
    if not hidden("diagnostics"):
        with st.expander("Diagnostics", expanded=True):
            diagnostics_panel(run, data, t, PREFIX)
        with st.expander("Share and export"):
            _share_and_export(run, data, request, t, params)


def render() -> None:
    st.title("Playground")
    st.caption(
        "Pick data and a learner in the sidebar; step through training with the "
        "buttons or the keys → ← U E P."
    )
    state.begin_run()
    with st.sidebar:
        if not hidden("data"):
            st.header("Data")
        request = with_edits(PREFIX, data_panel(PREFIX))
        if not hidden("learner"):
            st.header("Learner")
        key, values, epochs = learner_panel(PREFIX)
        if not hidden("view"):
            st.header("View")
        show, image, compare = _view_toggles()
    data = _data(request)
    if data is None and request is not None and request.edits:
        # only a link's edits can fail here (clicks and the table are checked first)
        drop_edits(PREFIX)
        request = replace(request, edits=None)
        data = _data(request)
    request, data, run = _last_good(request, data, key, values, epochs)
    if run is None:
        st.info("Choose or upload data to start.")
        return
    for note in data.notes:
        st.caption(note)
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
    click = edit_bar(PREFIX, data, clicks=not compare_runs)  # compare charts take no clicks
    # write the URL before the stage: its link shows the current values
    state.mark_url_read(PREFIX)
    params = state.write_url(PREFIX, extra=url_entry(PREFIX))
    st.fragment(run_every=play_interval(PREFIX))(attempt)(
        "Drawing this step",
        _stage,
        request,
        data,
        run,
        show,
        image,
        compare_runs,
        params,
        clickable=click != "off",
    )
    if data.n_features == 2 and not hidden("data"):
        with st.expander("Points table: edit, add or delete rows"):
            points_table(PREFIX, data)


attempt("Drawing the page", render)  # last resort: a message, never a traceback
