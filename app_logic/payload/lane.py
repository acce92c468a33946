"""One recorded run as the browser replays it: events, hypotheses, votes, static numbers.

A *lane* is one learner's run on the page's data (compare mode has two to
four lanes over one scene, see :mod:`app_logic.payload.scene`). Its arrays go into
the page's blob under ``"<name>/..."``; the returned dict is the JSON part.

Per event (time step ``t = i + 1`` is just after event ``i``): the training
row, the event kind and the learner's own score per committee member, and
whether the event replaced the hypothesis (``changed``). The browser derives
the rest: the hypothesis row after event ``i`` is the running sum of
``changed`` (the row before it is that minus ``changed[i]``), the epoch is
``i // n_samples`` (every epoch visits every row once), and the update count
of a row before a visit is a running count. :func:`lane` checks these
identities against the :class:`~app_logic.timeline.Timeline` instead of trusting
them, and sends the rows themselves where they do not hold.

Per hypothesis: ``(w, θ)`` on 2-D data (for several classes learned together, the update
sequence, from which the browser sums every class's ``(w, b)``); on more features the 2-D
coordinates of ``w`` in the scene's projection plane, ``‖w‖`` and ``θ`` (never ``w``
itself: what is sent grows with steps × what is drawn, not steps ×
features); for a non-linear kernel the update sequence (row and coefficient
of every update) and ``θ``, from which the browser adds one kernel column
per update. Learners with the four predictors also send the core's final
votes per hypothesis: a hypothesis that has been replaced has its final
vote, and the browser counts the current one's from the events; and the core's
survivor table (:func:`perceptron_core.steps.kw.survivor_table`): the longest
survivor once each hypothesis has its votes and the votes at which it takes the
lead, so the browser compares counts and holds no tie rule of its own.
"""

from __future__ import annotations

import numpy as np

from perceptron_core.steps import kw
from perceptron_lab.app_logic.learners import MEMBERS
from perceptron_lab.app_logic.payload.pack import Packer, index_dtype
from perceptron_lab.app_logic.payload.snapshots import snapshot_tables
from perceptron_lab.app_logic.timeline import Timeline

#: Category codes of the committee's training points (parallel perceptrons).
CATEGORY_CODES = {"safe": 0, "borderline": 1, "noisy": 2}


def _rows(tl: Timeline, packer: Packer, name: str) -> dict:
    """How the hypothesis rows go to the browser: one ``changed`` flag per event when the
    rows follow from it (every learner but the average algorithm), else ``before`` and ``after``.
    """
    if not np.array_equal(tl.epoch, np.arange(tl.n_events) // max(tl.n_samples, 1)):
        raise ValueError("The playground replays runs that visit every row once per epoch.")
    changed = tl.after - tl.before
    if (
        changed.min(initial=0) >= 0
        and changed.max(initial=0) <= 1
        and np.array_equal(np.cumsum(changed), tl.after)
    ):
        return {"changed": packer.add(f"{name}/changed", changed, np.uint8)}
    rows = index_dtype(tl.W.shape[1])
    return {
        "before": packer.add(f"{name}/before", tl.before, rows),
        "after": packer.add(f"{name}/after", tl.after, rows),
    }


def _settings(run) -> dict:
    """The estimator's numbers that the math panel and the figure use, as its entry gives them."""
    est, learner = run.estimator, run.learner
    out = {"band": None, "alpha": None, "lam": 0.0, "lam_form": None}
    if learner.band and learner.linear:
        band = learner.band(est)
        out["band"] = None if band is None else [float(band[0]), float(band[1])]
    if learner.numbers is not None:
        out |= learner.numbers(est)
    return out


def _kernel_spec(kernel) -> dict:
    return {
        "name": kernel.name,
        "gamma": float(kernel.gamma),
        "coef0": float(kernel.coef0),
        "degree": int(kernel.degree),
    }


def drawn_hypotheses(tl: Timeline, n_features: int, projected: bool) -> str:
    """How a lane's hypotheses go to the browser: "kernel" (the update sequence of a
    non-linear kernel), "classes" (the update sequence of several classes learned together, on
    2-D data), "plane" (``(w, θ)`` on 2-D data), "projection" (``w``'s coordinates in the
    scene's plane: ``projected`` says the scene has one) or "none".

    Examples
    --------
    >>> import numpy as np
    >>> tl = Timeline(*[np.zeros(1)] * 6, W=np.zeros((1, 1, 2)), theta=np.zeros((1, 1)),
    ...               n_samples=1)
    >>> [drawn_hypotheses(tl, n, shown) for n, shown in ((2, False), (5, True), (5, False))]
    ['plane', 'projection', 'none']
    """
    if tl.kernel_trace is not None:
        return "kernel"
    if tl.classes:  # several classes together: their update sequence, drawn on 2-D data only
        return "classes" if n_features == 2 else "none"
    if n_features == 2:
        return "plane"
    if projected and tl.n_members == 1 and tl.W.shape[2]:
        return "projection"
    return "none"


def category_codes(run, data) -> np.ndarray | None:
    """A committee's safe, borderline or noisy mark of every training point after training
    (:data:`CATEGORY_CODES`), by its members' margins; None for any other learner."""
    if run.learner.boundary != MEMBERS:
        return None
    est = run.estimator
    labels = est.classes_[(data.y > 0).astype(int)]  # as the estimator was fitted on
    return np.vectorize(CATEGORY_CODES.get)(est.categorize(data.X, labels))


def _accuracy(labels: dict, y: np.ndarray) -> dict[str, float]:
    return {mode: float(np.mean(pred == y)) for mode, pred in labels.items()} if len(y) else {}


def lane(run, data, packer: Packer, name: str, plane=None) -> dict:
    """Add ``run``'s arrays to ``packer`` under ``name/``; return its JSON description.

    Parameters
    ----------
    run : app_logic.training.Run
    data : app_logic.datasource.Dataset
        The data the run was trained on.
    packer : Packer
    name : str
        The lane's prefix in the blob.
    plane : ndarray of shape (2, n_features), optional
        The scene's projection plane (rows ``e1``, ``e2``) for data with
        more than two features; None on 2-D data.
    """
    tl, learner, est = run.timeline, run.learner, run.estimator
    m, H = tl.n_samples, tl.W.shape[1]
    truth = data.class_labels() if learner.learns_classes else (data.y, data.y_test)
    arrays = {
        "index": packer.add(f"{name}/index", tl.index, index_dtype(m)),
        "kind": packer.add(f"{name}/kind", tl.kind, np.uint8),
        "score": packer.add(f"{name}/score", tl.score, np.float64),
    } | _rows(tl, packer, name)
    if tl.lam_term is not None and tl.lam_term.any():
        arrays["lam_term"] = packer.add(f"{name}/lam_term", tl.lam_term, np.float64)
    hypotheses = drawn_hypotheses(tl, data.n_features, plane is not None)
    kernel = None
    if hypotheses == "kernel":
        trace = tl.kernel_trace
        arrays["update_row"] = packer.add(f"{name}/update_row", trace.rows, index_dtype(m))
        arrays["update_coef"] = packer.add(f"{name}/update_coef", trace.coef, np.float64)
        arrays["theta"] = packer.add(f"{name}/theta", tl.theta[0], np.float64)
        kernel = _kernel_spec(trace.kernel)
    elif hypotheses == "classes":  # the browser sums the update sequence (timeline.js)
        trace = est.trace_
        arrays["points"] = "scene/X"  # the rows the updates add, as the scene sends them
        arrays["update_row"] = packer.add(f"{name}/update_row", trace.rows, index_dtype(m))
        arrays["update_true"] = packer.add(f"{name}/update_true", trace.true, np.uint8)
        arrays["update_rival"] = packer.add(
            f"{name}/update_rival", trace.rival_of_update, np.uint8
        )
    elif hypotheses == "plane":
        arrays["W"] = packer.add(f"{name}/W", tl.W, np.float64)
        arrays["theta"] = packer.add(f"{name}/theta", tl.theta, np.float64)
    elif hypotheses == "projection":
        W = tl.W[0]
        arrays["W"] = packer.add(f"{name}/W", (W @ plane.T)[None], np.float64)
        arrays["theta"] = packer.add(f"{name}/theta", tl.theta, np.float64)
        arrays["norm"] = packer.add(f"{name}/norm", np.linalg.norm(W, axis=1), np.float64)
    if learner.replays_votes:
        votes = np.asarray(est.votes_)
        if votes.shape != (H,):
            raise ValueError(f"votes_ has shape {votes.shape}; the timeline has {H} hypotheses.")
        arrays["votes"] = packer.add(f"{name}/votes", votes, np.int32)
        longest, lead = kw.survivor_table(votes)  # the browser reads the tie rule's outcome
        arrays["longest"] = packer.add(f"{name}/longest", longest, np.int32)
        arrays["lead"] = packer.add(f"{name}/lead", lead, np.int32)
    codes = category_codes(run, data)  # a committee: safe, noisy or borderline
    if codes is not None:
        arrays["category"] = packer.add(f"{name}/category", codes, np.uint8)
    if hypotheses == "projection":
        arrays |= snapshot_tables(run, data, packer, name)
    return {
        "key": run.learner_key,
        "title": learner.title,
        "boundary": learner.boundary,
        "mode": learner.shown_mode(run.values) if learner.has_modes else "last",
        "has_modes": learner.replays_votes,
        "draws_line": learner.linear,
        "bias": learner.bias,
        "hypotheses": hypotheses,
        "kernel": kernel,
        "n_events": tl.n_events,
        "n_samples": m,
        "n_members": tl.n_members,
        "n_hypotheses": H,
        "settings": _settings(run),
        "fit_ms": None if run.fit_seconds is None else 1000 * run.fit_seconds,
        "mistakes_per_epoch": tl.mistakes_per_epoch().tolist(),  # updates, as the core counts
        "errors_per_epoch": tl.errors_per_epoch().tolist(),
        "test_errors_per_epoch": np.asarray(run.test_errors).tolist(),
        "final_accuracy": {
            "train": _accuracy(run.final_train, truth[0]),
            "test": _accuracy(run.final_test, truth[1]),
        },
        "arrays": arrays,
    }
