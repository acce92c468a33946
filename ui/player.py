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

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import streamlit as st
import streamlit.components.v1 as components

from app_logic.diagnostics import novikoff_for
from app_logic.math_panel import COMMITTEE_NOTE, OUTCOME, WHY
from app_logic.memory import SERVER
from app_logic.payload import Payload, build_payload
from app_logic.style import STYLE, Show
from perceptron_core.datasets import DataError
from ui.state import GROUPS

#: The component's folder: its page, scripts, styles and the vendored Plotly.js.
PLAYBACK = Path(__file__).parent / "playback"

#: The parts of the component a page (or a student link) may hide; playback always shows.
HIDEABLE = ("math", "diagnostics", "link", "export")
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
        payload = build_payload(data, runs, seed, extras(runs[0], data) if extras else None)
        try:  # the browser reads JSON, which has no inf or NaN
            json.dumps(payload.meta, allow_nan=False)
        except ValueError:
            raise DataError(
                "This run's numbers left floating point's range (inf or NaN), so no figure can "
                "draw them. Scale the features (standardise them) or use a smaller eta."
            ) from None
        return payload

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


def texts(run, data) -> dict:
    """The words the browser puts around the numbers (kept in Python, with the rest of the prose)."""
    sentence, bound = novikoff_for(run, data)
    return {
        "outcome": {str(k): v for k, v in OUTCOME.items()},
        "why": {str(k): v for k, v in WHY.items()},
        "committee": COMMITTEE_NOTE,
        "novikoff": sentence,
        "novikoff_bound": bound,
    }


@dataclass(frozen=True)
class View:
    """How a page shows its runs in the component (everything but the runs themselves).

    Attributes
    ----------
    show : Show
        What the figures draw.
    initial_t : int
        The step a new browser view opens on (later views keep their own).
    height : int, optional
        The main figure's height in pixels (the style's by default).
    click : str
        What a click on the 2-D plot does: "off", "+1", "-1" or "remove".
    image : str
        "png" or "svg": the format of the figure downloads.
    hide : set of str
        Parts to leave out, of :data:`HIDEABLE` (the playback controls always show).
    diagnostics : bool
        Draw the diagnostics under the figure.
    share : dict, optional
        ``{"base": url, "params": {...}, "record": {...}}``: the share box
        (link and exports); None leaves it out.
    style : dict, optional
        The look (:data:`app_logic.style.STYLE` by default).
    """

    show: Show = field(default_factory=Show)
    initial_t: int = 0
    height: int | None = None
    click: str = "off"
    image: str = "png"
    hide: frozenset = frozenset()
    diagnostics: bool = True
    share: dict | None = None
    style: dict | None = None

    def options(self, figure_height: int) -> dict:
        """The options the browser reads (``args.options``)."""
        share = self.share or {}
        return {
            "initial_t": int(self.initial_t),
            "height": figure_height,
            "click": self.click,
            "image": self.image,
            "hide": {part: part in self.hide for part in HIDEABLE},
            "student_groups": GROUPS,
            "diagnostics": self.diagnostics,
            "share": self.share is not None,
            "link_base": share.get("base", ""),
            "link_params": share.get("params", {}),
            "record": share.get("record"),
        }


def playback(key: str, payload: Payload, run, data, view: View = View(),
             on_click: Callable | None = None):  # fmt: skip
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
        payload_id=payload.id,
        meta=payload.meta,
        header=payload.header,
        blob=payload.blob,
        show=view.show.to_json(),
        style=style,
        texts=texts(run, data),
        options=view.options(figure),
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
