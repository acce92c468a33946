"""Words for the page's live region: what a screen reader should say when something changed.

Streamlit draws a page again at every rerun, and a live region drawn with the page is a new
element each time, which screen readers do not follow; so ``ui/pages.js`` makes one polite
live region for the page, outside what Streamlit draws, and says there the text of each
element :func:`announce` writes, once (its ``data-say`` is its identity). The element itself
is hidden and takes no room (``ui/pages.css``). The page decides when something is worth
saying: a check question's verdict, an experiment's end, a new learner in the playground.
"""

from __future__ import annotations

import html
import uuid

import streamlit as st


def announcement(text: str, identity: str | None = None) -> str:
    """The hidden element whose text the page's live region says once.

    Examples
    --------
    >>> announcement("Right. <b>", "a1")
    '<div class="pl-say" data-say="a1" hidden>Right. &lt;b&gt;</div>'
    """
    identity = html.escape(identity or uuid.uuid4().hex)
    return f'<div class="pl-say" data-say="{identity}" hidden>{html.escape(text)}</div>'


def announce(text: str, where=None) -> None:
    """Have the page's live region say ``text`` once (into ``where``, a container, if given)."""
    (st if where is None else where).html(announcement(text))


def announce_change(key: str, what, text: str | None) -> None:
    """Say ``text`` (if any) when ``what`` differs from what it was at the page's last run in
    this session (never at the first): the session's state keeps ``what`` under ``key``."""
    slot = f"_said_{key}"
    seen = slot in st.session_state
    before = st.session_state.get(slot)
    st.session_state[slot] = what
    if seen and before != what and text:
        announce(text)
