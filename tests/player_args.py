"""What a page gave the playback component, read from Streamlit's AppTest.

AppTest runs no browser, so the numbers a lesson panel shows at a step are
read where the browser reads them: the component's arguments (the payload's
JSON and its binary arrays). :func:`panel_value` picks an item's value at a
step the way ``ui/playback/extras.js`` does.
"""

from __future__ import annotations

import json

import numpy as np

from perceptron_lab.app_logic.payload.pack import unpack


def player_args(at, key: str) -> dict:
    """The JSON arguments of the component with ``key``, with ``arrays`` decoded from its blob."""
    for element in at.get("component_instance"):
        if element.proto.id.endswith(f"-{key}"):
            args = json.loads(element.proto.json_args)
            blob = next(a.bytes for a in element.proto.special_args if a.key == "blob")
            args["arrays"] = unpack(args["header"], blob)
            return args
    raise AssertionError(f"no playback component with key {key!r} on the page")


def rows_after(args, lane: int = 0) -> np.ndarray:
    """The hypothesis row in force at every time step 0 .. n_events."""
    meta = args["meta"]["lanes"][lane]
    arrays = args["arrays"]
    if "changed" in meta["arrays"]:
        after = np.cumsum(arrays[meta["arrays"]["changed"]])
    else:
        after = arrays[meta["arrays"]["after"]]
    return np.r_[0, after].astype(int)


def panel_items(args) -> dict:
    """``{label or text: item}`` of the first lane's panels."""
    items = {}
    for panel in args["meta"]["lanes"][0].get("extras", []):
        for item in panel["items"]:
            items[item.get("label") or item.get("text") or item["type"]] = item
    return items


def panel_value(args, label: str, t: int | None = None) -> float:
    """The value the item ``label`` shows at step ``t`` (default: the step the page opens on)."""
    item = panel_items(args)[label]
    values = args["arrays"][item["values"]]
    t = args["options"]["initial_t"] if t is None else t
    if item["per"] == "run":
        return float(values[0])
    if item["per"] == "step":
        return float(values[t])
    return float(values[rows_after(args)[t]])


def shown(value: float, spec: str) -> str:
    """``value`` as the browser writes it with a Python format spec."""
    return "—" if np.isnan(value) else format(value, spec)
