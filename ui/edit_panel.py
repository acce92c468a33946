"""Editing the training points of 2-D data: by clicking on the plot and in a table.

The edits (:class:`app_logic.edits.PointEdits`) live in ``st.session_state`` under
``<prefix>edits``, together with the data request they were made on
(``<prefix>edits_for``); :func:`with_edits` adds them to the page's request,
so the data are rebuilt and the learner retrained like after any setting.
They go into the URL as ``edits=...`` (the page writes it). New data (another
set, seed or option) start without edits.

Clicks (sent by the playback component, see :mod:`ui.player`) and table edits go through
:func:`_edit`: the edited points are checked first, and a refused edit
leaves the last good points in place, with a message.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd
import streamlit as st

from perceptron_core.datasets import DataError
from perceptron_lab.app_logic.edits import PointEdits, add_point, edited, remove_near, table_delta
from perceptron_lab.app_logic.payload.scene import axis_box
from perceptron_lab.app_logic.visitor_text import NAME_LIMIT, as_text
from perceptron_lab.ui.player import clicked_point
from perceptron_lab.ui.runs import get_dataset
from perceptron_lab.ui.state import control, hidden

#: What a click on the plot does: widget value -> label.
CLICK_MODES = {
    "off": "nothing",
    "+1": "adds a +1",
    "-1": "adds a −1",
    "remove": "removes nearest",
}
#: "Removes nearest" only removes a point this close to the click (share of the view's diagonal).
REMOVE_REACH = 0.06
URL_NAME = "edits"


def _keys(prefix: str) -> tuple[str, str, str]:
    return f"{prefix}edits", f"{prefix}edits_for", f"{prefix}edit_message"


def with_edits(prefix: str, request):
    """``request`` with the session's point edits (read from the URL on the first run).

    Edits made on other data are dropped, with a toast.
    """
    if request is None:
        return None
    ss = st.session_state
    key, base_key, _ = _keys(prefix)
    if key not in ss:
        ss[key] = PointEdits()
        text = st.query_params.get(URL_NAME)
        if text:
            try:
                ss[key] = PointEdits.from_text(text)
            except ValueError as err:
                st.toast(
                    f"The link's point edits were not used ({as_text(str(err), NAME_LIMIT)}); "
                    "showing the data without them."
                )
    elif ss[base_key] != request:
        if ss[key]:
            st.toast("New data: the point edits made on the previous data were dropped.")
        ss[key] = PointEdits()
    ss[base_key] = request
    return replace(request, edits=ss[key]) if ss[key] else request


def drop_edits(prefix: str) -> None:
    """Forget the point edits (the reset button, and edits that no longer fit the data)."""
    ss = st.session_state
    ss[_keys(prefix)[0]] = PointEdits()
    ss[f"{prefix}table_version"] = ss.get(f"{prefix}table_version", 0) + 1  # a fresh table


def url_entry(prefix: str) -> dict[str, str]:
    """``{"edits": text}`` for the URL while there are edits, else nothing."""
    edits = st.session_state.get(_keys(prefix)[0])
    return {URL_NAME: edits.to_text()} if edits else {}


def _edit(prefix: str, change) -> str | None:
    """Apply a change (see :mod:`app_logic.edits`) to the points; returns why it was refused,
    if it was."""
    ss = st.session_state
    key, base_key, _ = _keys(prefix)
    base = get_dataset(ss[base_key])
    try:
        ss[key] = edited(ss[key], base.X, base.y, change)
    except DataError as err:
        return f"That edit was not applied: {err} The last good points are kept."
    return None


def plot_clicked(prefix: str, component_key: str) -> None:
    """The playback component's callback: a click on the plane adds or removes a point."""
    ss = st.session_state
    mode = ss.get(f"{prefix}click") or "off"
    click = clicked_point(ss.get(component_key))
    if mode == "off" or click is None or click[0] != mode:
        return
    action, point = click
    if action == "remove":
        current = get_dataset(replace(ss[_keys(prefix)[1]], edits=ss[_keys(prefix)[0]] or None))
        x0, x1, y0, y1 = axis_box(current.X)
        change = remove_near(point, REMOVE_REACH * np.hypot(x1 - x0, y1 - y0))
    else:
        change = add_point(point, int(action))
    message = _edit(prefix, change)
    if message:
        ss[_keys(prefix)[2]] = message


def edit_bar(prefix: str, data, clicks: bool = True) -> str:
    """The click mode, the reset button and the point count, above the plot.

    ``clicks=False`` leaves out the click mode (a page whose plots take no
    clicks). Returns the click mode ("off" when the data cannot be edited
    or the data controls are hidden).
    """
    ss = st.session_state
    key, _, message = _keys(prefix)
    if message in ss:
        st.error(ss.pop(message), icon="⚠️")
    edits = ss.get(key) or PointEdits()
    count = f"**{len(data.X):,}** training points" + (f" ({edits.summary()})" if edits else "")
    if data.n_features != 2 or hidden("data") or hidden("edits"):
        st.caption(count)
        return "off"
    # One row that wraps: at 1024 px with the sidebar open, fixed columns cut the
    # click modes and the reset button's label.
    bar = st.container(horizontal=True, vertical_alignment="bottom", gap="medium")
    mode = "off"
    if clicks:
        mode = control(
            bar.segmented_control,
            "A click on the plot",
            f"{prefix}click",
            "off",  # a stray click during a demo must not change the data
            options=list(CLICK_MODES),
            format_func=CLICK_MODES.get,
            prefix=prefix,
            group="data",
            help="Add points of either class where you click (rounded to a thousandth of the "
            "view), or remove the point nearest the click; the learner retrains on the edited "
            "points.",
        )
    bar.button(
        "Reset edits",
        icon=":material/undo:",
        key=f"{prefix}reset_edits",
        on_click=drop_edits,
        args=(prefix,),
        disabled=not edits,
        help="Back to the generated points.",
    )
    with bar, st.container(key=f"{prefix}point_count", width="content"):
        st.markdown(count)
    return mode or "off"


def points_table(prefix: str, data) -> None:
    """The training points as an editable table (2-D data); edits retrain, bad ones are refused.

    The editor's pending changes are read after it is drawn: an accepted
    change reruns the page (new points, so a fresh table); a refused one
    stays in the table, with the message, until it is corrected.
    """
    if data.n_features != 2 or hidden("data") or hidden("edits"):
        return
    table_key = f"{prefix}table{st.session_state.get(f'{prefix}table_version', 0)}"
    names = data.feature_names
    st.data_editor(
        pd.DataFrame(  # examples count from 1 here as everywhere on the page
            {"x1": data.X[:, 0], "x2": data.X[:, 1], "label": data.y},
            index=pd.RangeIndex(1, len(data.y) + 1, name="example"),
        ),
        key=table_key,
        num_rows="dynamic",
        column_config={
            "x1": st.column_config.NumberColumn(names[0], format="%.4g"),
            "x2": st.column_config.NumberColumn(names[1], format="%.4g"),
            "label": st.column_config.NumberColumn(
                "label", help="−1 or +1", min_value=-1, max_value=1, step=1
            ),
        },
        height=320,
        width="stretch",
    )
    st.caption(
        "Change a value, add a row at the bottom or delete rows: the learner retrains. "
        "A row with an empty cell or a label other than −1 / +1 is not applied."
    )
    delta = st.session_state.get(table_key) or {}
    if any(delta.get(part) for part in ("edited_rows", "added_rows", "deleted_rows")):
        message = _edit(prefix, table_delta(delta))
        if message:
            st.error(message, icon="⚠️")
        else:
            st.rerun()
