"""Plotly figures of a training run at one time step (no Streamlit here).

:func:`plane_figure` is the playground's main picture for 2-D data: points
(a colour-blind-safe palette *and* a marker shape per class), the decision
region, the line, the margin band, the weight vector and the update vector,
and the marks for noise, the λ-trick, the α-bound and support points.
:func:`projection_figure`, :func:`angle_figure` and
:func:`margin_histogram` are the view for data with more than two features;
:func:`mistakes_figure` is the per-epoch diagnostic.

Every function takes the data, the run and the time ``t``, and draws only
what :class:`Show` switches on, so lessons preset a picture by passing a
different :class:`Show`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from ui.datasource import Dataset
from ui.timeline import BLOCKED, RESCUED

# Okabe & Ito's colour-blind-safe palette.
BLUE, ORANGE, GREEN, VERMILLION = "#0072B2", "#E69F00", "#009E73", "#D55E00"
PURPLE, SKY, GREY, BLACK = "#CC79A7", "#56B4E9", "#9E9E9E", "#222222"
CLASS_STYLE = {-1: (BLUE, "circle"), 1: (ORANGE, "diamond")}
#: plotly_white's look, set directly: naming a template costs about 12 ms per
#: figure (Plotly validates all of it), a tenth of a step's time budget.
PLAIN = {"plot_bgcolor": "white", "paper_bgcolor": "white"}
AXIS = {"gridcolor": "#EBF0F8", "linecolor": "#EBF0F8", "zerolinecolor": "#EBF0F8"}
#: Light tints for the decision region: -1 side, boundary, +1 side.
REGION_SCALE = [[0.0, "#cfe3f1"], [0.5, "#ffffff"], [1.0, "#fbe6bd"]]
GRID = 90  # region heat-map resolution per axis
#: The voted region costs grid rows x stored hypotheses per step; a coarser,
#: smoothed grid keeps a step of the voted view under the 150 ms target.
VOTED_GRID = 60
MAX_VOTED_LINES = 40
#: Opacity levels of the ensemble's lines: lines of one level share a trace,
#: because every Plotly trace costs about 2 ms to build.
VOTE_LEVELS = 6
#: Points per axis of the invisible grid that turns a click on empty space
#: into coordinates (Plotly reports clicks on points only); about 15 px
#: apart on screen, so a click always lands within reach of one.
CLICK_GRID = 40
CLICK_GRID_NAME = "click grid"
MAX_PROJECTED_POINTS = 2_000
MAX_CURVE_POINTS = 2_000
MARGIN_BINS = 40


@dataclass(frozen=True)
class Show:
    """What the picture draws (the playground's view toggles; lessons preset them)."""

    region: bool = True
    band: bool = True
    arrows: bool = True
    test_points: bool = True
    flips: bool = True
    ensemble: bool = False  # voted: hypotheses at opacity ∝ votes, and the voted region
    averaged: bool = False
    longest: bool = False
    target: bool = False
    categories: bool = True  # parallel perceptrons: safe / noisy / borderline
    mode: str = "last"  # the predictor whose line and region are drawn


# -- geometry ----------------------------------------------------------------


def axis_box(*arrays: np.ndarray, pad: float = 0.08) -> tuple[float, float, float, float]:
    """``(x0, x1, y0, y1)`` around all points, padded, never degenerate."""
    P = np.vstack([a for a in arrays if len(a)])
    lo, hi = P.min(axis=0), P.max(axis=0)
    span = np.maximum(hi - lo, 1e-9)
    lo, hi = lo - pad * span, hi + pad * span
    return float(lo[0]), float(hi[0]), float(lo[1]), float(hi[1])


def clip_halfplanes(box, constraints) -> np.ndarray:
    """Corners of the part of ``box`` where ``a·p <= b`` for every ``(a, b)`` (Sutherland–Hodgman)."""
    x0, x1, y0, y1 = box
    poly = [np.array(p, float) for p in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))]
    for a, b in constraints:
        out = []
        for i, p in enumerate(poly):
            q = poly[(i + 1) % len(poly)]
            fp, fq = a @ p - b, a @ q - b
            if fp <= 0:
                out.append(p)
            if fp * fq < 0:
                out.append(p + (q - p) * fp / (fp - fq))
        poly = out
        if not poly:
            break
    return np.array(poly).reshape(-1, 2)


def line_segment(w: np.ndarray, c: float, box) -> np.ndarray | None:
    """The part of the line ``<w, p> = c`` inside ``box`` (two points), or None."""
    if not np.any(w):
        return None
    x0, x1, y0, y1 = box
    pts = []
    if w[1] != 0:
        for x in (x0, x1):
            y = (c - w[0] * x) / w[1]
            if y0 - 1e-9 <= y <= y1 + 1e-9:
                pts.append((x, y))
    if w[0] != 0:
        for y in (y0, y1):
            x = (c - w[1] * y) / w[0]
            if x0 - 1e-9 <= x <= x1 + 1e-9:
                pts.append((x, y))
    pts = np.unique(np.round(np.array(pts), 12), axis=0) if pts else np.zeros((0, 2))
    return pts[[0, -1]] if len(pts) >= 2 else None


def _grid(box, n: int = GRID):
    x0, x1, y0, y1 = box
    return np.linspace(x0, x1, n), np.linspace(y0, y1, n)


# -- trace pieces ---------------------------------------------------------------


def _line_trace(w, theta, box, name, color, dash="solid", width=2.5, opacity=1.0, legend=True):
    seg = line_segment(w, theta, box)
    if seg is None:
        return None
    return go.Scatter(
        x=seg[:, 0],
        y=seg[:, 1],
        mode="lines",
        name=name,
        opacity=opacity,
        line={"color": color, "dash": dash, "width": width},
        hoverinfo="name",
        showlegend=legend,
    )


def _region_trace(xs, ys, Z, scale):
    return go.Heatmap(
        x=xs,
        y=ys,
        z=np.clip(Z / scale, -1, 1),
        zmin=-1,
        zmax=1,
        colorscale=REGION_SCALE,
        showscale=False,
        hoverinfo="skip",
        name="decision region",
    )


def _points(
    X, y, names, marker_colors=None, hover=None, hollow=False, size=9, legend=True, suffix=""
):
    traces = []
    for label in (-1, 1):
        mask = y == label
        if not mask.any():
            continue
        color, symbol = CLASS_STYLE[label]
        colors = color if marker_colors is None else marker_colors[mask]
        traces.append(
            go.Scatter(
                x=X[mask, 0],
                y=X[mask, 1],
                mode="markers",
                name=_class_name(names, label) + suffix,
                marker={
                    "symbol": symbol + ("-open" if hollow else ""),
                    "size": size,
                    "color": colors,
                    "line": {
                        "width": 0.6 if not hollow else 1.6,
                        "color": "white" if not hollow else color,
                    },
                },
                hovertext=None if hover is None else hover[mask],
                hoverinfo="text",
                showlegend=legend,
            )
        )
    return traces


def _class_name(names, label) -> str:
    """'benign (−1)', or just '−1' when the class has no other name."""
    name = names[0 if label < 0 else 1]
    sign = f"{label:+d}".replace("-", "−")
    return sign if name.replace("-", "−") == sign else f"{name} ({sign})"


def _overlay(X, mask, name, symbol, color, size=16, width=2, hover=None):
    if not mask.any():
        return None
    return go.Scatter(
        x=X[mask, 0],
        y=X[mask, 1],
        mode="markers",
        name=name,
        marker={
            "symbol": symbol,
            "size": size,
            "color": color,
            "line": {"width": width, "color": color},
        },
        hovertext=None if hover is None else hover[mask],
        hoverinfo="text" if hover is not None else "name",
    )


def _arrow(tail, head, color, text, width=2.5):
    return {
        "x": head[0],
        "y": head[1],
        "ax": tail[0],
        "ay": tail[1],
        "xref": "x",
        "yref": "y",
        "axref": "x",
        "ayref": "y",
        "showarrow": True,
        "arrowhead": 2,
        "arrowsize": 1.2,
        "arrowwidth": width,
        "arrowcolor": color,
        "text": text,
        "font": {"color": color, "size": 12},
        "bgcolor": "rgba(255,255,255,0.75)",
        "xanchor": "left",
        "yanchor": "bottom",
    }


def vline(x: float, color: str, width: float = 1.5, dash: str = "solid") -> dict:
    """A vertical line across the plot as a layout shape (``fig.add_vline`` costs ~10 ms)."""
    return {
        "type": "line",
        "xref": "x",
        "yref": "paper",
        "x0": x,
        "x1": x,
        "y0": 0,
        "y1": 1,
        "line": {"color": color, "width": width, "dash": dash},
    }


def _anchor(w, theta, centre):
    """The point of the line ``<w,p> = theta`` nearest ``centre`` (the arrows' foot)."""
    return centre - (w @ centre - theta) / (w @ w) * w


def _ensemble_traces(tl, t: int, box) -> list[go.Scatter]:
    """The stored hypotheses with most votes at time ``t``, opacity ∝ votes.

    At most :data:`MAX_VOTED_LINES` lines (the legend says how many of how
    many), their opacity rounded up to one of :data:`VOTE_LEVELS` levels;
    the lines of a level are one trace, segments separated by gaps.
    """
    rows, votes = tl.voting_rows(t)
    if len(rows) == 0:
        return []
    name = f"stored hypotheses (top {min(len(rows), MAX_VOTED_LINES):,} of {len(rows):,} by votes)"
    top = np.argsort(votes, kind="stable")[::-1][:MAX_VOTED_LINES]
    rows, votes = rows[top], votes[top]
    level = np.ceil(VOTE_LEVELS * votes / votes.max()).astype(int)
    traces = []
    for lv in np.unique(level)[::-1]:
        xs, ys = [], []
        for k in rows[level == lv]:
            seg = line_segment(tl.W[0, k], tl.theta[0, k], box)
            if seg is not None:
                xs += [seg[0, 0], seg[1, 0], None]
                ys += [seg[0, 1], seg[1, 1], None]
        if xs:
            traces.append(
                go.Scatter(
                    x=xs,
                    y=ys,
                    mode="lines",
                    name=name,
                    legendgroup="ensemble",
                    showlegend=not traces,
                    opacity=0.15 + 0.85 * lv / VOTE_LEVELS,
                    line={"color": GREY, "width": 1.5},
                    hoverinfo="name",
                )
            )
    return traces


# -- the main picture ------------------------------------------------------------


def click_grid(box) -> go.Scatter:
    """Invisible, hoverable points over the whole plane: a click anywhere selects one.

    Coordinates are rounded to a thousandth of the view (a shorter message
    per step, and added points get short coordinates).
    """
    x0, x1, y0, y1 = box
    digits = 3 - int(np.floor(np.log10(max(x1 - x0, y1 - y0))))
    xs, ys = (np.round(v, digits) for v in _grid(box, CLICK_GRID))
    gx, gy = np.meshgrid(xs, ys)
    return go.Scatter(
        x=gx.ravel(),
        y=gy.ravel(),
        mode="markers",
        name=CLICK_GRID_NAME,
        marker={"size": 6, "color": "rgba(0,0,0,0)"},
        hoverinfo="none",
        showlegend=False,
    )


def plane_figure(data: Dataset, run, t: int, show: Show = Show(), height: int = 640,
                 box=None, clickable: bool = False) -> go.Figure:  # fmt: skip
    """The 2-D picture of ``run`` on ``data`` at time ``t``.

    ``box`` fixes the axes (compare mode shares them); by default they fit
    every point. ``clickable`` adds :func:`click_grid` under everything, so a
    page can turn clicks into points.
    """
    tl, learner, est = run.timeline, run.learner, run.estimator
    t = tl.clip(t)
    X, y = data.X, data.y
    box = box or axis_box(X, data.X_test)
    names = data.class_names
    w, theta = tl.hypothesis(t)
    w_old, _theta_old = tl.previous_hypothesis(t)
    event = tl.event(t)
    counts = tl.update_counts(t)
    traces, annotations, shapes = [], [], []
    if clickable:
        traces.append(click_grid(box))  # first: drawn under everything
    mode = show.mode if learner.has_modes and learner.linear else "last"

    # decision region
    if show.region:
        if mode == "voted" or (show.ensemble and learner.family == "kw"):
            xs, ys = _grid(box, VOTED_GRID)
            Z = tl.voted_grid(xs, ys, t)
            scale = max(float(np.abs(Z).max()), 1.0)
            region = _region_trace(xs, ys, Z, scale)
            region.zsmooth = "best"  # hides the coarser grid's cells
        else:
            xs, ys = _grid(box)
            G = np.dstack(np.meshgrid(xs, ys)).reshape(-1, 2)
            Z = tl.scores(G, t, mode).reshape(len(ys), len(xs))
            scale = 0.5 * float(np.abs(Z).max()) or 1.0  # tint deepens away from the line
            region = _region_trace(xs, ys, Z, scale)
        traces.append(region)

    # margin band (in score units, around the shown hypothesis)
    band = learner.band(est) if learner.band and learner.linear and show.band else None
    if band is not None and np.any(w) and mode == "last":
        lo, hi = band
        poly = clip_halfplanes(box, [(w, theta + hi), (-w, -(theta + lo))])
        if len(poly) >= 3:
            traces.append(
                go.Scatter(
                    x=np.r_[poly[:, 0], poly[0, 0]],
                    y=np.r_[poly[:, 1], poly[0, 1]],
                    fill="toself",
                    mode="lines",
                    line={"width": 0},
                    fillcolor="rgba(120,120,120,0.18)",
                    name="margin band (updates inside)",
                    hoverinfo="name",
                )
            )

    if show.ensemble and learner.family == "kw":
        traces += _ensemble_traces(tl, t, box)

    # lines: current hypothesis (or committee members), averaged, longest, target
    if learner.linear:
        if tl.n_members > 1:
            for m in range(tl.n_members):
                wm, thm = tl.hypothesis(t, m)
                tr = _line_trace(
                    wm,
                    thm,
                    box,
                    f"member {m + 1}",
                    BLACK,
                    dash=("solid", "dash", "dot", "dashdot")[m % 4],
                    width=2,
                )
                if tr is not None:
                    traces.append(tr)
        elif mode in ("last", "averaged", "longest"):
            if mode == "averaged":
                w_shown, th_shown = tl.averaged_hypothesis(t)
            elif mode == "longest":
                k = tl.longest_row(t)
                w_shown, th_shown = tl.W[0, k], tl.theta[0, k]
            else:
                w_shown, th_shown = w, theta
            tr = _line_trace(w_shown, th_shown, box, f"boundary ({mode})", BLACK, width=3)
            if tr is not None:
                traces.append(tr)
        if show.averaged and learner.has_modes and mode != "averaged":
            wa, ta = tl.averaged_hypothesis(t)
            tr = _line_trace(wa, ta, box, "averaged", GREEN, dash="dash")
            if tr is not None:
                traces.append(tr)
        if show.longest and learner.has_modes and mode != "longest":
            k = tl.longest_row(t)
            tr = _line_trace(
                tl.W[0, k], tl.theta[0, k], box, "longest survivor", PURPLE, dash="dot", width=3
            )
            if tr is not None:
                traces.append(tr)
    if show.target and data.w_star is not None:
        tr = _line_trace(
            data.w_star, data.theta_star, box, "true boundary", BLACK, dash="dot", width=1.5
        )
        if tr is not None:
            traces.append(tr)

    # points
    own = tl.scores(X, t, "last") if tl.n_members == 1 else None
    hover = np.array(
        [
            f"x = ({a:.3g}, {b:.3g})<br>y = {c:+d}<br>updates caused: {n}"
            + ("" if own is None else f"<br>score ⟨w,x⟩−θ = {s:.3g}")
            for (a, b), c, n, s in zip(X, y, counts, own if own is not None else counts)
        ]
    )
    colors = None
    alpha = getattr(est, "alpha_bound", None)
    if alpha is not None:
        capped = counts >= alpha
        colors = np.where(capped, GREY, np.where(y > 0, ORANGE, BLUE))
    traces += _points(X, y, names, marker_colors=colors, hover=hover, suffix=" train")
    if show.test_points and len(data.X_test):
        traces += _points(data.X_test, data.y_test, names, hollow=True, suffix=" test", size=8)
    if alpha is not None and (counts >= alpha).any():
        traces.append(
            _overlay(
                X,
                counts >= alpha,
                f"used up its α-bound ({alpha}): ignored",
                "circle",
                GREY,
                size=9,
                width=0,
            )
        )
    if show.flips and data.flipped.any():
        traces.append(
            _overlay(
                X, data.flipped, "label flipped by noise", "x-thin-open", BLACK, size=11, width=2
            )
        )
    lam = float(getattr(est, "lam", 0.0) or 0.0)
    if lam > 0 and learner.family in ("kw", "kernel") and learner.linear:
        sq = (X**2).sum(axis=1)
        boosted = X @ w - theta + y * lam * sq
        ring_hover = np.array([f"λ-trick on: score with push = {b:.3g}" for b in boosted])
        traces.append(
            _overlay(
                X,
                counts > 0,
                "forced an update (λ push on)",
                "circle-open",
                PURPLE,
                size=15,
                width=1.5,
                hover=ring_hover,
            )
        )
        traces.append(
            _overlay(
                X,
                tl.latest_kind(t) == RESCUED,
                "rescued by the λ push (no update)",
                "cross-thin-open",
                GREEN,
                size=13,
                width=2.5,
            )
        )
    if learner.family == "kernel":
        traces.append(
            _overlay(
                X, counts > 0, "support points (a_j > 0)", "circle-open", BLACK, size=15, width=1.5
            )
        )
    if learner.family == "committee" and show.categories and t == tl.n_events:
        cats = est.categorize(X, y)
        traces.append(
            _overlay(
                X,
                cats == "noisy",
                "flagged noisy (after training)",
                "square-open",
                GREEN,
                size=15,
                width=2.5,
            )
        )
        traces.append(
            _overlay(
                X,
                cats == "borderline",
                "borderline (after training)",
                "circle-open",
                SKY,
                size=14,
                width=1.5,
            )
        )
    blocked_now = event is not None and tl.kind[0, event] == BLOCKED

    # current example, w and the update vector
    if event is not None:
        j = int(tl.index[event])
        traces.append(
            go.Scatter(
                x=[X[j, 0]],
                y=[X[j, 1]],
                mode="markers",
                name="current example",
                marker={
                    "symbol": "circle-open",
                    "size": 26,
                    "color": VERMILLION,
                    "line": {"width": 4, "color": VERMILLION},
                },
                hoverinfo="name",
            )
        )
        if show.arrows and learner.linear and tl.n_members == 1 and learner.family != "kernel":
            centre = np.array([(box[0] + box[1]) / 2, (box[2] + box[3]) / 2])
            length = 0.22 * np.hypot(box[1] - box[0], box[3] - box[2])
            norm = max(np.linalg.norm(w), np.linalg.norm(w_old))
            if norm > 0:
                scale = length / norm
                foot = _anchor(w, theta, centre) if np.any(w) else centre
                if not (box[0] <= foot[0] <= box[1] and box[2] <= foot[1] <= box[3]):
                    foot = centre  # the line is out of view: draw w from the middle
                if tl.is_update(t) and np.any(w_old):
                    tip_old = foot + scale * w_old
                    annotations.append(_arrow(foot, tip_old, GREY, "w old"))
                    annotations.append(
                        _arrow(tip_old, foot + scale * w, VERMILLION, "Δw = update")
                    )
                annotations.append(_arrow(foot, foot + scale * w, BLACK, "w"))
    traces = [tr for tr in traces if tr is not None]

    status = f"step {t:,} of {tl.n_events:,} · epoch {tl.epoch_at(t) + 1}"
    if event is not None and tl.n_members == 1:
        status += f" · updates so far {tl.row(t):,}"
    if learner.linear and tl.n_members == 1 and tl.W.shape[2] and not np.any(w):
        status += " · w = 0: no line yet, every score is −θ"
    elif learner.linear and tl.n_members == 1 and line_segment(w, theta, box) is None:
        status += " · the line ⟨w,x⟩ = θ is outside the view"
    if blocked_now:
        status += " · blocked by the α-bound"
    fig = go.Figure(data=traces)
    fig.update_layout(
        height=height,
        margin={"l": 10, "r": 10, "t": 40, "b": 10},
        **PLAIN,
        xaxis_title_standoff=4,
        title={"text": status, "font": {"size": 15}, "x": 0.01, "y": 0.98},
        xaxis={
            "range": [box[0], box[1]],
            "title": data.feature_names[0],
            "constrain": "domain",
            "zeroline": False,
            **AXIS,
        },
        yaxis={
            "range": [box[2], box[3]],
            "title": data.feature_names[1],
            "scaleanchor": "x",
            "scaleratio": 1,
            "zeroline": False,
            **AXIS,
        },
        # below the x-axis title at any height (90 px under the plot area)
        legend={
            "orientation": "h",
            "yanchor": "top",
            "y": -90 / (height - 50),
            "x": 0,
            "font": {"size": 12},
        },
        modebar={"orientation": "v"},  # a horizontal one covers the end of a long title
        annotations=annotations,
        shapes=shapes,
        uirevision="plane",
    )
    return fig


# -- more than two features ---------------------------------------------------------


def subsample(n: int, limit: int = MAX_PROJECTED_POINTS, seed: int = 0) -> np.ndarray:
    """At most ``limit`` row indices, chosen at random with ``seed`` (all rows if fewer)."""
    if n <= limit:
        return np.arange(n)
    return np.sort(np.random.default_rng(seed).choice(n, size=limit, replace=False))


def projection_basis(w_star, w, X) -> tuple[np.ndarray, np.ndarray, str, str]:
    """Orthonormal ``(e1, e2)`` and axis names for the view of high-dimensional data.

    With a known target: ``e1 = w*`` and ``e2`` the part of the learned ``w``
    orthogonal to it, so both boundaries are exact lines in the view. Without
    one: ``e1 = w`` and ``e2`` the data's main direction of spread
    orthogonal to it. Degenerate cases fall back to the main spread.
    """
    known = w_star is not None and bool(np.any(w_star))
    first = w_star if known else w
    if not np.any(first):
        first = _main_direction(X, np.zeros(X.shape[1]))
    e1 = first / np.linalg.norm(first)
    rest = w - (w @ e1) * e1 if known else np.zeros_like(e1)
    if np.linalg.norm(rest) <= 1e-9 * max(np.linalg.norm(w), 1.0):
        rest = _main_direction(X, e1)
    e2 = rest / np.linalg.norm(rest)
    if known:
        return e1, e2, "along w* (true target)", "learned w, part ⟂ w*"
    return e1, e2, "along w (learned)", "main spread of the data ⟂ w"


def _main_direction(X, e1) -> np.ndarray:
    """The top principal direction of ``X`` after removing the ``e1`` component."""
    Xc = X - X.mean(axis=0)
    Xc = Xc - np.outer(Xc @ e1, e1)
    _, _, Vt = np.linalg.svd(Xc[:MAX_PROJECTED_POINTS], full_matrices=False)
    v = Vt[0] - (Vt[0] @ e1) * e1
    return v if np.linalg.norm(v) > 1e-12 else np.eye(len(e1))[np.argmin(np.abs(e1))]


def projection_figure(data: Dataset, run, t: int, show: Show = Show(), seed: int = 0,
                      height: int = 520) -> go.Figure:  # fmt: skip
    """The data projected on the plane of ``w*`` and the learned ``w``, with both boundaries."""
    tl = run.timeline
    w, theta = tl.hypothesis(t)
    e1, e2, n1, n2 = projection_basis(data.w_star, w, data.X)
    rows = subsample(len(data.X), seed=seed)
    P = np.c_[data.X[rows] @ e1, data.X[rows] @ e2]
    y = data.y[rows]
    box = axis_box(P)
    traces = []
    # w lies in the plane, so <w, x> = <w, Px> and the learned boundary is exact here
    w2 = np.array([w @ e1, w @ e2])
    tr = _line_trace(w2, theta, box, "learned boundary", BLACK, width=3)
    if tr is not None:
        traces.append(tr)
    if data.w_star is not None:
        ws2 = np.array([data.w_star @ e1, data.w_star @ e2])
        tr = _line_trace(ws2, data.theta_star, box, "true boundary", BLACK, dash="dot")
        if tr is not None:
            traces.append(tr)
    traces += _points(P, y, data.class_names, size=7)
    if show.flips and data.flipped[rows].any():
        traces.append(
            _overlay(
                P,
                data.flipped[rows],
                "label flipped by noise",
                "x-thin-open",
                BLACK,
                size=10,
                width=2,
            )
        )
    event = tl.event(t)
    if event is not None:
        j = int(tl.index[event])
        pj = data.X[j] @ np.c_[e1, e2]
        traces.append(
            go.Scatter(
                x=[pj[0]],
                y=[pj[1]],
                mode="markers",
                name="current example",
                marker={
                    "symbol": "circle-open",
                    "size": 24,
                    "color": VERMILLION,
                    "line": {"width": 4, "color": VERMILLION},
                },
            )
        )
    shown = (
        f"showing {len(rows):,} of {len(data.X):,} points, random sample seed {seed}"
        if len(rows) < len(data.X)
        else f"all {len(rows):,} points"
    )
    plane = "w* and w" if data.w_star is not None else "w and the data's main spread"
    fig = go.Figure(data=[tr for tr in traces if tr is not None])
    fig.update_layout(
        height=height,
        **PLAIN,
        margin={"l": 10, "r": 10, "t": 40, "b": 10},
        title={
            "text": f"Projection on the plane of {plane} · step {t:,} · {shown}",
            "font": {"size": 14},
            "x": 0.01,
        },
        xaxis={"title": n1, "range": [box[0], box[1]], "zeroline": False, **AXIS},
        yaxis={"title": n2, "range": [box[2], box[3]], "zeroline": False, **AXIS},
        legend={"orientation": "v", "yanchor": "top", "y": 1, "x": 1.02},
        uirevision="projection",
    )
    return fig


def angle_figure(data: Dataset, run, t: int, height: int = 260) -> go.Figure:
    """Angle between ``w*`` and the learned ``w`` after each update, current step marked.

    Long runs are drawn at :data:`MAX_CURVE_POINTS` evenly spaced updates
    (the title says so): the curve looks the same and the page stays light.
    """
    tl = run.timeline
    rows = np.unique(np.linspace(0, tl.W.shape[1] - 1, MAX_CURVE_POINTS).round().astype(int))
    W = tl.W[0, rows]
    norms = np.linalg.norm(W, axis=1) * np.linalg.norm(data.w_star)
    with np.errstate(invalid="ignore", divide="ignore"):
        cos = np.where(norms > 0, W @ data.w_star / norms, np.nan)
    angle = np.degrees(np.arccos(np.clip(cos, -1, 1)))
    x_title = "updates"
    if len(rows) < tl.W.shape[1]:
        x_title += f" ({len(rows):,} of {tl.W.shape[1]:,} drawn)"
    fig = go.Figure(
        go.Scatter(x=rows, y=angle, mode="lines", line={"color": BLUE}, name="angle(w*, w)")
    )
    fig.update_layout(
        height=height,
        **PLAIN,
        shapes=[vline(tl.row(t), VERMILLION, dash="dot")],
        margin={"l": 10, "r": 10, "t": 30, "b": 10},
        title={"text": "Angle between w* and w (degrees)", "font": {"size": 14}},
        xaxis={"title": x_title, **AXIS},
        yaxis={"title": "degrees", **AXIS},
    )
    return fig


def margin_histogram(data: Dataset, run, t: int, height: int = 260) -> go.Figure:
    """Histogram of ``y(<w,x> - θ)/||w||`` over the whole training set at time ``t``.

    The bins are counted here, so every point counts and the page receives
    40 bars, not one number per point.
    """
    w, theta = run.timeline.hypothesis(t)
    norm = np.linalg.norm(w)
    margins = data.y * (data.X @ w - theta) / (norm if norm > 0 else 1.0)
    edges = np.histogram_bin_edges(margins, bins=MARGIN_BINS)
    if edges[0] < 0 < edges[-1]:  # a bin edge at 0: no bar holds both sides
        step = edges[1] - edges[0]
        edges = np.arange(np.floor(edges[0] / step), np.ceil(edges[-1] / step) + 1) * step
    fig = go.Figure()
    for ok, color, name in (
        (margins > 0, BLUE, "right side"),
        (margins <= 0, VERMILLION, "wrong side"),
    ):
        counts, _ = np.histogram(margins[ok], bins=edges)
        fig.add_bar(
            x=(edges[:-1] + edges[1:]) / 2,
            y=counts,
            width=np.diff(edges),
            name=name,
            marker_color=color,
            opacity=0.8,
        )
    fig.update_layout(
        height=height,
        **PLAIN,
        shapes=[vline(0, BLACK, width=1)],
        barmode="overlay",
        margin={"l": 10, "r": 10, "t": 30, "b": 10},
        title={"text": "Margins y(⟨w,x⟩−θ)/‖w‖", "font": {"size": 14}},
        xaxis=AXIS,
        yaxis={"title": f"points (all {len(margins):,})", **AXIS},
        legend={"orientation": "v", "x": 0.98, "y": 0.98, "xanchor": "right", "yanchor": "top"},
    )
    return fig
