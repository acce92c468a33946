"""What the browser needs to replay recorded runs, built once per run (no Streamlit here).

:func:`build_payload` turns the page's data and one to four runs into a
:class:`Payload`: a JSON description (:mod:`app_logic.payload.scene`,
:mod:`app_logic.payload.lane`, :mod:`app_logic.payload.extras`) and one binary blob of
typed arrays (:mod:`app_logic.payload.pack`). The browser component
(``ui/playback/``) steps, plays and scrubs through it without asking the
server again.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from perceptron_core.datasets import DataError
from perceptron_lab.app_logic.payload.extras import pack_panels
from perceptron_lab.app_logic.payload.lane import lane
from perceptron_lab.app_logic.payload.pack import Packer, content_id
from perceptron_lab.app_logic.payload.scene import scene
from perceptron_lab.app_logic.view_cost import look


@dataclass(frozen=True, eq=False)
class Payload:
    """One page's replay data.

    Attributes
    ----------
    meta : dict
        ``{"scene": ..., "lanes": [...]}``, JSON-ready.
    header : dict
        Where each array sits in ``blob``.
    blob : bytes
    id : str
        Fingerprint of all of it: the browser decodes a payload once.
    """

    meta: dict
    header: dict
    blob: bytes
    id: str

    @property
    def nbytes(self) -> int:
        """Bytes sent to the browser: the blob plus the JSON parts."""
        return len(self.blob) + len(json.dumps(self.meta)) + len(json.dumps(self.header))


def _final_w(run):
    tl = run.timeline
    if tl.W.shape[2] == 0 or tl.n_members != 1:
        return None
    return tl.W[0, -1]


def build_payload(data, runs, seed: int = 0, extras=None) -> Payload:
    """The payload for ``runs`` (all trained on ``data``).

    Parameters
    ----------
    data : app_logic.datasource.Dataset
    runs : sequence of app_logic.training.Run
        The first is the page's learner; the others are compared with it.
    seed : int
        Seeds the subsample of points drawn in the high-dimensional view.
    extras : list of app_logic.payload.extras.Panel, optional
        A lesson's panels for the first run.

    Raises
    ------
    DataError
        When a number the browser reads as JSON is not finite (JSON has no inf
        or NaN, and the browser would refuse the whole message), or the view being made is
        over its CPU (:func:`app_logic.view_cost.look`, asked between the lanes; so is the
        visitor, whose leaving raises Streamlit's own stop).
    """
    packer = Packer()
    classes = any(run.learner.learns_classes for run in runs)
    scene_meta, plane = scene(data, _final_w(runs[0]), packer, seed, classes)
    lanes = []
    for i, run in enumerate(runs):
        look()  # between lanes: a view's visitor may have left, or its CPU be spent
        lanes.append(lane(run, data, packer, f"lane{i}", plane))
    if extras:
        lanes[0]["extras"] = pack_panels(extras, packer, "lane0")
    look()
    header, blob = packer.pack()
    meta = {"scene": scene_meta, "lanes": lanes}
    try:
        text = json.dumps(meta, allow_nan=False)
    except ValueError:
        raise DataError(
            "This run's numbers left floating point's range (inf or NaN), so no figure can "
            "draw them. Scale the features (standardise them) or use a smaller eta."
        ) from None
    return Payload(meta, header, blob, content_id(header, blob, text))
