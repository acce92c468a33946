"""The learner menu: pick a learner and its settings (every value also lives in the URL).

Keys carry the page's prefix, so a lesson and the playground keep separate
choices. Playback of the recorded run happens in the browser
(:mod:`ui.player`).
"""

from __future__ import annotations

import streamlit as st

from ui.learners import LEARNERS, Setting
from ui.state import control, hidden


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
