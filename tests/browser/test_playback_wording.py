"""Words the browser component writes around its numbers (ui/playback), in chromium.

The Novikoff meter says "1 update", not "1 updates"; the confusion matrix
names a class once when its name is its label (no "−1 (−1)"); the voted
legend counts the lines a short run can draw, not the cap of 40.
"""

from __future__ import annotations

import pytest

from perceptron_lab.app_logic.datasource import DataRequest, make_dataset
from perceptron_lab.app_logic.learners import LEARNERS
from perceptron_lab.app_logic.payload import build_payload
from perceptron_lab.app_logic.style import STYLE, Show
from perceptron_lab.app_logic.training import fit_run
from tests.chromium import DECODE_JS, FIGURE_JS, payload_arg, playback_page

pytestmark = pytest.mark.browser

METER_JS = """async ({payload, times}) => {
    const d = await (DECODE)(payload);
    const {BoundMeter} = await import('/diagnostics.js');
    const node = document.createElement('div');
    document.body.append(node);
    const meter = new BoundMeter(node, {lane: d.lanes[0], bound: 100.7});
    return times.map(t => { meter.update(t); return node.innerText; });
}""".replace("DECODE", DECODE_JS)

CONFUSION_JS = """async ({payload, style, t}) => {
    const d = await (DECODE)(payload);
    const {Diagnostics} = await import('/diagnostics.js');
    const node = document.createElement('div');
    node.style.width = '900px';
    document.body.append(node);
    const diag = new Diagnostics(node, {lane: d.lanes[0], scene: d.scene, style,
                                        texts: {}, config: {}});
    diag.update(t);
    // the classes head the rows (th), their counts are cells
    return Array.from(node.querySelectorAll('tbody th, td')).map(cell => cell.textContent);
}""".replace("DECODE", DECODE_JS)


@pytest.fixture(scope="module")
def page():
    with playback_page(plotly=True) as pg:
        yield pg


@pytest.fixture(scope="module")
def data():
    """Separable points: a handful of updates, and classes named only by their labels."""
    return make_dataset(DataRequest("separable", (("n_samples", 60),), seed=1))


def _run(key, data, epochs=10):
    settings = LEARNERS[key].defaults()
    return fit_run(
        key, tuple(sorted(settings.items())), epochs, 0, data.X, data.y, data.X_test, data.y_test
    )


def test_the_novikoff_meter_says_one_update_in_the_singular(page, data):
    run = _run("perceptron", data)
    tl = run.timeline
    first, second = tl.next_update(0), tl.next_update(tl.next_update(0))
    shown = page.evaluate(
        METER_JS,
        {"payload": payload_arg(build_payload(data, [run])), "times": [first, second]},
    )
    assert shown[0].startswith("Updates against Novikoff's bound")
    assert "1 update so far; the bound allows at most 100." in shown[0]
    assert "2 updates so far" in shown[1]


def test_the_confusion_matrix_names_a_label_only_class_once(page, data):
    assert [str(c) for c in data.class_names] in (["-1", "+1"], ["−1", "+1"], ["-1", "1"])
    run = _run("perceptron", data)
    cells = page.evaluate(
        CONFUSION_JS,
        {
            "payload": payload_arg(build_payload(data, [run])),
            "style": STYLE,
            "t": run.timeline.n_events,
        },
    )
    assert "−1" in cells and "+1" in cells
    assert not any("(−1)" in c or "(+1)" in c for c in cells), cells


def test_the_voted_legend_counts_the_lines_a_short_run_draws(page, data):
    run = _run("voted", data)
    stored = run.timeline.W.shape[1] - 1  # hypotheses after an update
    assert 0 < stored < STYLE["ensemble"]["lines"]
    drawn = page.evaluate(
        FIGURE_JS,
        {
            "payload": payload_arg(build_payload(data, [run])),
            "show": Show(ensemble=True).to_json(),
            "style": STYLE,
            "t": run.timeline.n_events,
        },
    )
    names = [trace["name"] for trace in drawn["traces"]]
    assert f"stored hypotheses (the {stored} with most votes)" in names
    assert f"stored hypotheses (the {STYLE['ensemble']['lines']} with most votes)" not in names
