"""The browser's replay (ui/playback/*.js) against the Python timeline, at many steps.

The payload is built in Python, the frontend's own modules run in chromium
(served by Playwright, no server), and every number they derive — the
hypothesis row, update counts, votes, the longest survivor, the averaged
hypothesis, the voted/kernel/committee scores on the points, accuracies —
is compared with :class:`app_logic.timeline.Timeline` and the estimators. JavaScript adds
in its own order: scores are compared to a tolerance, and a sign (a label, an accuracy)
wherever the Python score is not within :data:`CLEAR` of 0.
"""

from __future__ import annotations

import numpy as np
import pytest

from perceptron_core.modes import MODES
from perceptron_lab.app_logic.datasource import DataRequest, make_dataset
from perceptron_lab.app_logic.learners import LEARNERS
from perceptron_lab.app_logic.payload import build_payload
from perceptron_lab.app_logic.timeline import RESCUED
from tests.chromium import payload_arg, playback_page
from tests.pages import page_run

pytestmark = pytest.mark.browser

#: A score at most this far from 0 may take either sign in another summation order.
CLEAR = 1e-9

#: Settings that switch on what each family can do (λ, α and τ for KW).
#: Every learner of the menu at its defaults, and the switches that take other paths.
#: (The learners of several classes together have their own test: test_playback_classes.py.)
CASES = {key: (key, {}) for key in LEARNERS if not LEARNERS[key].learns_classes} | {
    "kw": ("kw", {"tau": 0.25, "lam": 0.5, "alpha_bound": 3}),
    "voted": ("voted", {"lam": 0.25}),
    "paum": ("paum", {"lam": 0.5, "tau_pos": 2.0}),
    "committee": ("parallel", {"n_perceptrons": 3}),
    "kernel": ("kernel", {"kernel": "rbf", "gamma": 2.0, "lam": 0.25}),
    "poly": ("kernel", {"kernel": "poly", "degree": 3, "gamma": 0.5}),
}

STATE_JS = """async ({header, blob, meta, times}) => {
    const {decode} = await import('/payload.js');
    const {Lane, RESCUED} = await import('/timeline.js');
    const {Field, Points, accuracy} = await import('/fields.js');
    const bytes = Uint8Array.from(atob(blob), c => c.charCodeAt(0));
    const {arrays} = decode(header, bytes);
    const lane = new Lane(meta.lanes[0], arrays);
    const sa = meta.scene.arrays;
    const X = arrays[sa.X], y = arrays[sa.y];
    const train = new Field(lane, Points.fromRows(X), X);
    const test = new Field(lane, Points.fromRows(arrays[sa.X_test]), X);
    const modes = meta.lanes[0].has_modes ? meta.scene.modes : ['last'];
    const out = [];
    // visit the times out of order: the cached counts and checkpoints must not care
    for (const t of times) {
        const r = lane.row(t);
        const s = {t, row: r, before: lane.rowBefore(t), epoch: lane.epochAt(t),
                   next_update: lane.nextUpdate(t), end_of_epoch: lane.endOfEpoch(t),
                   counts: Array.from(lane.counts(t)),
                   rescued: lane.latestOfKind(t, RESCUED).sort((a, b) => a - b),
                   scores: {}, accuracy: {train: {}, test: {}}};
        if (lane.meta.has_modes) {
            s.votes = Array.from({length: r + 1}, (_, k) => lane.votesAt(t, k));
            s.longest = lane.longestRow(t);
            s.averaged = lane.averaged(t);
        }
        for (const mode of modes) {
            s.scores[mode] = Array.from(train.scores(t, mode));
            s.accuracy.train[mode] = accuracy(train.scores(t, mode), y);
            s.accuracy.test[mode] = accuracy(test.scores(t, mode), arrays[sa.y_test]);
        }
        out.push(s);
    }
    return out;
}"""


def accuracies_at(run, data, t: int) -> dict[str, dict[str, tuple[float, float]]]:
    """Accuracy of each predictor at time ``t`` from the Python timeline (the reference),
    with how much another summation order could move it (the share of scores near 0)."""
    tl = run.timeline
    modes = MODES if run.learner.replays_votes else ("last",)
    out = {}
    for part, X, y in (("train", data.X, data.y), ("test", data.X_test, data.y_test)):
        if len(X):
            scores = {m: tl.scores(X, t, m) for m in modes}
            out[part] = {
                m: (
                    float((np.where(scores[m] > 0, 1, -1) == y).mean()),
                    float((np.abs(scores[m]) <= CLEAR).mean()),
                )
                for m in modes
            }
    return out


@pytest.fixture(scope="module")
def page():
    with playback_page() as pg:
        yield pg


@pytest.fixture(scope="module")
def data():
    return make_dataset(
        DataRequest("gaussians", (("n_samples", 120),), "uniform", 0.1, test_fraction=0.25, seed=4)
    )


def _run(key, values, data, epochs=6):
    return page_run(key, values, epochs, 0, data)


def _replay(page, payload, times):
    return page.evaluate(STATE_JS, {**payload_arg(payload), "times": [int(t) for t in times]})


def _times(tl):
    """Start, end, both sides of a few updates and epoch ends, and a jump back."""
    E = tl.n_events
    first = tl.next_update(0)
    picks = [0, 1, first - 1, first, first + 1, E // 3, tl.next_update(E // 3), E // 2, E - 1, E]
    picks += [tl.end_of_epoch(E // 4), 2, E // 5]  # back again after the end
    return [min(max(t, 0), E) for t in picks]


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_browser_replays_the_run_like_the_timeline(page, data, case):
    key, values = CASES[case]
    run = _run(key, values, data)
    tl = run.timeline
    payload = build_payload(data, [run])
    states = _replay(page, payload, _times(tl))
    if case == "kw":
        assert (tl.kind == RESCUED).any(), "the case must exercise the λ-trick"
    for s in states:
        t = s["t"]
        assert s["row"] == tl.row(t)
        assert s["before"] == (0 if t == 0 else int(tl.before[t - 1]))
        assert s["epoch"] == tl.epoch_at(t)
        assert s["next_update"] == tl.next_update(t)
        assert s["end_of_epoch"] == tl.end_of_epoch(t)
        assert s["counts"] == tl.update_counts(t).tolist()
        assert s["rescued"] == np.flatnonzero(tl.latest_kind(t) == RESCUED).tolist()
        if run.learner.replays_votes:
            assert s["votes"] == tl.votes(t)[: tl.row(t) + 1].tolist()
            assert s["longest"] == tl.longest_row(t)
            w, theta = tl.averaged_hypothesis(t)
            assert np.allclose(s["averaged"], [*w, theta], rtol=1e-12, atol=1e-12)
        for mode, scores in s["scores"].items():
            mine, core = np.array(scores), tl.scores(data.X, t, mode)
            assert np.allclose(mine, core, rtol=1e-9, atol=1e-9), (case, mode, t)
            clear = np.abs(core) > CLEAR  # a sign of (almost) exactly 0 may differ in rounding
            assert np.array_equal(np.sign(mine[clear]), np.sign(core[clear]))
        expected = accuracies_at(run, data, t)
        for part in ("train", "test"):
            for mode, value in s["accuracy"][part].items():
                accuracy, unclear = expected[part][mode]
                assert abs(value - accuracy) <= unclear + 1e-12, (case, part, mode, t)


def test_longest_survivor_and_votes_at_every_step(page, data):
    """Every step of a run, for the O(1) prefix rules (ties go to the earlier hypothesis)."""
    run = _run(*CASES["voted"], data, epochs=4)
    tl, payload = run.timeline, build_payload(data, [run])
    got = page.evaluate(
        """async ({header, blob, meta}) => {
            const {decode} = await import('/payload.js');
            const {Lane} = await import('/timeline.js');
            const bytes = Uint8Array.from(atob(blob), c => c.charCodeAt(0));
            const lane = new Lane(meta.lanes[0], decode(header, bytes).arrays);
            const out = [];
            for (let t = 0; t <= lane.E; t++) out.push([lane.longestRow(t), lane.currentVotes(t)]);
            return out;
        }""",
        payload_arg(payload),
    )
    expected = [[tl.longest_row(t), int(tl.votes(t)[tl.row(t)])] for t in range(tl.n_events + 1)]
    assert got == expected


def test_the_end_of_the_replay_predicts_like_the_core(page, data):
    """At the last step the browser's four predictors give the core's predict_all labels."""
    run = _run(*CASES["kw"], data)
    (state,) = _replay(page, build_payload(data, [run]), [run.timeline.n_events])
    for mode, labels in run.estimator.predict_all(data.X).items():
        clear = np.abs(run.estimator.decision_function(data.X, mode=mode)) > CLEAR
        assert clear.mean() > 0.95, mode  # the comparison below covers nearly every point
        mine = np.where(np.array(state["scores"][mode]) > 0, 1, -1)
        assert np.array_equal(mine[clear], labels[clear]), mode
