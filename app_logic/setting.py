"""One widget of the learner menu: a constructor argument, its label, help and range.

The playground (``ui/``) draws a widget for each :class:`Setting` of a menu entry
(:class:`perceptron_lab.app_logic.learners.Learner`). A setting's default is the estimator's
own (its ``get_params()``) unless the menu chooses another one for the picture; nothing here
imports a UI library.
"""

from __future__ import annotations

from dataclasses import dataclass, replace


class _EstimatorDefault:
    """The marker of a setting whose default is read from its estimator."""

    def __repr__(self) -> str:
        return "ESTIMATOR_DEFAULT"


#: ``Setting(default=...)`` left out: the estimator's own default (see :meth:`Setting.filled`).
ESTIMATOR_DEFAULT = _EstimatorDefault()


@dataclass(frozen=True)
class Setting:
    """One constructor argument and its widget.

    ``choices`` gives a select box, a bool default a toggle, otherwise a
    slider from ``low`` to ``high`` by ``step``. A slider value equal to
    ``none_at`` is passed to the estimator as None (e.g. α-bound 0 = off).
    ``when = (name, values)`` shows the widget only while the setting ``name``
    has one of ``values`` (the estimator gets ``default`` otherwise).
    ``default`` is given only where the menu's picture wants another value than
    the estimator's own.
    """

    name: str
    label: str
    help: str
    low: float | None = None
    high: float | None = None
    step: float | None = None
    choices: tuple = ()
    none_at: object = "never"
    when: tuple[str, tuple] | None = None
    default: object = ESTIMATOR_DEFAULT

    def to_estimator(self, value):
        return None if value == self.none_at else value

    def filled(self, params: dict) -> Setting:
        """This setting with its default taken from the estimator's ``params`` when it has none
        of its own (None reads as ``none_at``, the widget's "off").

        Examples
        --------
        >>> from perceptron_core import KWPerceptron
        >>> bound = Setting("alpha_bound", "α-bound (0 = off)", "", 0, 50, 1, none_at=0)
        >>> bound.filled(KWPerceptron().get_params()).default
        0
        """
        if self.default is not ESTIMATOR_DEFAULT:
            return self
        value = params[self.name]
        return replace(self, default=self.none_at if value is None else value)


#: The bias switch every linear on-line rule has.
INTERCEPT = Setting("fit_intercept", "Learn a bias", "Off: the line must pass through the origin.")
