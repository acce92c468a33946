"""Widgets whose values live in ``st.session_state`` *and* in the page URL.

Every control of a page is created through :func:`control`, with a key that
carries the page's prefix (``pg_`` for the playground). On the first run of
a session the value comes from the URL's query string when it is there and
valid; after each run :func:`write_url` puts every value that differs from
its default back into the URL, so a copied link reproduces the view. A
teacher's link can hide groups of controls with ``hide=data,learner``: the
values still apply, the widgets are not drawn. Playback is never hidden.
"""

from __future__ import annotations

import math

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from perceptron_lab.app_logic.visitor_text import as_text

_REGISTRY = "_url_controls"  # session key: {widget key: default} of this run
_LOADED = "_url_loaded"  # session key: the URL has been read once
_LINK = "_url_link"  # session key: (page, the link's entries) as this run began
HIDE = "hide"
#: URL entries that no control owns: the hidden groups, the time step and predict mode (the
#: browser component keeps ``t``, ``predict`` and ``ask`` in step while playback is paused,
#: see ui/playback/share.js) and a student's seat in a live class (ui/live_class.py).
PRESERVED = (HIDE, "t", "predict", "ask", "seat")
#: URL entries a page keeps when it opens another view's link (:func:`load_link`): they are
#: the screen's own, not the view's.
SCREEN = ("present", HIDE)
#: What a teacher's link may hide from students (``hide=...``), as the share box offers it.
GROUPS = {
    "data": "change the data",
    "learner": "change the learner and its settings",
    "view": "change the view",
    "edits": "edit the points (clicks on the plot, the points table)",
    "export": "download figures, the run and the points",
    "link": "see and copy this link",
    "math": "see the math panel",
    "diagnostics": "see the diagnostics",
}
#: An earlier spelling: ``hide=controls`` hid the playback itself; it now means the sidebar.
_SIDEBAR = {"controls": ("data", "learner", "view")}
#: The longest value a link may give a control; longer ones are not parsed at all (the
#: longest real one, every learner's name in a list, is 111 characters; a value of tens of
#: thousands of characters froze the page: docs/benchmarks.md).
MAX_LINK_VALUE = 1_000


def begin_run() -> None:
    """Start collecting this run's URL controls, and read the link once for the run (call
    once at the top of a page)."""
    st.session_state[_REGISTRY] = {}
    st.session_state[_LINK] = (_page(), st.query_params.to_dict())


def _page() -> str | None:
    ctx = get_script_run_ctx()
    return None if ctx is None else ctx.page_script_hash


def _link() -> dict[str, str]:
    """The link's entries as :func:`begin_run` read them for this page, else as they are now.

    A read of ``st.query_params`` takes a lock and Streamlit's metrics wrapper, and a new
    session's first run of the playground read it 88 times, once for every control's value
    and once for whether its group is hidden (docs/benchmarks.md, "lean-views-intel").
    """
    page, link = st.session_state.get(_LINK, (None, None))
    return st.query_params.to_dict() if link is None or page != _page() else link


def hidden(group: str) -> bool:
    """Whether the URL asks to hide this group (one of :data:`GROUPS`) from the visitor."""
    asked = _link().get(HIDE, "").split(",")
    return group in asked or any(group in _SIDEBAR.get(name, ()) for name in asked)


def _url_name(key: str, prefix: str) -> str:
    return key.removeprefix(prefix)


def _parse(text: str, default, options=None, low=None, high=None, most=None):
    """The URL text as a value of the default's type, or ValueError.

    Lists (multiselect) are comma-separated; ``most`` caps their length.
    """
    if isinstance(default, bool):
        if text not in ("0", "1"):
            raise ValueError(text)
        value = text == "1"
    elif isinstance(default, int):
        value = int(text)
    elif isinstance(default, float):
        value = float(text)
        if not math.isfinite(value):  # "nan" and "inf" parse, but no control takes them
            raise ValueError(text)
    elif isinstance(default, list):
        # a repeated entry means the same choice once (a multiselect holds each option once)
        value = list(dict.fromkeys(part for part in text.split(",") if part))
        if options is not None and not set(value) <= set(options):
            raise ValueError(text)
        if most is not None and len(value) > most:
            raise ValueError(text)
        return value
    else:
        value = text
    if options is not None and value not in options:
        raise ValueError(text)
    if low is not None and not low <= value <= high:
        raise ValueError(text)
    return value


def _format(value) -> str:
    if isinstance(value, list):
        return ",".join(map(str, value))
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, float):
        return f"{value:.10g}"
    return str(value)


def control(
    widget, label: str, key: str, default, *, prefix: str, group: str, url: bool = True, **kwargs
):
    """Create ``widget`` (``st.slider``, ``st.selectbox``, ...) bound to ``key``.

    The first time a key is seen its value comes from the URL (if valid) or
    ``default``; a hidden group returns the value without drawing anything.
    ``kwargs`` go to the widget (``options``, ``min_value``/``max_value``,
    ``step``, ``help`` ...).
    """
    ss = st.session_state
    name = _url_name(key, prefix)
    if url:
        ss.setdefault(_REGISTRY, {})[key] = (default, prefix)
    if key not in ss:
        ss[key] = default
        text = _link().get(name) if url and not ss.get(_LOADED + prefix) else None
        if text is not None and len(text) > MAX_LINK_VALUE:
            st.toast(
                f"The link's value for {as_text(label)} is {len(text):,} characters long, "
                f"more than the {MAX_LINK_VALUE:,} a value may have; using the default."
            )
        elif text is not None:
            try:
                ss[key] = _parse(
                    text,
                    default,
                    kwargs.get("options"),
                    kwargs.get("min_value"),
                    kwargs.get("max_value"),
                    kwargs.get("max_selections"),
                )
            except ValueError:
                st.toast(
                    f"The link's value “{as_text(text)}” for {as_text(label)} was not "
                    "understood; using the default."
                )
    if hidden(group):
        return ss[key]
    return widget(label, key=key, **kwargs)


def mark_url_read(prefix: str) -> None:
    """After the first full run, later new widgets take defaults, not the URL."""
    st.session_state[_LOADED + prefix] = True


def url_params(prefix: str) -> dict[str, str]:
    """``{name: text}`` of this run's controls whose value differs from the default."""
    ss = st.session_state
    out = {}
    for key, (default, pre) in ss.get(_REGISTRY, {}).items():
        if pre == prefix and key in ss and ss[key] != default:
            out[_url_name(key, prefix)] = _format(ss[key])
    return out


def write_url(prefix: str, extra: dict[str, str] | None = None) -> dict[str, str]:
    """Put this run's non-default values into the URL; returns them.

    ``extra`` holds entries the page keeps itself (the playground's point
    edits); :data:`PRESERVED` entries stay as they are.
    """
    params = url_params(prefix) | (extra or {})
    for name in PRESERVED:
        if name in st.query_params:
            params[name] = st.query_params[name]
    if dict(st.query_params) != params:
        st.query_params.from_dict(params)
    return params


def load_link(prefix: str, params: dict[str, str], keep: tuple[str, ...] = ()) -> None:
    """Open the link ``params`` (its query's entries) in this session, as if it had been
    opened: at the next run every control of the page (``prefix``) takes the link's value,
    or its default. The screen's own entries (:data:`SCREEN`) stay; session keys in ``keep``
    (the replay component's, whose browser state a new view keeps) are not reset.
    """
    ss = st.session_state
    for key in [k for k in ss if isinstance(k, str) and k.startswith(prefix) and k not in keep]:
        del ss[key]
    ss.pop(_LOADED + prefix, None)
    screen = {name: st.query_params[name] for name in SCREEN if name in st.query_params}
    st.query_params.from_dict({**params, **screen})
    ss[_LINK] = (_page(), {**params, **screen})
