"""Exports of a run: the settings, metrics, recorded events and training points.

Figures export themselves in the browser: the playback component's button
and the camera button of every Plotly chart download PNG or SVG, so no
image server is needed. (Server-side export with kaleido also works offline
here, with Debian's chromium, but each image then waits on the server.) The run's
JSON is assembled there too, from :func:`run_record` and the numbers of the
step on screen.
"""

from __future__ import annotations

import csv
import io

import numpy as np

from perceptron_core.trace import EVENT_KINDS
from perceptron_lab.app_logic.edits import PointEdits


def _plain(value):
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, bytes):
        return f"<{len(value):,} bytes>"
    if isinstance(value, PointEdits):
        return value.to_text()  # the URL's form: readable, and a link can be rebuilt from it
    return value


def run_record(run, data, request) -> dict:
    """Everything needed to reproduce and judge a run, as JSON-ready values.

    The browser adds ``time_step`` and ``accuracy_at_step`` (the step on
    screen) when it exports the record.
    """
    tl = run.timeline
    req = {k: _plain(v) for k, v in request.__dict__.items() if k != "csv_bytes"}
    return {
        "data": {
            "title": data.title,
            "request": req,
            "n_train": len(data.X),
            "n_test": len(data.X_test),
            "features": list(data.feature_names),
            "classes": list(data.all_classes if run.learner.learns_classes else data.class_names),
            "n_flipped": int(data.flipped.sum()),
        },
        "learner": {
            "key": run.learner_key,
            "title": run.learner.title,
            "settings": {k: _plain(v) for k, v in run.values.items()},
            "estimator": repr(run.estimator),
        },
        "n_events": tl.n_events,
        "n_hypotheses": int(tl.W.shape[1]),
        "fit_seconds": run.fit_seconds,
        "mistakes_per_epoch_train": tl.mistakes_per_epoch().tolist(),
        "errors_per_epoch_test": _plain(run.test_errors),
        "final_hypothesis": _final(tl, data),
    }


def _final(tl, data) -> dict | None:
    """The last hypothesis: ``w`` and ``theta``; every class's ``w`` and ``b`` for the classes
    learned together; None for a non-linear kernel's."""
    if tl.W.shape[2] == 0:
        return None
    if tl.classes:
        return {
            "classes": [
                {"class": name, "w": tl.W[k, -1].tolist(), "b": -float(tl.theta[k, -1])}
                for k, name in enumerate(data.all_classes)
            ]
        }
    return {"w": tl.W[0, -1].tolist(), "theta": float(tl.theta[0, -1])}


def events_csv(run) -> str:
    """One row per recorded visit (member 0; every class's score for the classes learned
    together): the animation's raw material.

    Steps, epochs and examples count from 1, as the page shows them: example 1 is the
    first row of the points. Written as the csv module writes it (no field here needs
    quotes), a column at a time rather than a row at a time through the csv module, which
    took twice as long (the trace is part of what a view may cost, docs/deploy.md).
    """
    tl = run.timeline
    # the classes learned together: every class's score, by the class's number (score_0, ...)
    scored = range(tl.n_members) if tl.classes else (0,)
    columns = (
        range(1, tl.n_events + 1),
        (np.asarray(tl.epoch[: tl.n_events]) + 1).tolist(),
        (np.asarray(tl.index) + 1).tolist(),
        np.asarray(EVENT_KINDS)[tl.kind[0]].tolist(),
        *([f"{score:.10g}" for score in tl.score[k].tolist()] for k in scored),
        np.asarray(tl.after).tolist(),
    )
    scores = ",".join(f"score_{k}" for k in scored) if tl.classes else "score"
    lines = [f"step,epoch,example,event,{scores},hypothesis_after"]
    lines += [",".join(map(str, row)) for row in zip(*columns)]
    return "\r\n".join(lines) + "\r\n"


#: First characters that make a spreadsheet read a cell as a formula (CSV injection).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def inert(text: str) -> str:
    """``text`` as a spreadsheet cell that cannot run as a formula: a leading ``'`` if needed.

    Examples
    --------
    >>> print(inert("=1+1"), inert("-cmd"), inert("height"))
    '=1+1 '-cmd height
    """
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def points_csv(data) -> str:
    """The training points as the learner saw them (after noise and edits), one row each.

    Column names come from the visitor's file: one that a spreadsheet would run as a
    formula gets a leading ``'`` (numbers are written as numbers).
    """
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([*(inert(str(name)) for name in data.feature_names), "label"])
    for row, label in zip(data.X.tolist(), data.y.tolist()):
        writer.writerow([*(f"{v:.10g}" for v in row), label])
    return out.getvalue()
