"""The playback component in a Streamlit page: the run goes to the browser once.

:func:`playback` draws the figure, the playback controls, the math panel,
the diagnostics and the share box of one to four recorded runs, all inside
one custom component (``ui/playback/``, served as it is: our ES modules
and the Plotly.js bundle in ``ui/playback/vendor/``). Stepping, playing and scrubbing
happen in the browser; the server hears from it only when a click on the
plot edits the points. The payload of a page (:func:`app_logic.payload.build_payload`)
is built once per set of runs and kept in the server's memory budget, so a
rerun that changes nothing about the runs sends a message Streamlit's client
already has.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import streamlit as st
import streamlit.components.v1 as components

from perceptron_lab.app_logic.memory import SERVER
from perceptron_lab.app_logic.payload import Payload, build_payload

# View, HIDEABLE and texts are shared with the exported page and the notebook widget; the
# pages import them from here as before.
from perceptron_lab.app_logic.playback_args import HIDEABLE, View, component_args, texts  # noqa: F401
from perceptron_lab.app_logic.style import STYLE
from perceptron_lab.ui.state import GROUPS

#: The component's folder: its page, scripts, styles and the vendored Plotly.js.
PLAYBACK = Path(__file__).parent / "playback"

#: Rough heights of the parts, for the frame's first size (the browser then reports its own).
CONTROLS_HEIGHT, DIAGNOSTICS_HEIGHT = 130, 470


@st.cache_resource(show_spinner=False)
def _component():
    return components.declare_component("playback", path=str(PLAYBACK))


def page_payload(request, data, runs, extras: Callable | None = None, seed: int = 0) -> Payload:
    """The payload of ``runs`` on ``data`` (built by ``request``), kept in the server's memory
    budget under the runs' serial numbers (never reused), so it does not keep the runs alive."""
    key = (request, tuple(run.serial for run in runs), getattr(extras, "__qualname__", None), seed)

    def build() -> Payload:
        return build_payload(data, runs, seed, extras(runs[0], data) if extras else None)

    return SERVER.cached("payloads", key, build)


def url_step(default: int = 0) -> int:
    """The step in the page's URL (``t=...``), or ``default``."""
    try:
        return max(0, int(st.query_params.get("t", default)))
    except ValueError:
        return default


def rule_box(run, key: str) -> None:
    """The run's update rule, only the terms its settings use (the step's numbers are in the
    component's panel)."""
    with st.container(border=True, key=key):
        st.markdown(f"**{run.learner.title}**")
        st.latex(r"\begin{gathered}" + run.learner.rule_of(run.estimator) + r"\end{gathered}")


def playback(
    key: str, payload: Payload, run, data, view: View = View(), on_click: Callable | None = None
):
    """Draw the component; returns the last click it sent (``{"action", "x", "y", "nonce"}``).

    Parameters
    ----------
    key : str
        The component's key: the same key keeps the browser's state (the
        step, play/pause) across reruns.
    payload : Payload
    run, data
        The first lane's run and the data (for the texts).
    view : View
        What is drawn and how.
    on_click : callable, optional
        Called (with no arguments) before the rerun that a click causes;
        the click is then in ``st.session_state[key]``.
    """
    style = view.style or STYLE
    figure = view.height or style["figure"]["height"]
    frame = figure + CONTROLS_HEIGHT
    frame += DIAGNOSTICS_HEIGHT if view.diagnostics and "diagnostics" not in view.hide else 0
    return _component()(
        key=key,
        **component_args(payload, run, data, view, GROUPS),
        height=frame,
        default=None,
        on_change=on_click,
    )


def clicked_point(value) -> tuple[str, tuple[float, float]] | None:
    """``(action, (x, y))`` from the component's value, or None when it is not a click.

    Examples
    --------
    >>> clicked_point({"action": "+1", "x": 0.5, "y": -1, "nonce": "1"})
    ('+1', (0.5, -1.0))
    >>> clicked_point({"action": "+1", "x": "a", "y": 0}) is None
    True
    """
    if not isinstance(value, dict) or value.get("action") not in ("+1", "-1", "remove"):
        return None
    x, y = value.get("x"), value.get("y")
    if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in (x, y)):
        return None
    if not np.isfinite([x, y]).all():
        return None
    return value["action"], (float(x), float(y))
