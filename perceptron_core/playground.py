"""How a learner appears in the app's playground, as plain data a rule's file can carry.

The playground (``ui/``) draws a widget for each :class:`Setting` of a
learner's menu entry. An on-line rule's file in :mod:`perceptron_core.rules`
holds its entry, ``PLAYGROUND``: the keyword arguments of ``app_logic.learners.Learner``
(the menu's title and summary, the estimator class, its settings, the rule in
LaTeX for the math panel, and what its picture draws), so the rule, its
estimator and its place in the menu are written in one file. Nothing here
imports a UI library.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Setting:
    """One constructor argument and its widget.

    ``choices`` gives a select box, a bool ``default`` a toggle, otherwise a
    slider from ``low`` to ``high`` by ``step``. A slider value equal to
    ``none_at`` is passed to the estimator as None (e.g. α-bound 0 = off).
    ``when = (name, values)`` shows the widget only while the setting ``name``
    has one of ``values`` (the estimator gets ``default`` otherwise).
    """

    name: str
    label: str
    default: object
    help: str
    low: float | None = None
    high: float | None = None
    step: float | None = None
    choices: tuple = ()
    none_at: object = "never"
    when: tuple[str, tuple] | None = None

    def to_estimator(self, value):
        return None if value == self.none_at else value


#: The bias switch every linear on-line rule has.
INTERCEPT = Setting(
    "fit_intercept", "Learn a bias", True, "Off: the line must pass through the origin."
)
