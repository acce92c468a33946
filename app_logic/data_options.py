"""The data the playground offers: which sets, which of their options get a control, and its range.

One reading of the core's registry for the data panel, which draws the controls
(``ui/data_panel.py``), and for a share link read without the app (:mod:`app_logic.share_link`),
so a link cannot ask the command line for data the page's sliders would not make (a crafted
``ringnorm_n_samples=99999999`` once grew ``perceptron-lab export-html`` to 22.5 GiB before
anything checked it). Whether a set is offered, its options' names, defaults, help texts and
slider ranges are on its registry entry (``DatasetSpec.in_app``, ``Option.slider``), so a new
data set is one entry; what is decided here is only what the panel keeps for itself.
"""

from __future__ import annotations

from dataclasses import dataclass

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


def offered_datasets() -> dict:
    """``{name: DatasetSpec}`` of the sets the panel offers, in its order: the 2-D sets first
    (they show the plane itself), then the others, each in the registry's order.

    >>> names = list(offered_datasets())
    >>> names[:2], "fashion_mnist" in names   # Fashion-MNIST is too big to animate
    (['separable', 'gaussians'], False)
    """
    from perceptron_core.datasets import list_datasets

    offered = [spec for spec in list_datasets() if spec.in_app and spec.available]
    return {spec.name: spec for spec in sorted(offered, key=lambda spec: spec.shape[1] != 2)}


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
    if option.slider is None:
        return None
    low, high, step = option.slider
    return OptionControl("slider", low=low, high=high, step=step)
