"""What the replay's browser code is given, whichever page hosts it (no Streamlit here).

The same ES modules (``ui/playback/``) replay a run in three hosts: the app's Streamlit
component (``ui/player.py``), the self-contained web page
(``ui/standalone_page.py``) and the notebook widget (``widget/``).
All three hand the modules the same arguments, built here: the payload, what the figure
draws (:class:`View`), the look and the words around the numbers (:func:`texts`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from perceptron_lab.app_logic.diagnostics import novikoff_for
from perceptron_lab.app_logic.math_panel import (
    CLASSES_WHY,
    COMMITTEE_NOTE,
    OUTCOME,
    PREDICT_CORRECT_NO_BAND,
    PREDICT_OUTCOME,
    SPOKEN,
    why,
)
from perceptron_lab.app_logic.predictions import Predict
from perceptron_lab.app_logic.style import STYLE, Show

#: The parts of the replay a page (or a student link) may hide; playback always shows.
HIDEABLE = ("math", "diagnostics", "link", "export")


def texts(run, data) -> dict:
    """The words the browser puts around the numbers (kept in Python, with the other prose)."""
    sentence, bound = novikoff_for(run, data)
    return {
        "outcome": {str(k): v for k, v in OUTCOME.items()},
        "spoken": {str(k): v for k, v in SPOKEN.items()},
        "why": {
            str(k): v
            for k, v in (
                CLASSES_WHY if run.learner.learns_classes else why(_has_band(run))
            ).items()
        },
        "committee": COMMITTEE_NOTE,
        "predict": {
            "outcome": {str(k): v for k, v in PREDICT_OUTCOME.items()},
            "correct_no_band": PREDICT_CORRECT_NO_BAND,
        },
        "novikoff": sentence,
        "novikoff_bound": bound,
        "bound_title": "Updates against the bound (Novikoff's, through Kesler's construction)"
        if run.learner.learns_classes
        else "Updates against Novikoff's bound",
    }


def _has_band(run) -> bool:
    """Whether the run's learner updates inside a margin band with its settings."""
    band = getattr(run.learner, "band", None)
    return band is not None and band(run.estimator) is not None


@dataclass(frozen=True)
class View:
    """How a page shows its runs in the component (everything but the runs themselves).

    Attributes
    ----------
    show : Show
        What the figures draw.
    initial_t : int
        The step a new browser view opens on (later views keep their own).
    height : int, optional
        The main figure's height in pixels (the style's by default).
    click : str
        What a click on the 2-D plot does: "off", "+1", "-1" or "remove".
    image : str
        "png" or "svg": the format of the figure downloads.
    hide : set of str
        Parts to leave out, of :data:`HIDEABLE` (the playback controls always show).
    diagnostics : bool
        Draw the diagnostics under the figure.
    share : dict, optional
        ``{"base": url, "params": {...}, "record": {...}}``: the share box
        (link and exports); None leaves it out.
    style : dict, optional
        The look (:data:`app_logic.style.STYLE` by default).
    classroom : dict, optional
        The page's place in a live class (``ui/live_class.py``'s ``component_info``), for
        the replay's class bar; None outside a class.
    predict : Predict
        Predict mode: whether the replay opens in it, which steps ask, the allowed kinds
        of question and their seed (:mod:`app_logic.predictions`). The reader can switch it
        and choose the steps in the replay.
    report_step : bool
        Tell the server each step that rests (a rerun): while the page offers a download that
        opens at the step on screen (the playground's web page), not otherwise.
    """

    show: Show = field(default_factory=Show)
    initial_t: int = 0
    height: int | None = None
    click: str = "off"
    image: str = "png"
    hide: frozenset = frozenset()
    diagnostics: bool = True
    share: dict | None = None
    style: dict | None = None
    classroom: dict | None = None
    predict: Predict = Predict()
    report_step: bool = False

    def options(self, figure_height: int, student_groups: dict | None = None) -> dict:
        """The options the browser reads (``args.options``); ``student_groups`` are what the
        share box offers a teacher to hide from students.

        Examples
        --------
        >>> View(initial_t=3).options(600)["initial_t"]
        3
        """
        share = self.share or {}
        return {
            "initial_t": int(self.initial_t),
            "height": figure_height,
            "click": self.click,
            "image": self.image,
            "hide": {part: part in self.hide for part in HIDEABLE},
            "student_groups": student_groups or {},
            "diagnostics": self.diagnostics,
            "share": self.share is not None,
            "link_base": share.get("base", ""),
            "link_params": share.get("params", {}),
            "record": share.get("record"),
            "classroom": self.classroom,
            "predict": self.predict.options(),
            "report_step": self.report_step,
        }


def component_args(
    payload, run, data, view: View = View(), student_groups: dict | None = None
) -> dict:
    """Every argument the browser's ``onRender`` reads (``ui/playback/main.js``).

    Parameters
    ----------
    payload : app_logic.payload.Payload
    run, data
        The first lane's run and the data (for the texts).
    view : View
    student_groups : dict, optional
        ``{group: label}`` of the share box's student link.
    """
    style = view.style or STYLE
    return {
        "payload_id": payload.id,
        "meta": payload.meta,
        "header": payload.header,
        "blob": payload.blob,
        "show": view.show.to_json(),
        "style": style,
        "texts": texts(run, data),
        "options": view.options(view.height or style["figure"]["height"], student_groups),
    }
