"""Lesson panels beside the figure, as data the browser shows at every step.

A lesson computes its numbers once per run, for every step or every
hypothesis, and describes how to show them; the browser picks the value of
the current step. Four kinds of item:

* :class:`Value` — a label and one number per time step (``t = 0 .. n_events``),
  per hypothesis or one for the run, with a Python format spec (``".4g"``,
  ``".1%"``, ``","``);
* :class:`Progress` — a bar: the hypotheses' values against a maximum;
* :class:`Trail` — lines over the hypotheses so far, the current one marked;
* :class:`Curves` — one curve per stored hypothesis (e.g. precision–recall),
  the one in force or the latest stored before it drawn;
* :class:`Accuracies` — the accuracy of the learner's predictors at the step
  (the browser computes it, as in the playground's diagnostics);
* :class:`Text` — a sentence, shown at some steps.

Any item can be limited to some steps with ``when``: ``"update"`` (the
current event moved the hypothesis), ``"no_update"``, ``"end"`` (the last
step), ``"before_end"``, ``"started"`` (after the first event), or
``"always"``. Labels are the lesson's own text, shown as plain text.

Examples
--------
>>> import numpy as np
>>> from perceptron_lab.app_logic.payload.pack import Packer, unpack
>>> p = Packer()
>>> panel = Panel("Updates", [Value("score", np.array([np.nan, 0.5]), per="step")])
>>> spec = pack_panels([panel], p, "lane0")
>>> spec[0]["items"][0]["per"], unpack(*p.pack())[spec[0]["items"][0]["values"]].tolist()
('step', [nan, 0.5])
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from perceptron_lab.app_logic.payload.pack import Packer

WHEN = ("always", "update", "no_update", "end", "before_end", "started")
PER = ("step", "hypothesis", "run")


@dataclass(frozen=True)
class Value:
    """A number beside the figure; NaN shows as a dash."""

    label: str
    values: object
    per: str = "hypothesis"
    format: str = ".4g"
    when: str = "always"


@dataclass(frozen=True)
class Progress(Value):
    """``label`` with ``{value}`` and ``{max}`` in it, over a bar filled to ``value / max``."""

    maximum: float = field(default=1.0, kw_only=True)
    format: str = ","


@dataclass(frozen=True)
class Trail:
    """Curves over the hypotheses ``0 .. current``: ``series`` is ``[(name, values, colour)]``."""

    title: str
    series: tuple
    x_title: str
    y_format: str = ".0%"
    y_range: tuple | None = None
    when: str = "always"


@dataclass(frozen=True)
class Curves:
    """One ``(x, y)`` curve per stored hypothesis ``rows[s]``, and a marked point per hypothesis.

    ``x`` and ``y`` are lists of arrays (one per row); ``point`` is
    ``(x, y)`` per hypothesis (NaN: no point), drawn as ``point_name``.
    """

    title: str
    rows: object
    x: tuple
    y: tuple
    point: tuple
    curve_name: str
    point_name: str
    x_title: str
    y_title: str
    axis_format: str = ".0%"
    when: str = "always"


@dataclass(frozen=True)
class Text:
    """A sentence; ``{updates}`` in it becomes the number of updates so far.

    With ``values`` (one per step or hypothesis, see ``per``) it shows only
    where the value is not 0.
    """

    text: str
    when: str = "always"
    caption: bool = False
    values: object = None
    per: str = "hypothesis"


@dataclass(frozen=True)
class Accuracies:
    """The table of the learner's predictors' accuracy at the step, train and test."""

    when: str = "always"


@dataclass(frozen=True)
class Panel:
    """A bordered box of items under the math panel."""

    title: str
    items: list = field(default_factory=list)


def _check(item) -> None:
    if item.when not in WHEN:
        raise ValueError(f"when must be one of {WHEN}; got {item.when!r}.")
    if getattr(item, "per", "run") not in PER:
        raise ValueError(f"per must be one of {PER}; got {item.per!r}.")


def _item(item, packer: Packer, name: str) -> dict:
    _check(item)
    kind = type(item).__name__.lower()
    out = {"type": kind, "when": item.when}
    if isinstance(item, Text):
        out |= {"text": item.text, "caption": item.caption, "per": item.per}
        if item.values is not None:
            out["values"] = packer.add(f"{name}/values", np.asarray(item.values, np.float64))
        return out
    if isinstance(item, Accuracies):
        return out
    if isinstance(item, Value):  # a Progress is a Value with a maximum
        values = np.atleast_1d(np.asarray(item.values, np.float64))
        out |= {
            "label": item.label,
            "per": item.per,
            "format": item.format,
            "values": packer.add(f"{name}/values", values),
        }
        if isinstance(item, Progress):
            out["max"] = float(item.maximum)
        return out
    if isinstance(item, Trail):
        return out | {
            "title": item.title,
            "x_title": item.x_title,
            "y_format": item.y_format,
            "y_range": None if item.y_range is None else [float(v) for v in item.y_range],
            "series": [
                {
                    "name": label,
                    "color": color,
                    "values": packer.add(f"{name}/s{i}", v, np.float64),
                }
                for i, (label, v, color) in enumerate(item.series)
            ],
        }
    if isinstance(item, Curves):
        lengths = np.array([len(x) for x in item.x], np.int64)
        return out | {
            "title": item.title,
            "curve_name": item.curve_name,
            "point_name": item.point_name,
            "x_title": item.x_title,
            "y_title": item.y_title,
            "axis_format": item.axis_format,
            "rows": packer.add(f"{name}/rows", item.rows, np.int32),
            "offsets": packer.add(f"{name}/offsets", np.r_[0, np.cumsum(lengths)], np.int32),
            "x": packer.add(f"{name}/x", np.concatenate(item.x), np.float64),
            "y": packer.add(f"{name}/y", np.concatenate(item.y), np.float64),
            "point_x": packer.add(f"{name}/px", item.point[0], np.float64),
            "point_y": packer.add(f"{name}/py", item.point[1], np.float64),
        }
    raise TypeError(f"Not a panel item: {item!r}")


def pack_panels(panels, packer: Packer, name: str) -> list[dict]:
    """The panels' JSON description; their arrays go to ``packer`` under ``name/extra...``."""
    return [
        {
            "title": panel.title,
            "items": [
                _item(item, packer, f"{name}/extra{p}_{i}") for i, item in enumerate(panel.items)
            ],
        }
        for p, panel in enumerate(panels)
    ]
