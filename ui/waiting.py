"""A view's turn, on its page: the queue's place shown while it waits, and a button to leave it.

:func:`view_turn` wraps the making of a page's view in the server's admission gate
(:data:`app_logic.admission.VIEWS`) and its CPU meter (:func:`app_logic.view_cost.metered`).
While the view waits, the page shows its place ("2 views ahead of yours in the queue"),
updated as the queue moves (at most once a second: :data:`app_logic.admission.PLACE_SECONDS`),
with a *Leave the queue* button; the page's live region says each place shown, and the note
after leaving (:mod:`ui.announce`: a region drawn by Streamlit with its text is often not
read). A closed tab or a rerun (a new setting) takes the view
out of the queue at once: the wait asks Streamlit's own check for that. Leaving the queue is
a rerun too; the next run of the page sees it and shows, for that view, a note and a button
to queue again instead of queueing it.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager

import streamlit as st

from perceptron_lab.app_logic.admission import VIEWS, Gate, Place
from perceptron_lab.app_logic.memory import release_freed_memory
from perceptron_lab.app_logic.view_cost import metered
from perceptron_lab.ui.announce import announce, announce_change
from perceptron_lab.ui.runs import still_wanted

#: What a waiting view's place begins with.
WAITING = "The server is making other visitors' views; yours waits for its turn. "
#: The note after leaving the queue.
LEFT = (
    "You left the queue for this view. Change a setting to ask for another one, "
    "or queue for it again."
)


def place_text(text: str) -> str:
    """The waiting view's place, ``text``, as the HTML ``st.markdown`` writes into its box.

    What a screen reader hears is said by the page's live region (:func:`ui.announce.announce`).

    Examples
    --------
    >>> place_text("Yours is next in the queue (2 being made now).")
    '<div class="queue-place">Yours is next in the queue (2 being made now).</div>'
    """
    return f'<div class="queue-place">{html.escape(text, quote=False)}</div>'


class Cancelled(Exception):
    """The visitor cancelled this view's wait; the page shows a note, not the view."""


def _note_cancel(prefix: str, key: Hashable) -> None:
    st.session_state[f"{prefix}cancelled_view"] = key


def _queue_again(prefix: str) -> None:
    st.session_state.pop(f"{prefix}cancelled_view", None)


@contextmanager
def view_turn(
    prefix: str,
    key: Hashable,
    estimate: Callable[[], int],
    gate: Gate = VIEWS,
    cpu_meter: bool = True,
    again: bool = False,
) -> Iterator[None]:
    """Make the view ``key`` in the block when its turn comes (see the module's docstring).

    Parameters
    ----------
    prefix : str
        The page's session-key prefix (the leave button's key and the note's).
    key : hashable
        The view: the same key is made once at a time (the others wait for it).
    estimate : callable
        Bytes the view will allocate (:func:`app_logic.view_cost.view_bytes`).
    gate : Gate
        The queue (the views', or the experiments page's runs').
    cpu_meter : bool
        Whether the work in the block is a view, whose CPU in this thread is metered
        (:func:`app_logic.view_cost.metered`).
    again : bool
        The visitor asked anew (a Run button): an earlier leave of this key's queue is forgotten.

    Raises
    ------
    Cancelled
        The visitor cancelled this view (in this run, or in an earlier one for the same key).
    """
    ss = st.session_state
    if again:
        _queue_again(prefix)
    left = ss.get(f"{prefix}cancelled_view") == key
    announce_change(f"{prefix}queue_left", left, LEFT if left else None)
    if left:
        st.info(LEFT, icon=":material/hourglass_disabled:")
        st.button("Queue again", key=f"{prefix}queue_again", on_click=_queue_again, args=(prefix,))
        raise Cancelled()
    box = st.empty()
    shown: list = []  # the place's slot and its announcement's, once drawn

    def waiting(place: Place) -> None:
        text = WAITING + place.sentence()
        if not shown:
            with box.container(key=f"{prefix}queue"):
                shown.extend((st.empty(), st.empty()))
                st.button(
                    "Leave the queue",
                    key=f"{prefix}queue_cancel",
                    on_click=_note_cancel,
                    args=(prefix, key),
                    help="Stop waiting for this view; the page keeps its settings.",
                )
        shown[0].markdown(place_text(text), unsafe_allow_html=True)
        announce(text, where=shown[1])

    interrupt = still_wanted()
    try:
        with gate.admitted(key, estimate, waiting, interrupt):
            box.empty()
            if cpu_meter:
                with metered(interrupt=interrupt):
                    yield
            else:
                yield
    finally:
        box.empty()
        release_freed_memory()  # what the view freed, back to the system before the next
