"""The learner menu: pick a learner and its settings (every value also lives in the URL).

Keys carry the page's prefix, so a lesson and the playground keep separate
choices. Playback of the recorded run happens in the browser
(:mod:`ui.player`).
"""

from __future__ import annotations

import math

import streamlit as st

from perceptron_lab.app_logic.learners import LEARNERS
from perceptron_lab.app_logic.setting import Setting
from perceptron_lab.ui.state import control, hidden


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
        format=slider_format(setting.step),
        **common,
    )


def slider_format(step) -> str | None:
    """As many decimals as the step has, so 0.001 never shows as "0.00" (Streamlit's default).

    Examples
    --------
    >>> slider_format(1e-4), slider_format(0.05), slider_format(1) is None
    ('%.4f', '%.2f', True)
    """
    if step is None or float(step).is_integer():
        return None
    return f"%.{max(0, -math.floor(math.log10(step) + 1e-9))}f"


def _applies(setting: Setting, values: dict) -> bool:
    """Whether the setting's widget shows, given the values chosen above it."""
    return setting.when is None or values.get(setting.when[0]) in setting.when[1]


def learner_panel(
    prefix: str,
    default: str = "perceptron",
    epochs: int = 20,
    choices: tuple[str, ...] | None = None,
) -> tuple[str, dict, int]:
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
    values: dict = {}
    for s in learner.settings:  # in order: a setting's `when` names one above it
        shown = _applies(s, values)
        values[s.name] = (
            _setting_widget(s, f"{prefix}{key}_{s.name}", prefix) if shown else s.default
        )
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
