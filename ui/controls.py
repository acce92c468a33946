"""Controls shared by every page: the learner menu and the playback of a recorded run.

Playback never retrains: the run is recorded once and these controls move
the time step ``t`` (session key ``<prefix>t``) through its timeline. Keys
carry the page's prefix, so a lesson and the playground keep separate
positions.
"""

from __future__ import annotations

import time

import streamlit as st

from ui.learners import LEARNERS, Setting
from ui.state import control, hidden
from ui.timeline import Timeline

#: Playback speeds offered, in steps per second (a step is one example, update or epoch).
SPEEDS = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000)
UNITS = ("example", "update", "epoch")
#: Shortest time between two animation frames: one frame costs about 50-100 ms to draw.
MIN_FRAME_SECONDS = 0.35


# -- the learner menu -------------------------------------------------------------


def _setting_widget(setting: Setting, key: str, prefix: str):
    common = {"prefix": prefix, "group": "learner", "help": setting.help}
    if setting.choices:
        return control(
            st.selectbox,
            setting.label,
            key,
            setting.default,
            options=list(setting.choices),
            **common,
        )
    if isinstance(setting.default, bool):
        return control(st.toggle, setting.label, key, setting.default, **common)
    return control(
        st.slider,
        setting.label,
        key,
        setting.default,
        min_value=setting.low,
        max_value=setting.high,
        step=setting.step,
        **common,
    )


def learner_panel(prefix: str, default: str = "perceptron", epochs: int = 20,
                  choices: tuple[str, ...] | None = None) -> tuple[str, dict, int]:  # fmt: skip
    """Draw the learner menu and its settings; returns ``(key, settings, epochs)``.

    ``choices`` limits the menu (a lesson offers the learners it is about).
    """
    keys = list(choices or LEARNERS)
    key = control(
        st.selectbox,
        "Learner",
        f"{prefix}learner",
        default,
        options=keys,
        format_func=lambda k: LEARNERS[k].title,
        prefix=prefix,
        group="learner",
    )
    learner = LEARNERS[key]
    if not hidden("learner"):
        st.caption(learner.summary)
    values = {
        s.name: _setting_widget(s, f"{prefix}{key}_{s.name}", prefix) for s in learner.settings
    }
    n_epochs = control(
        st.slider,
        "Epochs",
        f"{prefix}epochs",
        epochs,
        min_value=1,
        max_value=200,
        step=1,
        prefix=prefix,
        group="learner",
        help="Passes over the training data (recorded once, then replayed).",
    )
    return key, values, int(n_epochs)


# -- playback ------------------------------------------------------------------------


def _set(key: str, value: int) -> None:
    st.session_state[key] = int(value)


def _advance(tl: Timeline, t: int, unit: str, steps: int) -> int:
    for _ in range(steps):
        if unit == "update":
            t = tl.next_update(t)
        elif unit == "epoch":
            t = tl.end_of_epoch(t)
        else:
            t = tl.clip(t + 1)
    return t


def play_interval(prefix: str) -> float | None:
    """Seconds between animation frames while playing (None when paused)."""
    if not st.session_state.get(f"{prefix}playing", False):
        return None
    return max(MIN_FRAME_SECONDS, 1.0 / st.session_state.get(f"{prefix}speed", 10))


def _initial_step(prefix: str) -> int:
    """The step in the URL (``t=...``) on a session's first run, else 0."""
    try:
        return max(0, int(st.query_params.get("t", 0)))
    except ValueError:
        return 0


def playback_controls(prefix: str, tl: Timeline) -> int:
    """Step buttons (with keyboard shortcuts), play/pause, speed and the scrubber.

    Returns the time step to draw. Call inside the fragment that draws the
    figure, so a step redraws only that fragment.
    """
    ss = st.session_state
    tkey, pkey = f"{prefix}t", f"{prefix}playing"
    if tkey not in ss:
        ss[tkey] = _initial_step(prefix)
    ss[tkey] = tl.clip(ss[tkey])  # a new run may be shorter
    t = ss[tkey]
    playing = ss.get(pkey, False)
    if not playing:  # the step is part of the link (not while playing: no URL churn)
        if t and st.query_params.get("t") != str(t):
            st.query_params["t"] = str(t)
        elif not t and "t" in st.query_params:
            del st.query_params["t"]
    if hidden("controls"):
        return t
    unit = ss.get(f"{prefix}unit", "example")
    speed = ss.get(f"{prefix}speed", 10)
    if playing:
        # a tick: move on if a frame's time has passed (button clicks rerun too)
        frame = play_interval(prefix)
        last = ss.get(f"{prefix}tick", 0.0)
        if time.monotonic() - last >= 0.8 * frame:
            ss[f"{prefix}tick"] = time.monotonic()
            t = ss[tkey] = _advance(tl, t, unit, max(1, round(speed * frame)))
        if t >= tl.n_events:
            ss[pkey] = False
            st.rerun()
    # widths fit each label with its shortcut badge ("Home", "E") at 1,400 px
    cols = st.columns([1.3, 1, 1, 1.3, 1.5, 1, 0.9])
    cols[0].button(
        "Start",
        icon=":material/first_page:",
        key=f"{prefix}reset",
        help="Back to the start (Home)",
        on_click=_set,
        args=(tkey, 0),
        shortcut="Home",
        width="stretch",
    )
    cols[1].button(
        "Back",
        icon=":material/chevron_left:",
        key=f"{prefix}back",
        help="Step back one example (←)",
        on_click=_set,
        args=(tkey, tl.clip(t - 1)),
        shortcut="Left",
        width="stretch",
    )
    cols[2].button(
        "Step",
        icon=":material/chevron_right:",
        key=f"{prefix}step",
        help="Step one example (→)",
        on_click=_set,
        args=(tkey, tl.clip(t + 1)),
        shortcut="Right",
        width="stretch",
    )
    cols[3].button(
        "Next update",
        icon=":material/redo:",
        key=f"{prefix}next_update",
        help="Step to the next update (U)",
        on_click=_set,
        args=(tkey, tl.next_update(t)),
        shortcut="U",
        width="stretch",
    )
    cols[4].button(
        "End of epoch",
        icon=":material/last_page:",
        key=f"{prefix}next_epoch",
        help="Step to the end of this epoch (E)",
        on_click=_set,
        args=(tkey, tl.end_of_epoch(t)),
        shortcut="E",
        width="stretch",
    )
    if cols[5].button(
        "Pause" if playing else "Play",
        key=f"{prefix}play",
        icon=":material/pause:" if playing else ":material/play_arrow:",
        help="Play / pause (P)",
        shortcut="P",
        width="stretch",
        type="primary",
    ):
        ss[pkey] = not playing
        if ss[pkey] and t >= tl.n_events:
            ss[tkey] = 0
        ss[f"{prefix}tick"] = 0.0
        st.rerun()
    cols[6].button(
        "End",
        icon=":material/skip_next:",
        key=f"{prefix}end",
        help="Jump to the end of training",
        on_click=_set,
        args=(tkey, tl.n_events),
        width="stretch",
    )
    st.slider(
        "Time step",
        0,
        max(tl.n_events, 1),
        key=tkey,
        label_visibility="collapsed",
        help="Scrub through the whole recorded run.",
        disabled=tl.n_events == 0,
    )
    speed_col, unit_col = st.columns(2)
    speed_col.select_slider(
        "Speed (steps per second)",
        options=SPEEDS,
        value=speed,
        key=f"{prefix}speed_widget",
        on_change=_copy,
        args=(f"{prefix}speed_widget", f"{prefix}speed"),
    )
    unit_col.segmented_control(
        "Play by",
        UNITS,
        default=unit,
        key=f"{prefix}unit_widget",
        on_change=_copy,
        args=(f"{prefix}unit_widget", f"{prefix}unit"),
    )
    return int(ss[tkey])


def _copy(source: str, target: str) -> None:
    value = st.session_state.get(source)
    if value is not None:
        st.session_state[target] = value
