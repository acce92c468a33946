"""The data options the playground offers: which generator options get a control, and its range.

One table for the data panel, which draws the controls (``ui/data_panel.py``), and for a share
link read without the app (:mod:`app_logic.share_link`), so a link cannot ask the command line
for data the page's sliders would not make (a crafted ``ringnorm_n_samples=99999999`` once
grew ``perceptron-lab export-html`` to 22.5 GiB before anything checked it). Names, defaults
and help texts come from the core's registry; the ranges are the app's.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Slider (low, high, step) per option name, overridden per (set, option).
RANGES = {
    "n_samples": (10, 2000, 10),
    "margin": (0.0, 0.5, 0.01),
    "separation": (0.0, 6.0, 0.1),
    "spread": (0.01, 2.0, 0.01),
    "positive_rate": (0.01, 0.99, 0.01),
    "factor": (0.05, 0.95, 0.05),
    "n_features": (2, 500, 1),
    ("kw", "margin"): (0.0, 1.0, 0.05),
    ("kw", "n_samples"): (50, 2000, 50),
    ("three_classes", "margin"): (0.0, 0.3, 0.01),
}
#: Generator options the panel does not show (noise is the panel's own; the rest are technical).
HIDDEN_OPTIONS = ("noise", "random_state", "dtype", "pool_size", "path")


@dataclass(frozen=True)
class OptionControl:
    """The control the data panel draws for one option of a data set.

    Attributes
    ----------
    kind : str
        "class" (which class is called +1), "choice" (one of ``choices``) or "slider".
    choices : tuple
        The values a "class" or "choice" control offers.
    low, high, step : number or None
        A slider's range.
    """

    kind: str
    choices: tuple = ()
    low: float | None = None
    high: float | None = None
    step: float | None = None


def option_control(spec, option) -> OptionControl | None:
    """The control the panel offers for ``option`` of the data set ``spec``, or None when the
    panel offers none (then a link's value for it is not read either).

    Examples
    --------
    >>> from perceptron_core.datasets import list_datasets
    >>> specs = {s.name: s for s in list_datasets()}
    >>> ringnorm = specs["ringnorm"]
    >>> [(o.name, option_control(ringnorm, o)) for o in ringnorm.options][:2]
    ... # doctest: +NORMALIZE_WHITESPACE
    [('n_samples', OptionControl(kind='slider', choices=(), low=10, high=2000, step=10)),
     ('n_features', OptionControl(kind='slider', choices=(), low=2, high=500, step=1))]
    >>> option_control(ringnorm, ringnorm.options[2]) is None  # noise: the panel's own
    True
    """
    if option.name in HIDDEN_OPTIONS:
        return None
    if option.name == "positive_class":
        if len(spec.class_names) <= 2:
            return None  # the set's own +1 class
        return OptionControl("class", tuple(spec.class_names))
    if option.choices:
        return OptionControl("choice", tuple(option.choices))
    found = RANGES.get((spec.name, option.name)) or RANGES.get(option.name)
    if found is None:
        return None
    low, high, step = found
    return OptionControl("slider", low=low, high=high, step=step)
