"""A playground share link read without the app: the data, the learner, the view and the step.

The playground keeps every setting in its address (``ui/state.py`` writes only the values
that differ from their defaults): ``?data=gaussians&gaussians_n_samples=300&noise=uniform&
learner=kw&kw_tau=0.5&epochs=40&t=120``, and the replay adds predict mode
(``predict=1&ask=updates``, :func:`app_logic.predictions.predict_from_link`).
:func:`read_link` turns such a link (or just its query string) back into what the playground
would train and show, so the command line can export the same view (``perceptron-lab
export-html``). Values are checked the way the page checks them, against the same ranges
(:mod:`app_logic.data_options`, the learners' settings), before anything is generated; a
wrong one is an error that names it and says what is accepted, and a data option the page
offers no control for is not read.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from urllib.parse import parse_qs, urlsplit

from perceptron_lab.app_logic.data_options import offered_datasets, option_control
from perceptron_lab.app_logic.datasource import NOISE_KINDS, DataRequest
from perceptron_lab.app_logic.edits import PointEdits
from perceptron_lab.app_logic.learners import LEARNERS
from perceptron_lab.app_logic.predictions import Predict, predict_from_link
from perceptron_lab.app_logic.style import Show

#: The playground's defaults (app_pages/playground.py, ui/data_panel.py, ui/learner_panel.py).
DEFAULT_DATA, DEFAULT_LEARNER, DEFAULT_EPOCHS = "separable", "perceptron", 20
#: The link's names of the view toggles that are :class:`~app_logic.style.Show` fields.
SHOW_NAMES = {"show_test": "test_points"}


@dataclass(frozen=True)
class LinkSettings:
    """What a share link asks for."""

    request: DataRequest
    learner: str
    values: dict
    epochs: int
    show: Show
    t: int
    image: str
    predict: Predict = Predict()


def _value(text: str, default, name: str, low=None, high=None, choices=()):
    """``text`` as a value like ``default``; ValueError naming ``name`` and what it accepts."""
    try:
        if choices:
            value = type(default)(text) if not isinstance(default, str) else text
            if value not in choices:
                raise ValueError
        elif isinstance(default, bool):
            if text not in ("0", "1"):
                raise ValueError
            value = text == "1"
        elif isinstance(default, int):
            value = int(text)
        elif isinstance(default, float):
            value = float(text)
            if not math.isfinite(value):
                raise ValueError
        else:
            value = text
        if low is not None and not low <= value <= high:
            raise ValueError
    except ValueError:
        accepted = (
            f"one of {', '.join(map(str, choices))}"
            if choices
            else "0 or 1"
            if isinstance(default, bool)
            else f"a number from {low} to {high}"
            if low is not None
            else f"a value like {default!r}"
        )
        raise ValueError(
            f"The link's {name}={text!r} is not accepted; {name} takes {accepted}."
        ) from None
    return value


def read_link(link: str) -> LinkSettings:
    """The settings of a playground link (a whole address or its query string).

    Examples
    --------
    >>> s = read_link("http://localhost:8501/?data=gaussians&learner=kw&kw_tau=0.5&epochs=3&t=7")
    >>> s.request.name, s.learner, s.values["tau"], s.epochs, s.t
    ('gaussians', 'kw', 0.5, 3, 7)
    >>> read_link("?predict=1&ask=updates").predict.ask
    'updates'
    >>> read_link("epochs=0")
    Traceback (most recent call last):
    ...
    ValueError: The link's epochs='0' is not accepted; epochs takes a number from 1 to 200.
    """
    query = urlsplit(link).query if "://" in link or link.startswith("?") else link
    params = {k: v[-1] for k, v in parse_qs(query, keep_blank_values=True).items()}
    specs = offered_datasets()  # what the page's data panel offers
    name = params.get("data", DEFAULT_DATA)
    if name == "csv":
        raise ValueError(
            "The link's data is an uploaded file, which a link does not carry; "
            "export it from the app (Share and export: Download as web page)."
        )
    name = _value(name, DEFAULT_DATA, "data", choices=tuple(specs))
    options = {}
    for option in specs[name].options:
        key = f"{name}_{option.name}"
        offer = option_control(specs[name], option)  # what the page's data panel offers
        if offer is None or key not in params:
            continue
        if offer.kind == "slider":
            default = type(offer.low)(option.default)
            options[option.name] = _value(params[key], default, key, offer.low, offer.high)
        else:
            default = offer.choices[0] if option.default is None else option.default
            options[option.name] = _value(params[key], default, key, choices=offer.choices)
    noise = _value(params.get("noise", "none"), "none", "noise", choices=tuple(NOISE_KINDS))
    edits = PointEdits.from_text(params["edits"]) if params.get("edits") else None
    request = DataRequest(
        name=name,
        options=tuple(sorted(options.items())),
        noise_kind=noise,
        noise_rate=_value(params.get("noise_rate", "0.1"), 0.1, "noise_rate", 0.0, 0.5)
        if noise != "none"
        else 0.0,
        test_fraction=_value(params.get("test", "0.0"), 0.0, "test", 0.0, 0.5),
        seed=_value(params.get("seed", "0"), 0, "seed", 0, 1_000_000),
        edits=edits,
    )
    learner = _value(
        params.get("learner", DEFAULT_LEARNER), DEFAULT_LEARNER, "learner", choices=tuple(LEARNERS)
    )
    values = {}
    for s in LEARNERS[learner].settings:  # in order: a setting's `when` names one above it
        key = f"{learner}_{s.name}"
        applies = s.when is None or values.get(s.when[0]) in s.when[1]
        if applies and key in params:
            values[s.name] = _value(params[key], s.default, key, s.low, s.high, s.choices)
        else:
            values[s.name] = s.default
    toggles = {}
    for f in fields(Show):
        key = next((k for k, v in SHOW_NAMES.items() if v == f.name), f.name)
        if key in params:
            toggles[f.name] = _value(params[key], f.default, key)
    return LinkSettings(
        request=request,
        learner=learner,
        values=values,
        epochs=_value(params.get("epochs", str(DEFAULT_EPOCHS)), DEFAULT_EPOCHS, "epochs", 1, 200),
        show=Show(**toggles),
        t=_value(params.get("t", "0"), 0, "t", 0, 10**9),
        image=_value(params.get("image", "png"), "png", "image", choices=("png", "svg")),
        predict=predict_from_link(params, request.seed),
    )
