"""What the high-dimensional view shows at a bounded number of hypotheses.

With more than two features the browser cannot score the training points
itself (it gets projections, not weight vectors), so the numbers that need
every point are computed here, at *snapshot* hypotheses: every hypothesis
when the run is small, else evenly spaced ones (the first and the last
always among them). At snapshot ``k`` the run is at the last step before
update ``k + 1``, so hypothesis ``k`` has its final votes:

* the margin histogram ``y(<w,x> - θ)/‖w‖`` of all training points;
* the accuracy of the four predictors on the training and the test set
  (the voted one only while points x features x hypotheses fits
  :data:`VOTED_BUDGET`; it needs every hypothesis's score on every point);
* the achieved margin and the confusion counts of the last hypothesis.

The angle between ``w*`` and ``w`` is one number per hypothesis; it is sent
at :data:`MAX_CURVE_POINTS` evenly spaced hypotheses (the chart says so).
"""

from __future__ import annotations

import numpy as np

from perceptron_core.modes import MODES
from perceptron_core.steps import kw
from perceptron_lab.app_logic.payload.pack import Packer, index_dtype

MAX_SNAPSHOTS = 400
MIN_SNAPSHOTS = 100
#: Multiply-adds allowed for scoring every point with every snapshot (a small share of a page
#: run's time; docs/benchmarks.md).
SNAPSHOT_BUDGET = 2e8
#: Multiply-adds allowed for the voted predictor (every hypothesis on every point).
VOTED_BUDGET = 4e8
MARGIN_BINS = 40
#: Hypotheses scored by one matrix product (memory: points x CHUNK numbers).
CHUNK = 64
MAX_CURVE_POINTS = 2_000


def snapshot_rows(n_hypotheses: int, work_per_row: float) -> np.ndarray:
    """Evenly spaced hypothesis rows: as many as the budget allows, at least 100, at most 400.

    Examples
    --------
    >>> snapshot_rows(50, 1e3).tolist() == list(range(50))
    True
    >>> rows = snapshot_rows(10_000, 1e7)
    >>> len(rows), int(rows[0]), int(rows[-1])
    (100, 0, 9999)
    """
    # three predictors are scored at every snapshot
    wanted = int(
        np.clip(SNAPSHOT_BUDGET // max(3 * work_per_row, 1), MIN_SNAPSHOTS, MAX_SNAPSHOTS)
    )
    return np.unique(np.linspace(0, n_hypotheses - 1, min(n_hypotheses, wanted)).round()).astype(
        np.int64
    )


def margin_bins(margins: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(low, width, right, wrong)`` of each column of ``margins`` (points x snapshots): a
    histogram with a bin edge at 0, split by side, in at most ``MARGIN_BINS + 1`` bins.

    ``low`` and ``width`` have a number per column; ``right`` and ``wrong`` a row of
    ``MARGIN_BINS + 2`` counts per column (the bins past a column's last hold 0).

    Examples
    --------
    >>> low, width, right, wrong = margin_bins(np.array([[-1.0], [0.5], [1.5], [2.0]]))
    >>> int(right.sum()), int(wrong.sum()), bool(low[0] <= -1.0 <= 2.0 <= low[0] + width[0] * 41)
    (3, 1, True)
    """
    lo, hi = margins.min(axis=0), margins.max(axis=0)
    width = (hi - lo) / MARGIN_BINS
    width[width == 0] = 1.0  # every margin equal: one bin
    lo = np.where((lo < 0) & (0 < hi), np.floor(lo / width) * width, lo)  # a bin edge at 0
    n_bins = np.maximum(np.ceil((hi - lo) / width - 1e-9), 1).astype(np.int64)
    # equal bins: the bin of each margin by arithmetic (numpy.histogram sorts for given edges),
    # numbered across the columns so that one bincount counts them all
    index = np.clip(np.floor((margins - lo) / width).astype(np.int64), 0, n_bins - 1)
    index += np.arange(margins.shape[1]) * (MARGIN_BINS + 2)
    size = margins.shape[1] * (MARGIN_BINS + 2)
    right = np.bincount(index[margins > 0], minlength=size).reshape(-1, MARGIN_BINS + 2)
    wrong = np.bincount(index[margins <= 0], minlength=size).reshape(-1, MARGIN_BINS + 2)
    return lo, width, right, wrong


def confusion_counts(y: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """``[[y=-1 said -1, y=-1 said +1, y=+1 said -1, y=+1 said +1], ...]``, a row per column of
    ``scores`` (points x hypotheses); a score above 0 says +1.

    Examples
    --------
    >>> confusion_counts(np.array([-1, 1, 1]), np.array([[0.5], [2.0], [-1.0]])).tolist()
    [[0, 1, 1, 1]]
    """
    said = scores > 0
    negative, positive = (y == -1)[:, None], (y == 1)[:, None]
    return np.stack(
        [(negative & ~said).sum(0), (negative & said).sum(0)]
        + [(positive & ~said).sum(0), (positive & said).sum(0)],
        axis=1,
    )


def _labels(scores: np.ndarray) -> np.ndarray:
    return np.where(scores > 0, 1, -1)


def _voted_scores(tl, X: np.ndarray, votes: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """``sum_{i=1..k} votes_i sign(<w_i, x> - θ_i)`` at every snapshot row ``k``, chunked.

    Votes are whole numbers, so the running sums are exact whatever their order.
    """
    out = np.zeros((len(rows), len(X)))  # row 0: no hypothesis voted yet
    running = np.zeros(len(X))
    W, theta = tl.W[0], tl.theta[0]
    last = int(rows[-1])
    for start in range(1, last + 1, CHUNK):  # memory: points x CHUNK hypotheses
        stop = min(start + CHUNK, last + 1)
        signs = np.sign(X @ W[start:stop].T - theta[start:stop])
        sums = running[:, None] + np.cumsum(signs * votes[start:stop], axis=1)
        inside = (rows >= start) & (rows < stop)
        out[inside] = sums[:, rows[inside] - start].T
        running = sums[:, -1]
    return out


def _predictors(run, rows: np.ndarray) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """``{mode: (W, theta)}`` of each linear predictor at every snapshot (rows of ``W``)."""
    tl = run.timeline
    W, theta = tl.W[0], tl.theta[0]
    out = {"last": (W[rows], theta[rows])}
    if not run.learner.replays_votes:
        return out
    votes = np.asarray(run.estimator.votes_, np.float64)
    longest = kw.survivor_table(votes)[0][rows]  # at each snapshot, its row's votes are final
    out["longest"] = (W[longest], theta[longest])
    # prefix sums over hypotheses 1..k: the averaged hypothesis at every snapshot
    cum_votes = np.cumsum(np.r_[0.0, votes[1:]])[rows]
    cum_w = np.cumsum(np.vstack([np.zeros(W.shape[1]), votes[1:, None] * W[1:]]), axis=0)[rows]
    cum_theta = np.cumsum(np.r_[0.0, votes[1:] * theta[1:]])[rows]
    safe = np.where(cum_votes > 0, cum_votes, 1.0)
    out["averaged"] = (
        np.where(cum_votes[:, None] > 0, cum_w / safe[:, None], W[rows]),
        np.where(cum_votes > 0, cum_theta / safe, theta[rows]),
    )
    return out


def snapshot_tables(run, data, packer: Packer, name: str) -> dict:
    """Add the snapshot arrays of ``run`` to ``packer``; returns ``{key: array name}``."""
    tl = run.timeline
    H, n = tl.W.shape[1], tl.W.shape[2]
    parts = [(data.X, data.y)] + ([(data.X_test, data.y_test)] if len(data.X_test) else [])
    points = sum(len(X) for X, _ in parts)
    rows = snapshot_rows(H, points * n)
    votes_kept = run.learner.replays_votes
    votes = np.asarray(run.estimator.votes_, np.float64) if votes_kept else None
    voted = votes_kept and points * n * H <= VOTED_BUDGET
    predictors = _predictors(run, rows)
    accuracy = np.full((len(rows), 2, len(MODES)), np.nan, np.float32)
    counts = index_dtype(max(len(X) for X, _ in parts) + 1)  # a count is at most the points
    hist = np.zeros((len(rows), 2, MARGIN_BINS + 2), counts)
    hist_range = np.zeros((len(rows), 2))
    achieved = np.full(len(rows), np.nan)
    confusion = np.zeros((len(rows), 4), counts)
    norms = np.linalg.norm(predictors["last"][0], axis=1)
    for p, (X, y) in enumerate(parts):
        for start in range(0, len(rows), CHUNK):  # one matrix product per predictor and chunk
            chunk = slice(start, start + CHUNK)
            for mode, (W, theta) in predictors.items():
                scores = X @ W[chunk].T - theta[chunk]  # points x snapshots
                accuracy[chunk, p, MODES.index(mode)] = (_labels(scores) == y[:, None]).mean(
                    axis=0
                )
                if mode != "last":
                    continue
                if p == 0:
                    safe = np.where(norms[chunk] > 0, norms[chunk], 1.0)
                    margins = y[:, None] * scores / safe
                    low, width, hist[chunk, 0], hist[chunk, 1] = margin_bins(margins)
                    hist_range[chunk, 0], hist_range[chunk, 1] = low, width
                    achieved[chunk] = np.where(norms[chunk] > 0, margins.min(axis=0), np.nan)
                if p == len(parts) - 1:  # confusion on the test part when there is one
                    confusion[chunk] = confusion_counts(y, scores)
        if voted:
            voted_scores = _voted_scores(tl, X, votes, rows)
            last = X @ predictors["last"][0].T - predictors["last"][1]
            cum = np.cumsum(np.r_[0.0, votes[1:]])[rows]
            v = np.where(cum[:, None] > 0, voted_scores, last.T)  # no votes yet: the last line
            accuracy[:, p, MODES.index("voted")] = (_labels(v) == y).mean(axis=1)
    curve = np.unique(np.linspace(0, H - 1, min(H, MAX_CURVE_POINTS)).round().astype(np.int64))
    out = {
        "snap_rows": packer.add(f"{name}/snap_rows", rows, np.int32),
        "snap_accuracy": packer.add(f"{name}/snap_accuracy", accuracy),
        "snap_hist": packer.add(f"{name}/snap_hist", hist),
        "snap_hist_range": packer.add(f"{name}/snap_hist_range", hist_range, np.float64),
        "snap_margin": packer.add(f"{name}/snap_margin", achieved, np.float64),
        "snap_confusion": packer.add(f"{name}/snap_confusion", confusion),
        "curve_rows": packer.add(f"{name}/curve_rows", curve, np.int32),
    }
    if data.w_star is not None:
        Wc = tl.W[0, curve]
        norms_c = np.linalg.norm(Wc, axis=1) * np.linalg.norm(data.w_star)
        with np.errstate(invalid="ignore", divide="ignore"):
            cos = np.where(norms_c > 0, Wc @ data.w_star / norms_c, np.nan)
        angle = np.degrees(np.arccos(np.clip(cos, -1, 1)))
        out["curve_angle"] = packer.add(f"{name}/curve_angle", angle, np.float32)
    return out
