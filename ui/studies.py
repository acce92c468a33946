"""A lesson's study on its page: read when it was prepared, else computed under a progress bar.

The studies and their cache are :mod:`app_logic.lesson_studies`; this module
only shows the progress of one being computed (by this session, or by
another session that asked first: then this one follows that one's bar).
"""

from __future__ import annotations

import streamlit as st

from perceptron_lab.app_logic import lesson_studies


def lesson_study(name: str, **settings):
    """The study ``name`` of :data:`app_logic.lesson_studies.STUDIES` with these settings.

    Read at once when it is in memory or on disk (``perceptron-lab warm``
    prepares every lesson's defaults); otherwise computed here with an
    ``st.progress`` bar that gives the share done and what is being computed,
    removed when the result is ready.
    """
    found = lesson_studies.stored(name, settings)
    if found is not None:
        return found
    what = lesson_studies.STUDIES[name].what
    bar = st.progress(0.0, text=f"{what} …")

    def report(share: float, text: str) -> None:
        bar.progress(min(max(share, 0.0), 1.0), text=f"{what}: {text}")

    try:
        return lesson_studies.result(name, settings, progress=report)
    finally:
        bar.empty()
