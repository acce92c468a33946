"""The playground's computations, checked against the core and against direct formulas."""

from __future__ import annotations

import csv
import io
from dataclasses import replace

import numpy as np
import pytest

from perceptron_core import KWPerceptron, Perceptron
from perceptron_core.datasets import DataError, make_gaussians, make_separable
from perceptron_core.modes import MODES
from perceptron_lab.app_logic.datasource import DataRequest, make_dataset
from perceptron_lab.app_logic.diagnostics import novikoff_bound
from perceptron_lab.app_logic.edits import (
    ADDED,
    PointEdits,
    add_point,
    check_points,
    edited,
    remove_near,
    table_delta,
)
from perceptron_lab.app_logic.export import points_csv
from perceptron_lab.app_logic.learners import CLASSES, CONTOUR, LEARNERS, MEMBERS
from perceptron_lab.app_logic.timeline import Timeline
from perceptron_lab.app_logic.training import fit_run
from perceptron_lab.ui.state import _format, _parse
from tests.numerics import NEAR
from tests.reference import prediction_clearance


@pytest.fixture(scope="module")
def noisy():
    X, y, _, _ = make_gaussians(150, separation=1.5, noise=0.1, random_state=3)
    return X, y


@pytest.mark.numerics
@pytest.mark.parametrize(
    "params", [{}, {"tau": 0.5}, {"lam": 0.5}, {"alpha_bound": 2, "tau": 0.25}]
)
def test_timeline_at_the_end_predicts_like_the_core(noisy, params):
    X, y = noisy
    clf = KWPerceptron(epochs=15, random_state=0, record="all", **params).fit(X, y)
    tl = Timeline.from_trace(clf.trace_, len(X))
    end = tl.n_events
    assert np.array_equal(tl.votes(end), clf.votes_)
    # the timeline scores with NumPy, the core with its own sums: the labels agree because no
    # score they rest on is near 0
    model = dict(W=tl.W[0], theta=tl.theta[0], votes=tl.votes(end), longest=tl.longest_row(end))
    for mode, labels in clf.predict_all(X).items():
        assert prediction_clearance(model, X, mode) > NEAR, mode
        mine = np.where(tl.scores(X, end, mode) > 0, 1, -1)
        assert np.array_equal(mine, labels), mode
    assert tl.update_counts(end).sum() == clf.n_updates_


def test_timeline_hypothesis_follows_the_updates(noisy):
    X, y = noisy
    clf = Perceptron(epochs=3, random_state=0, record="all").fit(X, y)
    tl = Timeline.from_trace(clf.trace_, len(X))
    t = tl.next_update(0)
    i = t - 1
    j = tl.index[i]
    w_old, th_old = tl.previous_hypothesis(t)
    w_new, th_new = tl.hypothesis(t)
    assert np.allclose(w_new, w_old + clf.eta * y[j] * X[j])
    assert np.isclose(th_new, th_old - clf.eta * y[j] * clf.C_)
    assert tl.end_of_epoch(0) == len(X) and tl.end_of_epoch(len(X)) == 2 * len(X)


@pytest.mark.parametrize("seed", range(4))
def test_novikoff_bound_holds_and_reduces_to_r_over_gamma(seed):
    X, y, _, target = make_separable(150, margin=0.05, random_state=seed)
    clf = Perceptron(epochs=300, random_state=seed).fit(X, y)
    bound, _R, _gamma = novikoff_bound(
        X, y, target.w, target.theta, clf.eta, clf.C_, clf.theta_init_
    )
    assert clf.score(X, y) == 1.0 and 0 < clf.n_updates_ <= bound
    zero_start, R0, g0 = novikoff_bound(X, y, target.w, target.theta, 0.1, 1.0, 0.0)
    assert np.isclose(zero_start, (R0 / g0) ** 2)


def test_same_seed_same_data_and_noise_only_on_training_rows():
    req = DataRequest("gaussians", (("n_samples", 300),), "exact", 0.2, 0.25, seed=5)
    a, b = make_dataset(req), make_dataset(req)
    assert np.array_equal(a.X, b.X) and np.array_equal(a.y, b.y)
    assert a.flipped.sum() == round(0.2 * len(a.y)) and abs(len(a.X_test) - 75) <= 1  # per class
    clean = make_dataset(DataRequest("gaussians", (("n_samples", 300),), "none", 0, 0.25, 5))
    assert np.array_equal(clean.y_test, a.y_test)  # the test part is never corrupted
    assert np.array_equal(clean.y[~a.flipped], a.y[~a.flipped])
    assert (clean.y[a.flipped] != a.y[a.flipped]).all()
    other = make_dataset(DataRequest("gaussians", (("n_samples", 300),), "exact", 0.2, 0.25, 6))
    assert not np.array_equal(other.X, a.X)


def test_a_lessons_request_may_keep_the_generators_own_label_noise():
    """Lesson 11's figure shows the examples its study drew, with Khardon & Wachman's noise N
    flipped by the generator (the data panel never asks for it); the panel's noise on top
    flips back what the generator flipped."""
    from perceptron_core.datasets import make_kw

    options = (("margin", 0.1), ("n_features", 10), ("n_samples", 200), ("noise", 0.2))
    data = make_dataset(DataRequest("kw", options, seed=3))
    drawn = make_kw(n_features=10, margin=0.1, noise=0.2, n_samples=200, random_state=3)
    assert np.array_equal(data.X, drawn.X) and np.array_equal(data.y, drawn.y)
    assert np.array_equal(data.flipped, drawn.flipped) and data.flipped.sum() > 20
    both = make_dataset(DataRequest("kw", options, "exact", 0.1, seed=3))
    mine = both.y != drawn.y  # the panel's own flips, on the generator's labels
    assert mine.sum() == 20 and np.array_equal(both.flipped, drawn.flipped ^ mine)
    assert not make_dataset(DataRequest("kw", options[:3], seed=3)).flipped.any()


@pytest.mark.parametrize("value", [True, 3, 0.125, "voted", ["voted", "pa"]])
def test_url_values_round_trip(value):
    assert _parse(_format(value), value) == value
    with pytest.raises(ValueError):
        _parse("not-a-value", 1.0)
    with pytest.raises(ValueError):  # a list is checked against the options and its cap
        _parse("voted,nonsense", [], options=["voted", "pa"])


# -- point edits -------------------------------------------------------------------------

X0 = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
Y0 = np.array([-1, -1, 1, 1])


def test_edits_are_the_difference_to_the_generated_points():
    edits = PointEdits(removed=(1,), changed=((2, 0.5, 2.0, -1),), added=((3.0, 3.0, 1),))
    origin, X, y = edits.apply(X0, Y0)
    assert origin.tolist() == [0, 2, 3, ADDED]
    assert X.tolist() == [[0, 0], [0.5, 2.0], [1, 1], [3, 3]] and y.tolist() == [-1, -1, 1, 1]
    assert PointEdits.between(X0, Y0, origin, X, y) == edits
    assert PointEdits.from_text(edits.to_text()) == edits
    assert PointEdits.between(X0, Y0, np.arange(4), X0, Y0) == PointEdits()  # no edit, no entry


@pytest.mark.parametrize("text", ["+1,2", "+1,2,3", "=x,1,2,1", "*4", "+nan,1,1", "-1.5"])
def test_a_bad_edits_text_is_refused(text):
    with pytest.raises(ValueError):
        PointEdits.from_text(text)


def test_edits_for_rows_the_data_do_not_have_are_refused():
    with pytest.raises(DataError, match="does not have"):
        PointEdits(removed=(9,)).apply(X0, Y0)


@pytest.mark.parametrize(
    "X, y, message",
    [
        (np.array([[0.0, np.nan], [1.0, 1.0]]), np.array([-1, 1]), "Row 1 has no number in x2"),
        (X0, np.array([-1, 1, 1, 2]), "Row 4 has the label 2"),
        (X0, np.array([1, 1, 1, 1]), "both classes"),
    ],
)
def test_points_no_learner_can_use_are_refused_with_a_message(X, y, message):
    with pytest.raises(DataError, match=message):
        check_points(X, y)


def test_clicks_add_and_remove_points():
    edits = edited(PointEdits(), X0, Y0, add_point((0.25, 0.75), -1))
    assert edits == PointEdits(added=((0.25, 0.75, -1),))
    edits = edited(edits, X0, Y0, remove_near((0.9, 0.1), reach=0.2))
    assert edits.removed == (1,)
    edits = edited(edits, X0, Y0, remove_near((0.3, 0.7), reach=0.2))  # an added point
    assert edits == PointEdits(removed=(1,))
    with pytest.raises(DataError, match="no point near"):
        edited(edits, X0, Y0, remove_near((5.0, 5.0), reach=0.2))
    with pytest.raises(DataError, match="both classes"):  # removing the last -1 is refused
        edited(PointEdits(removed=(1,)), X0, Y0, remove_near((0.0, 0.0), reach=0.2))


def test_a_table_delta_edits_adds_and_deletes_rows():
    delta = {
        "edited_rows": {0: {"x2": 0.5}},
        "added_rows": [{"x1": 2.0, "x2": 2.0, "label": 1}],
        "deleted_rows": [3],
    }
    edits = edited(PointEdits(removed=(1,)), X0, Y0, table_delta(delta))
    # rows shown were generated rows 0, 2, 3: row 3 of the table does not exist, row 2 is row 3
    assert edits == PointEdits(removed=(1,), changed=((0, 0.0, 0.5, -1),), added=((2.0, 2.0, 1),))
    delta = {"edited_rows": {}, "added_rows": [{"x1": 2.0, "label": 1}], "deleted_rows": [2]}
    with pytest.raises(DataError, match="Row 3 has no number in x2"):  # an unfinished row
        edited(PointEdits(removed=(1,)), X0, Y0, table_delta(delta))


def test_edited_data_keep_the_split_and_follow_the_noise_marks():
    base = DataRequest("separable", (("n_samples", 60),), "exact", 0.2, 0.25, seed=1)
    data = make_dataset(base)
    kept_flip, fixed_flip = np.flatnonzero(data.flipped)[:2]
    plain = int(np.flatnonzero(~data.flipped)[0])
    edits = PointEdits(
        removed=(plain,),
        changed=((int(fixed_flip), *data.X[fixed_flip], int(-data.y[fixed_flip])),),
        added=((0.1, 0.2, 1),),
    )
    new = make_dataset(replace(base, edits=edits))
    assert len(new.X) == len(data.X) and np.array_equal(new.X_test, data.X_test)
    assert new.X[-1].tolist() == [0.1, 0.2] and not new.flipped[-1]
    row = {int(i): k for k, i in enumerate(np.setdiff1d(np.arange(len(data.X)), [plain]))}
    assert new.flipped[row[int(kept_flip)]]
    assert not new.flipped[row[int(fixed_flip)]]  # its label was set back
    assert new.flipped.sum() == data.flipped.sum() - 1


def test_exported_points_read_back_as_the_same_data():
    data = make_dataset(DataRequest("gaussians", (("n_samples", 50),), seed=4))
    back = make_dataset(DataRequest("csv", csv_bytes=points_csv(data).encode()))
    assert np.allclose(back.X, data.X) and np.array_equal(back.y, data.y)


def test_the_trace_csv_counts_steps_epochs_and_examples_from_one():
    """The page says "step 1 … example #5" for the fifth row of the points: so does the file."""
    from perceptron_lab.app_logic.export import events_csv
    from perceptron_lab.app_logic.learners import LEARNERS
    from perceptron_lab.app_logic.training import fit_run

    data = make_dataset(DataRequest("separable", (("n_samples", 30),), seed=2))
    settings = tuple(sorted(LEARNERS["perceptron"].defaults().items()))
    run = fit_run("perceptron", settings, 2, 0, data.X, data.y, data.X_test, data.y_test)
    rows = list(csv.DictReader(io.StringIO(events_csv(run))))
    tl = run.timeline
    assert len(rows) == tl.n_events
    first = rows[0]
    assert (first["step"], first["epoch"]) == ("1", "1")
    assert int(first["example"]) == tl.index[0] + 1
    assert sorted({int(r["example"]) for r in rows}) == list(range(1, 31))


def test_a_column_name_that_a_spreadsheet_would_run_is_written_inert():
    data = make_dataset(
        DataRequest("csv", csv_bytes=b"=1+1,@SUM(A1),label\n1,2,0\n3,4,1\n2,2,0\n")
    )
    header = points_csv(data).splitlines()[0]
    assert header == "'=1+1,'@SUM(A1),label"


def test_the_menu_lists_every_rule_entry_of_the_app():
    """An on-line rule reaches the playground through the app's rule menu, not the core."""
    import importlib

    from perceptron_core import rules
    from perceptron_core.engine import dispatch
    from perceptron_lab.app_logic import rule_menu

    estimators = [importlib.import_module(f"{rules.__name__}.{name}") for name in rules.NAMES]
    for entry in rule_menu.ENTRIES:
        learner = LEARNERS[entry["key"]]
        assert learner.cls.__module__ in {module.__name__ for module in estimators}
        assert {s.name for s in learner.settings} <= set(learner.cls().get_params())
    assert not any(hasattr(module, "PLAYGROUND") for module in [*dispatch.RULES, *estimators])


#: The settings whose menu default is the app's choice, not the estimator's.
MENU_CHOICES = {
    ("kw", "tau"),
    ("kw", "lam"),
    ("kw", "alpha_bound"),
    ("kernel", "gamma"),
    ("kernel", "degree"),
}


@pytest.mark.parametrize("key", sorted(LEARNERS))
def test_a_settings_default_is_the_estimators_unless_the_entry_names_one(key):
    """A menu default is declared once: in the estimator, or in the entry as the app's choice."""
    from perceptron_lab.app_logic.setting import ESTIMATOR_DEFAULT

    params = LEARNERS[key].cls().get_params()
    for setting in LEARNERS[key].settings:
        own = params[setting.name]
        assert setting.default is not ESTIMATOR_DEFAULT
        if setting.default != (setting.none_at if own is None else own):
            assert (key, setting.name) in MENU_CHOICES, (key, setting.name)


def test_a_rule_menu_default_follows_its_estimator(monkeypatch):
    """Changing an estimator's default changes the menu's (the entry does not repeat it)."""
    from perceptron_core.rules.alma import ALMA
    from perceptron_lab.app_logic import rule_menu
    from perceptron_lab.app_logic.learners import Learner

    entry = next(e for e in rule_menu.ENTRIES if e["key"] == "alma")
    changed = {"alpha": 0.5, "fit_intercept": False}
    monkeypatch.setattr(ALMA, "get_params", lambda self, deep=True: changed)
    assert Learner(**entry).defaults() == changed


@pytest.mark.parametrize("key", sorted(LEARNERS))
def test_each_learner_says_what_it_draws_and_what_its_math_panel_writes(key):
    learner = LEARNERS[key]
    data = make_dataset(DataRequest("gaussians", (("n_samples", 60),), "uniform", 0.1, 0.2, 1))
    values = learner.defaults()
    run = fit_run(key, tuple(sorted(values.items())), 3, 0, *data.fit_data(learner.learns_classes))
    tl, est = run.timeline, run.estimator
    assert learner.predictors[0] == "last" and set(learner.predictors) <= set(MODES)
    assert learner.shown_mode(values) in learner.predictors
    # several members: a committee, or the classes learned together (one member per class)
    assert (tl.n_members > 1) == (learner.boundary in (MEMBERS, CLASSES))
    assert tl.classes == learner.learns_classes
    assert (tl.kernel_trace is not None) == (learner.boundary == CONTOUR)
    if learner.replays_votes:  # the browser replays the four predictors from these votes
        assert np.asarray(est.votes_).shape == (tl.W.shape[1],)
    numbers = learner.numbers(est) if learner.numbers else {}
    assert set(numbers) <= {
        "eta",
        "C",
        "theta_init",
        "tau_margin",
        "alpha",
        "lam",
        "lam_form",
        "xb",
    }
    assert all(np.isfinite(v) for v in numbers.values() if isinstance(v, float))
    if numbers.get("lam"):  # how λ enters the score, for the math panel and the λ rings
        assert numbers["lam_form"] in ("kw", "kernel", "paum")
