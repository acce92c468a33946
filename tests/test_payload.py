"""The payload the browser replays (app_logic/payload): its arrays against the timeline and
the core."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from perceptron_core.modes import MODES
from perceptron_core.trace import BLOCKED, MISTAKE
from perceptron_lab.app_logic.datasource import DataRequest, Dataset, make_dataset
from perceptron_lab.app_logic.payload import build_payload
from perceptron_lab.app_logic.payload.extras import Panel, Text, Value, pack_panels
from perceptron_lab.app_logic.payload.pack import Packer, unpack
from perceptron_lab.app_logic.payload.scene import MAX_PROJECTED_POINTS
from perceptron_lab.app_logic.payload.snapshots import MARGIN_BINS, margin_bins
from perceptron_lab.app_logic.timeline import UPDATE_KINDS
from tests.pages import ROOT, page_run


def _run(key, data, epochs=5, **values):
    return page_run(key, values, epochs, 0, data)


@pytest.fixture(scope="module")
def plane_data():
    return make_dataset(
        DataRequest("gaussians", (("n_samples", 150),), "uniform", 0.1, 0.2, seed=3)
    )


def _high_dimensional(m=3_000, n=37, test=0):
    """``m`` points of ``n`` Gaussian features split by a known hyperplane (w*, 0.2)."""
    rng = np.random.default_rng(1)
    X = rng.normal(size=(m + test, n))
    w = rng.normal(size=n)
    y = np.where(X @ w > 0.2, 1, -1)
    names = tuple(f"f{i}" for i in range(n))
    return Dataset(
        X[:m], y[:m], X[m:], y[m:], np.zeros(m, bool), w, 0.2, names, ("-1", "+1"), "big"
    )


def test_packed_arrays_come_back_aligned_and_little_endian():
    p = Packer()
    p.add("a", np.arange(3, dtype=np.uint8))
    p.add("b", np.array([[1.5, -2.0]], dtype=">f8"))  # big-endian in, little-endian out
    header, blob = p.pack()
    assert all(spec["offset"] % 8 == 0 for spec in header.values())
    back = unpack(header, blob)
    assert back["b"].tolist() == [[1.5, -2.0]] and back["b"].dtype.byteorder in "<="
    with pytest.raises(TypeError, match="no JavaScript typed array"):
        p.add("c", np.arange(2, dtype=np.int64))
    with pytest.raises(ValueError, match="Two arrays"):
        p.add("a", [1])


@pytest.mark.parametrize(
    "key, values",
    [
        ("kw", {"tau": 0.25, "lam": 0.5, "alpha_bound": 3}),
        ("paum", {}),
        ("parallel", {}),
        ("kernel", {"kernel": "poly"}),
        ("average", {}),
    ],
)
def test_a_lane_holds_what_the_timeline_replays(plane_data, key, values):
    run = _run(key, plane_data, **values)
    tl = run.timeline
    payload = build_payload(plane_data, [run])
    arrays = unpack(payload.header, payload.blob)
    lane = payload.meta["lanes"][0]
    get = {k: arrays[name] for k, name in lane["arrays"].items()}
    assert np.array_equal(get["index"], tl.index)
    assert np.array_equal(get["kind"], tl.kind) and np.array_equal(get["score"], tl.score)
    if "changed" in get:  # the browser's rule for the hypothesis rows
        after, before = np.cumsum(get["changed"]), np.cumsum(get["changed"]) - get["changed"]
    else:  # the average algorithm's rows do not follow from its events: they are sent
        after, before = get["after"], get["before"]
    assert np.array_equal(after, tl.after) and np.array_equal(before, tl.before)
    assert np.array_equal(np.arange(tl.n_events) // lane["n_samples"], tl.epoch)
    assert np.array_equal(
        get["theta"].reshape(tl.theta.shape if key != "kernel" else -1),
        tl.theta if key != "kernel" else tl.theta[0],
    )
    if lane["hypotheses"] == "plane":
        assert np.array_equal(get["W"], tl.W)
    if key == "kw":
        assert np.array_equal(get["votes"], tl.votes(tl.n_events))
    if key == "kernel":
        trace = tl.kernel_trace
        assert np.array_equal(get["update_row"], trace.rows)
        assert np.array_equal(get["update_coef"], trace.coef)
        assert lane["kernel"]["name"] == "poly" and lane["kernel"]["degree"] == 2
    if key == "parallel":
        codes = {"safe": 0, "borderline": 1, "noisy": 2}
        expected = [codes[c] for c in run.estimator.categorize(plane_data.X, plane_data.y)]
        assert get["category"].tolist() == expected
    assert lane["mistakes_per_epoch"] == tl.mistakes_per_epoch().tolist()
    updates = np.isin(tl.kind[0], UPDATE_KINDS)
    assert sum(lane["mistakes_per_epoch"]) == updates.sum()


@pytest.mark.parametrize(
    ("key", "values", "relation"),
    [
        ("perceptron", {}, "equal"),
        ("margin", {"tau": 1.0}, "more updates"),
        ("kw", {"tau": 0.0, "lam": 0.0, "alpha_bound": 1}, "more errors"),
    ],
)
def test_the_chart_gets_errors_and_updates_per_epoch_apart(plane_data, key, values, relation):
    """Errors are the visits the learner's test calls wrong (updated on or blocked); a margin
    learner also updates on correct visits, an α-bound of 1 blocks repeated errors."""
    run = _run(key, plane_data, epochs=8, **values)
    lane = build_payload(plane_data, [run]).meta["lanes"][0]
    kind, epoch = run.timeline.kind[0], run.timeline.epoch
    n_epochs = len(lane["mistakes_per_epoch"])
    errors = np.bincount(epoch[(kind == MISTAKE) | (kind == BLOCKED)], minlength=n_epochs)
    assert lane["errors_per_epoch"] == errors.tolist()
    updates, errors = np.array(lane["mistakes_per_epoch"]), np.array(lane["errors_per_epoch"])
    if relation == "equal":
        assert np.array_equal(updates, errors)
    elif relation == "more updates":
        assert (updates >= errors).all() and updates.sum() > errors.sum()
    else:
        assert (errors >= updates).all() and errors.sum() > updates.sum()


def test_same_data_and_seed_give_the_same_payload(plane_data):
    again = make_dataset(
        DataRequest("gaussians", (("n_samples", 150),), "uniform", 0.1, 0.2, seed=3)
    )
    a = build_payload(plane_data, [_run("voted", plane_data)])
    b = build_payload(again, [_run("voted", again)])
    assert a.blob == b.blob and a.header == b.header
    for lane in (*a.meta["lanes"], *b.meta["lanes"]):
        lane.pop("fit_ms")  # the wall time of fit() is the one number that differs
    assert a.meta == b.meta
    other = make_dataset(DataRequest("gaussians", (("n_samples", 150),), "uniform", 0.1, 0.2, 4))
    assert build_payload(other, [_run("voted", other)]).id != a.id
    flips = unpack(a.header, a.blob)[a.meta["scene"]["arrays"]["flipped"]]
    assert np.array_equal(flips.astype(bool), plane_data.flipped) and flips.sum() > 0


def test_compare_mode_puts_every_learner_in_one_payload(plane_data):
    runs = [_run(k, plane_data) for k in ("perceptron", "voted", "pa")]
    payload = build_payload(plane_data, runs)
    assert [lane["key"] for lane in payload.meta["lanes"]] == ["perceptron", "voted", "pa"]
    assert payload.meta["lanes"][1]["mode"] == "voted"


#: The replay's JavaScript (ui/playback), where every array the payload sends is read by name.
PLAYBACK_JS = "\n".join(path.read_text() for path in (ROOT / "ui" / "playback").glob("*.js"))


@pytest.mark.parametrize(
    "key, high_dimensional",
    [("perceptron", False), ("kernel", False), ("parallel", False), ("voted", True)],
)
def test_every_array_sent_is_one_the_replay_reads(plane_data, key, high_dimensional):
    """Bytes the browser never reads cost the server their packing and sending on every view
    (the snapshots' end times were sent and never read)."""
    data = _high_dimensional(m=300, n=8, test=50) if high_dimensional else plane_data
    payload = build_payload(data, [_run(key, data, epochs=3)])
    names = {name.split("/", 1)[1] for name in payload.header}
    # read as lane.get("name"), scene.arrays.name or a destructured .name
    unread = {name for name in names if not re.search(rf'[".]{name}\b', PLAYBACK_JS)}
    assert names and unread == set()


def test_high_dimensional_runs_send_projections_not_weight_vectors():
    n = 37
    data = _high_dimensional(n=n, test=500)
    run = _run("kw", data, epochs=3)
    tl = run.timeline
    payload = build_payload(data, [run], seed=3)
    scene = payload.meta["scene"]
    arrays = unpack(payload.header, payload.blob)
    # nothing sent has a features axis: steps x features never reaches the browser
    assert all(n not in spec["shape"] for spec in payload.header.values())
    assert scene["view"] == "projection" and scene["plane"] == "w* and the final w"
    assert scene["n_drawn"] == MAX_PROJECTED_POINTS and scene["sample_seed"] == 3
    P = arrays[scene["arrays"]["P"]]
    e1 = data.w_star / np.linalg.norm(data.w_star)
    assert np.allclose(P[:, 0], data.X @ e1, rtol=1e-5, atol=1e-4)  # float32 coordinates
    lane = payload.meta["lanes"][0]
    W2 = arrays[lane["arrays"]["W"]][0]
    assert np.allclose(W2[:, 0], tl.W[0] @ e1)
    assert np.allclose(arrays[lane["arrays"]["norm"]], np.linalg.norm(tl.W[0], axis=1))
    # the final w lies in the plane: its projection keeps its whole length
    assert np.isclose(np.hypot(*W2[-1]), np.linalg.norm(tl.W[0, -1]))


def test_snapshots_are_the_timelines_numbers_at_their_steps():
    data = _high_dimensional(m=400, n=8, test=100)
    run = _run("voted", data, epochs=4)
    tl = run.timeline
    payload = build_payload(data, [run])
    arrays = unpack(payload.header, payload.blob)
    get = {k: arrays[v] for k, v in payload.meta["lanes"][0]["arrays"].items()}
    rows = get["snap_rows"]
    assert rows[0] == 0 and rows[-1] == tl.W.shape[1] - 1 and len(rows) >= 100
    # counts of at most 400 points: two bytes each (the histograms were over a third of the
    # KW view's payload)
    assert get["snap_hist"].dtype == get["snap_confusion"].dtype == np.uint16
    in_force = np.array([tl.row(t) for t in range(tl.n_events + 1)])
    for s in np.linspace(0, len(rows) - 1, 9).astype(int):
        t = int(np.flatnonzero(in_force == rows[s]).max())  # its last step: its votes are final
        for p, (X, y) in enumerate([(data.X, data.y), (data.X_test, data.y_test)]):
            for mode in MODES:
                expected = np.mean(np.where(tl.scores(X, t, mode) > 0, 1, -1) == y)
                assert get["snap_accuracy"][s, p, MODES.index(mode)] == pytest.approx(expected)
        w, theta = tl.hypothesis(t)
        norm = np.linalg.norm(w)
        margins = data.y * (data.X @ w - theta) / (norm if norm > 0 else 1.0)
        right, wrong = get["snap_hist"][s]
        assert right.sum() == (margins > 0).sum() and wrong.sum() == (margins <= 0).sum()
        low, width = get["snap_hist_range"][s]
        edges = low + width * np.arange(len(right) + 1)
        assert not ((edges[:-1] < -1e-9) & (edges[1:] > 1e-9)).any()  # no bin holds both signs
        if norm > 0:
            assert get["snap_margin"][s] == pytest.approx(margins.min())
        test_scores = data.X_test @ w - theta
        assert np.abs(test_scores).min() > 1e-9  # no score so near 0 that rounding could flip it
        said = np.where(test_scores > 0, 1, -1)
        counts = [np.sum((data.y_test == a) & (said == b)) for a in (-1, 1) for b in (-1, 1)]
        assert get["snap_confusion"][s].tolist() == counts  # on the test part


def _margin_bins_of_one_column(margins):
    """The histogram of :func:`margin_bins` for one column, worked out one margin at a time."""
    lo, hi = float(margins.min()), float(margins.max())
    width = (hi - lo) / MARGIN_BINS or 1.0
    if lo < 0 < hi:
        lo = math.floor(lo / width) * width
    right, wrong = [0] * (MARGIN_BINS + 2), [0] * (MARGIN_BINS + 2)
    n_bins = max(math.ceil((hi - lo) / width - 1e-9), 1)
    for m in margins.tolist():
        b = min(max(math.floor((m - lo) / width), 0), n_bins - 1)
        (right if m > 0 else wrong)[b] += 1
    return lo, width, right, wrong


def test_margin_bins_count_each_column_as_a_histogram_of_its_own():
    rng = np.random.default_rng(5)
    columns = [
        rng.normal(size=300),  # both sides
        rng.uniform(0.1, 2.0, size=300),  # all right
        -rng.uniform(0.0, 1.0, size=300),  # all wrong, 0 included
        np.full(300, 0.25),  # all equal: one bin
        np.r_[np.zeros(150), np.ones(150)],  # margins of exactly 0 count as wrong
    ]
    low, width, right, wrong = margin_bins(np.stack(columns, axis=1))
    for c, column in enumerate(columns):
        lo, w, r, v = _margin_bins_of_one_column(column)
        assert (low[c], width[c]) == (lo, w)  # the same arithmetic: exact
        assert right[c].tolist() == r and wrong[c].tolist() == v
    assert right.sum(axis=1).tolist() == [int((col > 0).sum()) for col in columns]


def test_lesson_panels_are_checked_and_packed():
    p = Packer()
    with pytest.raises(ValueError, match="when must be one of"):
        pack_panels([Panel("x", [Text("a", when="sometimes")])], p, "lane0")
    with pytest.raises(ValueError, match="per must be one of"):
        pack_panels([Panel("x", [Value("a", [1.0], per="epoch")])], p, "lane0")


def test_the_sizes_of_a_big_run_grow_with_steps_not_features():
    """Two runs with the same steps and hypotheses but 5 and 40 features send the same bytes."""
    small = _high_dimensional(m=300, n=5)
    wide = _high_dimensional(m=300, n=40)
    sizes = []
    for data in (small, wide):
        run = _run("average", data, epochs=1)  # one hypothesis per visit, whatever n is
        sizes.append(len(build_payload(data, [run]).blob))
    assert sizes[0] == sizes[1]


@pytest.mark.parametrize(
    "module",
    [
        "perceptron_lab.app_logic.payload.pack",
        "perceptron_lab.app_logic.payload.scene",
        "perceptron_lab.app_logic.payload.snapshots",
        "perceptron_lab.app_logic.payload.extras",
        "perceptron_lab.app_logic.style",
        "perceptron_lab.ui.player",
    ],
)
def test_docstring_examples(module):
    """The examples in the docstrings run (the suite's doctests cover perceptron_core only)."""
    import doctest
    import importlib

    result = doctest.testmod(
        importlib.import_module(module),
        optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS,
    )
    assert result.attempted > 0 and result.failed == 0
