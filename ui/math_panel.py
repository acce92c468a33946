"""The math panel: the update rule of the current step with its real numbers.

For the current event it shows the example, the score the learner computed,
the test that decided (mistake, margin, λ-rescue, α-block or correct), and,
when the hypothesis moved, old → new ``w`` and ``θ``, with one line of why.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from ui.timeline import BLOCKED, CORRECT, MARGIN, MISTAKE, RESCUED

WHY = {
    CORRECT: "Right side of the boundary (and outside any margin band): nothing moves; the "
    "current hypothesis gains one vote.",
    MISTAKE: "Wrong side of the boundary: the update moves this example's score towards its "
    "label (for a line: w turns towards y·x and the threshold shifts).",
    MARGIN: "Right side, but inside the margin band: it counts as an error, and the update "
    "pushes the line away from the example.",
    RESCUED: "This would have been an error, but the example already forced an update, so the "
    "λ-trick adds y·λ‖x‖² to its score: it now lands on the right side and the line "
    "stays where it is.",
    BLOCKED: "An error, but this example has used up its α-bound of updates: it is ignored, "
    "so a mislabelled point cannot drag the line forever.",
}
OUTCOME = {
    CORRECT: "correct",
    MISTAKE: "mistake → update",
    MARGIN: "inside the margin → update",
    RESCUED: "rescued by the λ-trick",
    BLOCKED: "blocked by the α-bound",
}


def vec(v: np.ndarray, digits: int = 3) -> str:
    """A vector for LaTeX: all entries in 2-D, else the first three and the norm."""
    v = np.asarray(v, dtype=np.float64)
    if len(v) <= 3:
        return r"\left(" + ",\\ ".join(f"{x:.{digits}g}" for x in v) + r"\right)"
    head = ",\\ ".join(f"{x:.{digits}g}" for x in v[:3])
    return rf"\left({head},\ \dots\right)_{{\lVert\cdot\rVert = {np.linalg.norm(v):.{digits}g}}}"


def num(x: float, digits: int = 4) -> str:
    """A number for LaTeX; rounding dust such as 1e-16 shows as 0."""
    x = 0.0 if abs(x) < 1e-12 else float(x)
    return f"{x:.{digits}g}".replace("e", r"\mathrm{e}")


def minus(a: float, b: float) -> str:
    """``a - b`` written without a double minus sign."""
    return f"{num(a)} - {num(b)}" if b >= 0 else f"{num(a)} + {num(-b)}"


def _kw_lines(run, t, x, y, j):
    """The unified trainer's test with every term (SPEC §1)."""
    tl, est = run.timeline, run.estimator
    i = tl.event(t)
    kind = int(tl.kind[0, i])
    w_old, th_old = tl.previous_hypothesis(t)
    w_new, th_new = tl.hypothesis(t)
    raw = float(w_old @ x)
    lam = float(getattr(est, "lam", 0.0) or 0.0)
    counts_before = tl.update_counts(t - 1)[j]
    push = y * lam * float(x @ x) if lam > 0 and counts_before > 0 else 0.0
    s = raw + push
    margin = float(est.tau) * est.theta_init_
    lines = [rf"\langle w, x\rangle = {num(raw)}"]
    if push:
        lines.append(
            rf"s = {num(raw)} {'+' if push >= 0 else '-'} {num(abs(push))}"
            rf"\ (\lambda\text{{-push}}) = {num(s)}"
        )
    else:
        lines.append(rf"s = {num(s)}")
    test = rf"y\,(s - \theta) = {y:+d}\times({minus(s, th_old)}) = {num(y * (s - th_old))}"
    test += (
        rf"\ \le\ \tau\theta_{{init}} = {num(margin)}"
        if kind in (MISTAKE, MARGIN, BLOCKED)
        else rf"\ >\ \tau\theta_{{init}} = {num(margin)}"
        if margin > 0
        else r"\ > 0"
    )
    lines.append(test)
    if kind == BLOCKED:
        lines.append(rf"a_j = {counts_before} = \alpha\text{{: no update}}")
    if kind in (MISTAKE, MARGIN):
        lines.append(
            rf"w \leftarrow w + \eta y x = {vec(w_old)} + {num(est.eta)}\cdot({y:+d})"
            rf"\cdot{vec(x)} = {vec(w_new)}"
        )
        lines.append(
            rf"\theta \leftarrow \theta - \eta y C = {num(th_old)} - {num(est.eta)}"
            rf"\cdot({y:+d})\cdot{num(est.C_)} = {num(th_new)}"
        )
    return lines


def threshold(learner, theta: float) -> tuple[str, float]:
    """The threshold as the learner's rule writes it: ``θ``, or the bias ``b = -θ``."""
    return (r"b", -theta) if learner.bias else (r"\theta", theta)


def _generic_lines(run, t, x, y):
    """Any other learner: its recorded score, and old → new from the hypothesis tables."""
    tl = run.timeline
    i = tl.event(t)
    score = float(tl.score[0, i])
    lines = [rf"\text{{score}} = {num(score)},\quad y = {y:+d}"]
    if tl.is_update(t) and tl.W.shape[2] > 0:
        w_old, th_old = tl.previous_hypothesis(t)
        w_new, th_new = tl.hypothesis(t)
        lines.append(rf"w: {vec(w_old)} \to {vec(w_new)}")
        lines.append(rf"\Delta w = {vec(w_new - w_old)}")
        name, old = threshold(run.learner, th_old)
        lines.append(rf"{name}: {num(old)} \to {num(threshold(run.learner, th_new)[1])}")
    elif tl.is_update(t):
        name, old = threshold(run.learner, tl.theta[0, tl.before[i]])
        new = threshold(run.learner, tl.theta[0, tl.after[i]])[1]
        lines.append(rf"a_j \leftarrow a_j + 1,\quad {name}: {num(old)} \to {num(new)}")
    return lines


def _committee(run, t, x, y):
    tl = run.timeline
    i = tl.event(t)
    rows = []
    for m in range(tl.n_members):
        act = float(tl.score[m, i])
        rows.append(
            {
                "member": m + 1,
                "activation ⟨W,(x,1)⟩": round(act, 4),
                "y·act": round(y * act, 4),
                "outcome": OUTCOME.get(int(tl.kind[m, i]), "?"),
            }
        )
    st.dataframe(rows, hide_index=True, width="stretch")
    votes = int(np.sum(np.where(tl.score[:, i] > 0, 1, -1)))
    st.latex(rf"h(x) = \mathrm{{sign}}({votes:+d}) = {1 if votes > 0 else -1:+d},\quad y = {y:+d}")
    st.caption(
        "Batch training: the members' updates are summed over the epoch and applied "
        "at its end (then every W is rescaled to unit length), so the lines move once "
        "per epoch."
    )


def math_panel(run, data, t: int) -> None:
    """Draw the panel for time ``t`` of ``run`` on ``data``."""
    tl, learner = run.timeline, run.learner
    st.markdown(f"**{learner.title}**")
    st.latex(r"\begin{gathered}" + learner.rule + r"\end{gathered}")
    i = tl.event(t)
    if i is None:
        w, theta = tl.hypothesis(0)
        st.markdown("Before the first example. The start:")
        if tl.W.shape[2]:
            name, value = threshold(learner, theta)
            st.markdown(rf"$w = {vec(w)},\quad {name} = {num(value)}$")
        st.caption("Press ▶ 1 (or →) to visit the first example.")
        return
    j = int(tl.index[i])
    x, y = data.X[j], int(data.y[j])
    kind = int(tl.kind[0, i])
    st.markdown(
        f"Epoch **{int(tl.epoch[i]) + 1}**, example **#{j}**: "
        f"{'flipped by noise, ' if data.flipped[j] else ''}label y = **{y:+d}**"
    )
    st.markdown(rf"$x = {vec(x)}$")
    if learner.family == "committee":
        _committee(run, t, x, y)
        return
    lines = _kw_lines(run, t, x, y, j) if learner.family == "kw" else _generic_lines(run, t, x, y)
    for line in lines:  # inline math: text-sized, and it wraps at = and +
        st.markdown(f"${line}$")
    st.markdown(f"**{OUTCOME.get(kind, '?').capitalize()}.** {WHY.get(kind, '')}")
