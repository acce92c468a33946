"""Never let a traceback reach the page: user-triggered work goes through :func:`attempt`.

The core raises ``ValueError`` (``DataError`` is one) with messages written
for a person; those are shown as text (they may quote a visitor's column
names or values, :mod:`app_logic.visitor_text`). Anything else is a bug: the
page says so in one sentence, the server log keeps the traceback, and the
caller keeps its previous state (``attempt`` returns None).
"""

from __future__ import annotations

import logging

import streamlit as st

from perceptron_lab.app_logic.visitor_text import MESSAGE_LIMIT, as_text

log = logging.getLogger("perceptron_lab")


def attempt(what: str, func, *args, **kwargs):
    """``func(*args, **kwargs)``, or None after an ``st.error`` that says what failed.

    Parameters
    ----------
    what : str
        What the user asked for, as the start of a sentence ("Training",
        "Reading the file").
    """
    try:
        return func(*args, **kwargs)
    except (ValueError, TypeError, MemoryError) as err:
        # The core's validation errors; MemoryError when a setting asks too much.
        message = as_text(str(err) or type(err).__name__, MESSAGE_LIMIT)
        st.error(f"{what} did not work: {message}", icon="⚠️")
    except Exception as err:
        log.exception("%s failed", what)
        st.error(
            f"{what} failed because of an error in Perceptron Lab "
            f"({type(err).__name__}). Your settings are kept; change one and try again.",
            icon="⚠️",
        )
    return None
