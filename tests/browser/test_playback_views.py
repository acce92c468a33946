"""The browser component's views (ui/playback) in chromium, without a server.

The math panel's numbers against the Python computation of the same step
(KW with τ, λ and α on, PAUM's bias, a committee, a kernel learner), the 2-D
figure's marks, the voted ensemble's cap, Python-compatible number
formatting, and visitor text kept as text.
"""

from __future__ import annotations

import numpy as np
import pytest

from perceptron_lab.app_logic.datasource import DataRequest, make_dataset
from perceptron_lab.app_logic.payload import build_payload
from perceptron_lab.app_logic.style import STYLE, Show
from perceptron_lab.app_logic.timeline import BLOCKED, MARGIN, MISTAKE, RESCUED
from perceptron_lab.ui.player import texts
from tests.chromium import DECODE_JS, MATH_JS, figure_at, payload_arg, playback_page
from tests.pages import page_run

pytestmark = pytest.mark.browser

WEIGHTS_JS = """async ({payload, style, times}) => {
    const d = await (DECODE)(payload);
    const {WeightsChart} = await import('/weights.js');
    const node = document.createElement('div');
    node.style.width = '700px';
    document.body.append(node);
    const chart = new WeightsChart(node, {lane: d.lanes[0], scene: d.scene, style, config: {}});
    const marks = [];
    for (const t of times) {
        chart.update(t);
        await new Promise(done => requestAnimationFrame(() => setTimeout(done, 250)));
        marks.push(node.layout.shapes[0].x0);
    }
    return {traces: node.data.map(tr => ({name: tr.name, x: Array.from(tr.x), y: Array.from(tr.y),
                                          shape: tr.line.shape})),
            axis: node.layout.xaxis.title.text, marks};
}""".replace("DECODE", DECODE_JS)


@pytest.fixture(scope="module")
def page():
    with playback_page(plotly=True) as pg:
        yield pg


@pytest.fixture(scope="module")
def data():
    return make_dataset(
        DataRequest("gaussians", (("n_samples", 200),), "uniform", 0.15, 0.2, seed=2)
    )


def _run(key, data, epochs=8, **values):
    return page_run(key, values, epochs, 0, data)


def _math(page, run, data, times):
    return page.evaluate(
        MATH_JS,
        {
            "payload": payload_arg(build_payload(data, [run])),
            "texts": texts(run, data),
            "times": [int(t) for t in times],
        },
    )


def n(x: float, digits: int = 4) -> str:
    """A number as the math panel writes it (Python's g format, a real minus sign)."""
    return f"{0.0 if abs(x) < 1e-12 else x:.{digits}g}".replace("-", "−")


def _first(tl, kind) -> int:
    """The time step just after the first event of ``kind``."""
    hits = np.flatnonzero(tl.kind[0] == kind)
    assert len(hits), f"the run has no event of kind {kind}"
    return int(hits[0]) + 1


def test_the_kw_panel_shows_the_core_numbers_with_tau_lambda_and_alpha(page, data):
    run = _run("kw", data, tau=0.25, lam=0.5, alpha_bound=2)
    tl, est = run.timeline, run.estimator
    times = [_first(tl, kind) for kind in (RESCUED, BLOCKED, MARGIN, MISTAKE)]
    rescued, blocked, margin, mistake = _math(page, run, data, times)
    for t, text in zip(times, (rescued, blocked, margin, mistake)):
        i = t - 1
        j = int(tl.index[i])
        x, y = data.X[j], int(data.y[j])
        w_old, th_old = tl.previous_hypothesis(t)
        raw = float(w_old @ x)
        before = int(tl.update_counts(t - 1)[j])
        push = y * est.lam * float(x @ x) if before > 0 else 0.0
        assert f"⟨w, x⟩ = {n(raw)}" in text
        assert f"= {n(y * (raw + push - th_old))}" in text
        assert f"τθinit = {n(est.tau * est.theta_init_)}" in text
        assert f"Epoch {tl.epoch[i] + 1}, example #{j + 1}" in text  # counted from 1
    assert "(λ-push)" in rescued and "Rescued by the λ-trick." in rescued
    assert f"aj = {est.alpha_bound} = α: no update" in blocked
    w_new, th_new = tl.hypothesis(times[2])
    assert f"= ({n(w_new[0], 3)}, {n(w_new[1], 3)})" in margin  # w ← w + ηyx = ... = new w
    assert f"= {n(th_new)}" in margin.split("θ ← θ")[1]
    assert "Inside the margin → update." in margin and "Mistake → update." in mistake


def test_paum_writes_b_and_its_lambda_in_the_score(page, data):
    run = _run("paum", data, lam=0.5)
    tl = run.timeline
    t = tl.next_update(0)
    (text,) = _math(page, run, data, [t])
    b_old, b_new = -tl.previous_hypothesis(t)[1], -tl.hypothesis(t)[1]
    assert f"b: {n(b_old)} → {n(b_new)}" in text and "θ:" not in text
    assert f"score = {n(tl.score[0, t - 1])}" in text


def test_the_committee_panel_shows_every_members_activation(page, data):
    run = _run("parallel", data, epochs=4)
    tl = run.timeline
    t = 5
    (text,) = _math(page, run, data, [t])
    acts = tl.score[:, t - 1]
    for act in acts:
        assert n(act) in text
    vote = int(np.sum(np.where(acts > 0, 1, -1)))
    assert (
        f"h(x) = sign({'+' if vote >= 0 else '−'}{abs(vote)}) = {'+1' if vote > 0 else '−1'}"
        in text
    )


def test_the_kernel_panel_counts_the_example_and_moves_theta(page, data):
    run = _run("kernel", data, epochs=3)
    tl = run.timeline
    t = tl.next_update(3)
    (text,) = _math(page, run, data, [t])
    th_old, th_new = tl.theta[0, tl.before[t - 1]], tl.theta[0, tl.after[t - 1]]
    assert f"aj ← aj + 1, θ: {n(th_old)} → {n(th_new)}" in " ".join(text.split())
    assert f"score = {n(tl.score[0, t - 1])}" in text


def _figure(page, run, data, show, t):
    return figure_at(page, run, data, show, t)


def test_the_figure_marks_flips_and_moves_the_current_example(page, data):
    run = _run("kw", data, lam=0.5, alpha_bound=2)
    tl = run.timeline
    t = tl.next_update(50)
    figure = _figure(page, run, data, Show(), t)
    by_name = {tr["name"]: tr for tr in figure["traces"]}
    flips = by_name["label flipped by noise"]
    assert len(flips["x"]) == data.flipped.sum() > 0
    assert np.allclose(sorted(flips["x"]), sorted(data.X[data.flipped, 0]))
    counts = tl.update_counts(t)
    assert len(by_name["forced an update (λ push on)"]["x"]) == (counts > 0).sum()
    assert len(by_name["used up its α-bound (2): ignored"]["x"]) == (counts >= 2).sum()
    # the current example: its ring over a dark halo, both on the example
    halo, ring = [s for s in figure["shapes"] if s["type"] == "circle"]
    for shape in (halo, ring):
        assert np.allclose([shape["xanchor"], shape["yanchor"]], data.X[tl.index[t - 1]])
    assert ring["line"]["color"] == STYLE["colors"]["current"]
    assert halo["line"]["color"] == STYLE["colors"]["current_edge"]
    assert halo["line"]["width"] > ring["line"]["width"]
    w, theta = tl.hypothesis(t)
    (line,) = [
        s
        for s in figure["shapes"]
        if s["type"] == "line" and s["line"]["width"] == STYLE["line"]["boundary"]
    ]
    ends = np.array([[line["x0"], line["y0"]], [line["x1"], line["y1"]]])
    assert np.allclose(ends @ w, theta)  # both ends on <w, x> = θ
    status = figure["status"]
    assert status.startswith(f"step {t:,} of {tl.n_events:,} · epoch {tl.epoch_at(t) + 1}")
    assert f"updates so far {tl.row(t):,}" in status


def test_the_voted_ensemble_draws_its_top_hypotheses_and_says_how_many(page, data):
    run = _run("voted", data, epochs=10)
    tl = run.timeline
    t = tl.n_events
    voting = int((tl.votes(t)[1:] > 0).sum())
    assert voting > STYLE["ensemble"]["lines"]
    figure = _figure(page, run, data, Show(ensemble=True), t)
    ensemble = {"color": STYLE["colors"]["ensemble"], "width": STYLE["line"]["ensemble"]}
    lines = [
        s
        for s in figure["shapes"]
        if s["type"] == "line" and {k: s["line"].get(k) for k in ensemble} == ensemble
    ]
    assert len(lines) == STYLE["ensemble"]["lines"]
    assert f"{voting:,} hypotheses vote, the 40 with most votes drawn" in figure["status"]
    opacities = [s["opacity"] for s in lines]  # most votes first
    assert opacities == sorted(opacities, reverse=True) and opacities[0] == 1


def test_the_weights_chart_gives_the_test_accuracy_at_every_step(page, data):
    run = _run("perceptron", data, epochs=3)
    tl = run.timeline
    assert tl.row(tl.n_events) < 400  # every hypothesis is drawn: the curve is exact
    times = [0, 1, _first(tl, MISTAKE), tl.next_update(60) - 1, tl.next_update(60), tl.n_events]
    chart = page.evaluate(
        WEIGHTS_JS,
        {"payload": payload_arg(build_payload(data, [run])), "style": STYLE, "times": times},
    )
    assert chart["axis"] == "steps" and chart["marks"] == times
    by_name = {tr["name"]: tr for tr in chart["traces"]}
    curve = by_name["test accuracy %"]
    assert curve["shape"] == "hv" and curve["x"][-1] == tl.n_events
    for t in range(tl.n_events + 1):
        drawn = curve["y"][np.searchsorted(curve["x"], t, side="right") - 1]  # the staircase at t
        w, theta = tl.hypothesis(t)
        expected = 100 * np.mean(np.where(data.X_test @ w - theta > 0, 1, -1) == data.y_test)
        assert drawn == pytest.approx(expected), f"step {t}"
        norm = by_name["‖w‖"]["y"][np.searchsorted(curve["x"], t, side="right") - 1]
        assert norm == pytest.approx(np.linalg.norm(w), rel=1e-5)


@pytest.mark.parametrize(
    "value, spec",
    [
        (0.0001234567, ".4g"),
        (123456.7, ".4g"),
        (-0.5, ".4g"),
        (1e-5, ".4g"),
        (2.5, ".0f"),
        (0.125, ".2f"),
        (0.3456, ".1%"),
        (0.125, ".0%"),
        (1234567, ","),
        (-9876.5, ",.0f"),
        (12.0, ".3g"),
        (1 / 3, ".3f"),
        (99.95, ".1f"),
    ],
)
def test_numbers_are_written_as_python_writes_them(page, value, spec):
    got = page.evaluate(
        "async ([x, spec]) => (await import('/format.js')).pyFormat(x, spec)", [value, spec]
    )
    assert got == format(value, spec)


def test_visitor_text_is_escaped_for_plotly_and_cut(page):
    got = page.evaluate(
        "async (s) => (await import('/format.js')).plotlyText(s)", '<a href="x">yes</a>&' * 3
    )
    assert "<" not in got and ">" not in got and got.startswith("&lt;a href")
    assert len(got.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")) <= 40
