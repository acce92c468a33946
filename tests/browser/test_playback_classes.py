"""The browser's replay of several classes learned together (the multiclass perceptron).

As tests/browser/test_playback_logic.py does for the other learners: the payload is built in
Python, ui/playback's own modules run in chromium, and what they derive (the hypothesis rows,
every class's (w, b) summed from the update sequence, votes, the longest survivor, the averaged
machine, each class's scores and the class each point is given, accuracies) is compared with
:class:`app_logic.timeline.Timeline` (its ``classes`` form) and, at the end, with the core's
``predict_all``. The figure is then drawn: a region image, one border per class, the arrows.
"""

from __future__ import annotations

import numpy as np
import pytest

from perceptron_core.modes import MODES
from perceptron_lab.app_logic.datasource import DataRequest, make_dataset
from perceptron_lab.app_logic.payload import build_payload
from perceptron_lab.app_logic.playback_args import texts
from perceptron_lab.app_logic.style import STYLE
from tests.chromium import payload_arg, playback_page
from tests.pages import page_run

pytestmark = pytest.mark.browser

#: Two scores closer than this may come out in either order in another summation order.
CLEAR = 1e-9

STATE_JS = """async ({header, blob, meta, times}) => {
    const {decode} = await import('/payload.js');
    const {Lane} = await import('/timeline.js');
    const {Field, Points, accuracy, truthOf} = await import('/fields.js');
    const bytes = Uint8Array.from(atob(blob), c => c.charCodeAt(0));
    const {arrays} = decode(header, bytes);
    const lane = new Lane(meta.lanes[0], arrays);
    const scene = {...meta.scene, arrays: Object.fromEntries(
        Object.entries(meta.scene.arrays).map(([k, n]) => [k, arrays[n]]))};
    const X = scene.arrays.X;
    const train = new Field(lane, Points.fromRows(X), X);
    const test = new Field(lane, Points.fromRows(scene.arrays.X_test), X);
    const out = [];
    for (const t of times) {
        const r = lane.row(t);
        const s = {t, row: r, before: lane.rowBefore(t), epoch: lane.epochAt(t),
                   next_update: lane.nextUpdate(t), counts: Array.from(lane.counts(t)),
                   votes: Array.from({length: r + 1}, (_, k) => lane.votesAt(t, k)),
                   longest: lane.longestRow(t),
                   machine: Array.from({length: lane.M}, (_, c) => lane.hypothesis(r, c)),
                   moved: lane.isUpdate(t) ? lane.movedBy(r) : null,
                   scores: {}, given: {}, accuracy: {}};
        for (const mode of meta.scene.modes) {
            s.scores[mode] = Array.from(train.classScores(t, mode));
            s.given[mode] = Array.from(train.scores(t, mode));
            const truth = (part) => truthOf(lane, scene, part);
            s.accuracy[mode] = [accuracy(train.scores(t, mode), truth('train'), true),
                                accuracy(test.scores(t, mode), truth('test'), true)];
        }
        out.push(s);
    }
    return out;
}"""


@pytest.fixture(scope="module")
def page():
    with playback_page(plotly=True) as pg:  # Plotly for the figure's test
        yield pg


@pytest.fixture(scope="module")
def data():
    return make_dataset(
        DataRequest(
            "three_classes", (("n_samples", 90),), "uniform", 0.1, test_fraction=0.25, seed=3
        )
    )


def _times(tl):
    E = tl.n_events
    first = tl.next_update(0)
    picks = [0, 1, first, first + 1, E // 3, tl.next_update(E // 3), E // 2, E - 1, E, 2, E // 5]
    return [min(max(t, 0), E) for t in picks]


@pytest.mark.parametrize("mode", MODES)
def test_the_browser_replays_the_classes_like_the_timeline(page, data, mode):
    run = page_run("multiclass", {"predict_with": mode}, 8, 0, data)
    tl = run.timeline
    assert tl.classes and tl.n_members == 3 and tl.W.shape[1] > 10  # noisy: many updates
    states = page.evaluate(
        STATE_JS, {**payload_arg(build_payload(data, [run])), "times": _times(tl)}
    )
    classes, classes_test = data.class_labels()
    trace = run.estimator.trace_
    for s in states:
        t = s["t"]
        assert s["row"] == tl.row(t) and s["epoch"] == tl.epoch_at(t)
        assert s["before"] == (0 if t == 0 else int(tl.before[t - 1]))
        assert s["next_update"] == tl.next_update(t)
        assert s["counts"] == tl.update_counts(t).tolist()
        assert s["votes"] == tl.votes(t)[: tl.row(t) + 1].tolist()
        assert s["longest"] == tl.longest_row(t)
        # every class's (w, θ = -b), summed in the browser from the update sequence: the same
        # additions in the same order as the core's trace, so the same bits
        k = tl.row(t)
        expected = np.c_[tl.W[:, k], tl.theta[:, k]]
        np.testing.assert_array_equal(np.array(s["machine"]), expected)
        if s["moved"] is not None:
            assert s["moved"] == [int(trace.true[k - 1]), int(trace.rival_of_update[k - 1])]
        for m in MODES:
            mine = np.array(s["scores"][m]).reshape(-1, 3)
            core = tl.class_scores(data.X, t, m)
            np.testing.assert_allclose(mine, core, rtol=1e-9, atol=1e-9, err_msg=f"{m} {t}")
            top2 = np.sort(core, axis=1)[:, -2:]
            clear = top2[:, 1] - top2[:, 0] > CLEAR
            given = np.array(s["given"][m])
            assert np.array_equal(given[clear], np.argmax(core, axis=1)[clear]), (m, t)
            train, test = s["accuracy"][m]
            assert train == pytest.approx((tl.predicted_classes(data.X, t, m) == classes).mean())
            assert test == pytest.approx(
                (tl.predicted_classes(data.X_test, t, m) == classes_test).mean()
            )


def test_the_end_of_the_replay_predicts_like_the_core(page, data):
    run = page_run("multiclass", {}, 8, 0, data)
    (state,) = page.evaluate(
        STATE_JS,
        {**payload_arg(build_payload(data, [run])), "times": [run.timeline.n_events]},
    )
    for mode, labels in run.estimator.predict_all(data.X).items():
        assert np.array_equal(np.array(state["given"][mode]), labels), mode


FIGURE_JS = """async ({header, blob, meta, style, texts, t}) => {
    const {decode} = await import('/payload.js');
    const {Lane} = await import('/timeline.js');
    const {PlaneFigure} = await import('/plane.js');
    const {MathPanel} = await import('/mathpanel.js');
    const {verdict} = await import('/speech.js');
    const {describePlane} = await import('/describe.js');
    const {Field, Points} = await import('/fields.js');
    const bytes = Uint8Array.from(atob(blob), c => c.charCodeAt(0));
    const {arrays} = decode(header, bytes);
    const lane = new Lane(meta.lanes[0], arrays);
    const scene = {...meta.scene, arrays: Object.fromEntries(
        Object.entries(meta.scene.arrays).map(([k, n]) => [k, arrays[n]]))};
    const box = document.createElement('div');
    box.style.width = '700px';
    document.body.replaceChildren(box);
    const show = {region: true, band: true, arrows: true, test_points: true, flips: true,
                  ensemble: false, averaged: false, longest: false, target: false,
                  categories: true};
    const figure = new PlaneFigure(box, {lane, scene, show, style, config: {}, height: 500,
                                         box: scene.box, clickable: false, title: null, texts});
    figure.update(t);
    const math = document.createElement('div');
    new MathPanel(math, {lane, scene, texts}).update(t);
    const ends = new Points(Float64Array.of(1, -1), Float64Array.of(1, -1));
    const corners = new Field(lane, ends, scene.arrays.X);
    const layout = figure.node.layout;
    return {
        images: (layout.images || []).length,
        paths: layout.shapes.filter(s => s.type === 'path' && !s.fillcolor).length,
        labels: layout.shapes.filter(s => s.label && s.label.text).map(s => s.label.text),
        legend: figure.node.data.map(d => d.name),
        math: math.textContent,
        said: verdict(lane, scene, texts, t),
        words: describePlane(figure, t, texts, corners),
    };
}"""


def test_the_figure_draws_a_region_per_class_and_the_two_moved_vectors(page, data):
    run = page_run("multiclass", {}, 8, 0, data)
    tl = run.timeline
    t = tl.next_update(tl.next_update(0))  # just after the second update
    c, r = (
        int(v) for v in (run.estimator.trace_.true[1], run.estimator.trace_.rival_of_update[1])
    )
    name = data.all_classes
    got = page.evaluate(
        FIGURE_JS,
        {
            **payload_arg(build_payload(data, [run])),
            "style": STYLE,
            "texts": texts(run, data),
            "t": t,
        },
    )
    assert got["images"] == 1  # the regions, one layout image
    assert 1 <= got["paths"] <= 3  # the borders of the regions that reach the view
    assert f"w_{name[c]} + ηx" in got["labels"] and f"w_{name[r]} − ηx" in got["labels"]
    assert {f"class {n} train" for n in name} <= set(got["legend"])
    assert f"rival r = {name[r]}" in got["math"] and "Mistake" in got["math"]
    assert f"class {name[c]} gains η x, class {name[r]}, the rival, loses it" in got["said"]
    assert "This update moved two weight vectors" in got["words"]
