"""Diagnostics of a run at time t: mistakes per epoch, the four predictors, Novikoff, confusion.

The numbers are computed here from the timeline (pure NumPy, testable);
:func:`diagnostics_panel` lays them out.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from ui.figures import AXIS, BLUE, ORANGE, PLAIN, VERMILLION, vline
from ui.learners import MODES


def novikoff_bound(X, y, w_star, theta_star, eta, C, theta_init) -> tuple[float, float, float]:
    r"""Novikoff's bound on the updates of the thresholded perceptron, and its R and γ.

    Fold the threshold into an extra coordinate: with ``z = (x, -√C)`` and
    ``v = (w, θ/√C)`` the score is ``<v, z> = <w, x> - θ``, and the rule's
    update ``w += η y x``, ``θ -= η y C`` is ``v += η y z`` (the last
    coordinate moves by ``-η y C / √C = -η y √C``). Let ``u`` be the true
    boundary ``(w*, θ*/√C)`` scaled to unit length, ``γ = min_j y_j <u, z_j>``
    and ``R = max_j ||z_j||``. From ``<u, v_k> >= a + kηγ`` and
    ``||v_k||² <= b² + kη²R²`` (with ``a = <u, v_0>``, ``b = ||v_0||``,
    ``v_0 = (0, θ_init/√C)``) the number of updates ``k`` satisfies
    ``(a + kηγ)² <= b² + kη²R²``; the bound is its largest root. Novikoff's
    ``(R/γ)²`` is the case ``θ_init = 0``; the default start
    ``θ_init = mean ||x||²`` shifts it.

    Returns
    -------
    bound, R, gamma : float
        ``bound`` is inf when the data are not separated by the true boundary.

    Raises
    ------
    ValueError
        If ``C <= 0``: the threshold then never moves, and no fold represents it.

    Examples
    --------
    >>> import numpy as np
    >>> X, y = np.array([[1.0, 0.0], [-1.0, 0.0]]), np.array([1, -1])
    >>> bound, R, gamma = novikoff_bound(X, y, np.array([1.0, 0.0]), 0.0, 1.0, 3.0, 0.0)
    >>> print(f"R = {R:.3g}, γ = {gamma:.3g}, bound = {bound:.3g}")   # R = √(1 + 3)
    R = 2, γ = 1, bound = 4
    """
    if not C > 0:
        raise ValueError(
            f"novikoff_bound needs a threshold step C > 0; got C = {C}. With C = 0 the "
            "threshold stays at θ_init and cannot be folded into the weights."
        )
    root_C = np.sqrt(C)
    u = np.r_[w_star, theta_star / root_C]
    u = u / np.linalg.norm(u)
    Z = np.c_[X, np.full(len(X), -root_C)]
    gamma = float((y * (Z @ u)).min())
    R = float(np.sqrt((Z**2).sum(axis=1).max()))
    if gamma <= 0:
        return float("inf"), R, gamma
    a = u[-1] * theta_init / root_C
    b2 = theta_init**2 / C
    A = (eta * gamma) ** 2
    B = 2 * a * eta * gamma - (eta * R) ** 2
    disc = B * B - 4 * A * (a * a - b2)
    return float((-B + np.sqrt(disc)) / (2 * A)), R, gamma


def accuracies_at(run, data, t: int) -> dict[str, dict[str, float]]:
    """Accuracy of each predictor at time ``t``: ``{"train": {mode: acc}, "test": {...}}``."""
    tl, learner = run.timeline, run.learner
    modes = MODES if learner.family == "kw" else ("last",)
    out = {}
    for part, X, y in (("train", data.X, data.y), ("test", data.X_test, data.y_test)):
        if len(X):
            out[part] = {
                m: float((np.where(tl.scores(X, t, m) > 0, 1, -1) == y).mean()) for m in modes
            }
    return out


def confusion(y_true, y_pred) -> np.ndarray:
    """2 x 2 counts, rows = true (-1, +1), columns = predicted (-1, +1)."""
    return np.array(
        [[int(((y_true == a) & (y_pred == b)).sum()) for b in (-1, 1)] for a in (-1, 1)]
    )


def test_mistakes_per_epoch(tl, X_test, y_test) -> np.ndarray:
    """Test errors of the hypothesis in force at the end of each epoch."""
    if len(X_test) == 0:
        return np.zeros(0, dtype=np.int64)
    ends = np.r_[tl.epoch_starts()[1:], tl.n_events]
    return np.array(
        [int((np.where(tl.scores(X_test, e) > 0, 1, -1) != y_test).sum()) for e in ends]
    )


def geometric_margin(tl, X, y, t) -> float | None:
    """``min_j y_j(<w,x_j> - θ) / ||w||`` of the current line (negative: not separated)."""
    if tl.n_members > 1 or tl.W.shape[2] == 0:
        return None
    w, theta = tl.hypothesis(t)
    norm = np.linalg.norm(w)
    return None if norm == 0 else float((y * (X @ w - theta)).min() / norm)


def mistakes_figure(train: np.ndarray, test: np.ndarray, current_epoch: int,
                    height: int = 260) -> go.Figure:  # fmt: skip
    epochs = np.arange(1, len(train) + 1)
    fig = go.Figure()
    fig.add_scatter(
        x=epochs,
        y=train,
        mode="lines+markers",
        name="updates (train)",
        line={"color": BLUE},
        marker={"symbol": "circle", "size": 5},
    )
    if len(test):
        fig.add_scatter(
            x=epochs[: len(test)],
            y=test,
            mode="lines+markers",
            name="errors at epoch end (test)",
            line={"color": ORANGE, "dash": "dash"},
            marker={"symbol": "diamond", "size": 6},
        )
    fig.update_layout(
        height=height,
        shapes=[vline(current_epoch + 1, VERMILLION, dash="dot")],
        margin={"l": 10, "r": 10, "t": 30, "b": 10},
        **PLAIN,
        xaxis={"title": "epoch", **AXIS},
        yaxis={"title": "count", **AXIS},
        title={"text": "Mistakes per epoch", "font": {"size": 14}},
        legend={"orientation": "h", "y": 1.12, "x": 0.35},
    )
    return fig


def diagnostics_panel(run, data, t: int, prefix: str) -> None:
    """Metrics, the four predictors, Novikoff's bound, the confusion matrix and the curve."""
    tl, learner, est = run.timeline, run.learner, run.estimator
    cols = st.columns(4)
    cols[0].metric(
        "Updates so far",
        f"{tl.row(t):,}" if tl.n_members == 1 else "—",
        help="Hypothesis changes up to this step.",
    )
    margin = geometric_margin(tl, data.X, data.y, t)
    cols[1].metric(
        "Achieved margin",
        "—" if margin is None else f"{margin:.3g}",
        help="Smallest y(⟨w,x⟩−θ)/‖w‖ over the training set: negative while some "
        "point is on the wrong side.",
    )
    cols[2].metric(
        "Training time",
        f"{run.fit_seconds * 1000:.1f} ms",
        help="fit() with every visit recorded (the animation never retrains).",
    )
    cols[3].metric(
        "Epochs run",
        f"{int(tl.epoch.max()) + 1 if tl.n_events else 0}",
        help="On-line rules stop after an epoch without updates.",
    )

    left, right = st.columns([3, 2])
    train_curve = tl.mistakes_per_epoch()
    left.plotly_chart(
        mistakes_figure(train_curve, run.test_errors, tl.epoch_at(t)),
        width="stretch",
        key=f"{prefix}mistakes",
        config={"displaylogo": False},
    )
    acc = accuracies_at(run, data, t)
    with right:
        rows = [
            {"data": part, **{m: f"{v:.1%}" for m, v in accs.items()}}
            for part, accs in acc.items()
        ]
        st.markdown("**Accuracy at this step**")
        st.dataframe(rows, hide_index=True, width="stretch")
        if learner.has_modes and run.final_train:
            st.caption(
                "After training, from the core's predict_all: "
                + ", ".join(f"{m} {np.mean(run.final_train[m] == data.y):.1%}" for m in MODES)
                + " (train)."
            )
        part, X, y = (
            ("test", data.X_test, data.y_test) if len(data.X_test) else ("train", data.X, data.y)
        )
        pred = np.where(tl.scores(X, t, "last") > 0, 1, -1)
        m = confusion(y, pred)
        st.markdown(f"**Confusion matrix ({part}, last hypothesis)**")
        st.dataframe(
            [
                {"true \\ predicted": f"{data.class_names[0]} (−1)", "−1": m[0, 0], "+1": m[0, 1]},
                {"true \\ predicted": f"{data.class_names[1]} (+1)", "−1": m[1, 0], "+1": m[1, 1]},
            ],
            hide_index=True,
            width="stretch",
        )
    margin_true = data.separable_margin
    if learner.novikoff and learner.novikoff(est) and margin_true is not None:
        if margin_true > 0:
            bound, R, gamma = novikoff_bound(
                data.X, data.y, data.w_star, data.theta_star, est.eta, est.C_, est.theta_init_
            )
            st.markdown(
                f"**Novikoff's bound.** The true line separates the training data, so the "
                f"perceptron makes at most **{bound:,.0f}** updates (R = {R:.3g}, γ = {gamma:.3g} "
                f"with the threshold folded in as a coordinate; see `novikoff_bound`). "
                f"Novikoff's (R/γ)² = {(R / gamma) ** 2:,.0f} is the bound for a start at θ = 0"
                + (
                    f"; this run starts at θ_init = {est.theta_init_:.3g}, which shifts it. "
                    if est.theta_init_
                    else ", this run's start. "
                )
                + f"Updates so far: **{tl.row(t):,}**, in the whole run: "
                f"**{tl.W.shape[1] - 1:,}**."
            )
        else:
            st.caption(
                "Novikoff's bound needs data that a line separates; these training "
                "labels are not (noise or overlap), so no bound applies."
            )
