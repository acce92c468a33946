"""The app's side of the multiclass perceptron (no browser): the data's classes, the run, its
timeline against the core, the payload, the bound in the replay's texts, the exports."""

from __future__ import annotations

import numpy as np
import pytest

from perceptron_core.datasets import DataError
from perceptron_core.modes import MODES
from perceptron_core.multiclass import kesler_bound
from perceptron_lab.app_logic.datasource import DataRequest, make_dataset
from perceptron_lab.app_logic.export import events_csv, run_record
from perceptron_lab.app_logic.learners import LEARNERS
from perceptron_lab.app_logic.payload import build_payload
from perceptron_lab.app_logic.playback_args import texts
from perceptron_lab.app_logic.training import check_run_size
from tests.pages import page_run


@pytest.mark.parametrize(
    "request_",
    [
        DataRequest("three_classes", (("n_samples", 60),), "uniform", 0.2, 0.25, seed=2),
        DataRequest("three_classes", (("positive_class", "C"),), "exact", 0.1, 0.2, seed=5),
        DataRequest("digits", (("positive_class", "3"),), test_fraction=0.3, seed=1),
    ],
    ids=["noise", "C against the rest", "digits"],
)
def test_the_classes_agree_with_the_one_against_the_rest_labels(request_):
    """y is +1 exactly where the class is the +1 class, on both parts, after the noise too
    (a flipped label moves the point's class), and the one-against-the-rest labels are the
    registry's own for that class."""
    data = make_dataset(request_)
    classes, classes_test = data.class_labels()
    positive = data.all_classes.index(data.class_names[1])
    assert np.array_equal(classes == positive, data.y > 0)
    assert np.array_equal(classes_test == positive, data.y_test > 0)
    assert len(data.all_classes) == len(np.unique(np.r_[classes, classes_test])) > 2
    if data.flipped.any():  # noise moved some points to another class, none outside the range
        assert classes.max() < len(data.all_classes)


def test_two_class_data_give_the_two_classes_as_numbers():
    data = make_dataset(DataRequest("separable", (("n_samples", 20),), seed=0))
    assert data.all_classes == data.class_names and data.classes is None
    X, y, _, _ = data.fit_data(learns_classes=True)
    assert np.array_equal(y, (data.y > 0).astype(int)) and X is data.X


@pytest.fixture(scope="module")
def three():
    return make_dataset(
        DataRequest("three_classes", (("n_samples", 60),), "uniform", 0.1, 0.25, seed=3)
    )


@pytest.mark.parametrize("mode", MODES)
def test_the_timeline_ends_with_the_cores_predictions(three, mode):
    """The Python timeline (the browser's reference) at the last step gives the core's own
    predict_all on the training and the test points, and the run's final accuracy counts the
    classes."""
    run = page_run("multiclass", {"predict_with": mode}, 10, 0, three)
    tl = run.timeline
    assert tl.classes and tl.n_members == 3
    for X, labels in ((three.X, run.final_train), (three.X_test, run.final_test)):
        np.testing.assert_array_equal(tl.predicted_classes(X, tl.n_events, mode), labels[mode])
    lane = build_payload(three, [run]).meta["lanes"][0]
    classes, classes_test = three.class_labels()
    assert lane["hypotheses"] == "classes" and lane["mode"] == mode and lane["has_modes"]
    assert lane["final_accuracy"]["test"][mode] == pytest.approx(
        float(np.mean(run.final_test[mode] == classes_test))
    )
    assert lane["test_errors_per_epoch"][-1] == int(
        (tl.predicted_classes(three.X_test, tl.n_events) != classes_test).sum()
    )


def test_the_replay_states_keslers_bound_where_a_machine_separates():
    data = make_dataset(DataRequest("three_classes", (("n_samples", 60),), seed=4))
    run = page_run("multiclass", {}, 30, 4, data)
    bound = kesler_bound(data.X, data.class_labels()[0], 3)[0]
    words = texts(run, data)
    assert words["novikoff_bound"] == pytest.approx(bound)
    assert f"at most (R/γ)² = {int(bound):,} updates" in words["novikoff"]
    assert "Kesler" in words["bound_title"]
    assert run.timeline.W.shape[1] - 1 <= bound


def test_the_replay_says_why_no_bound_applies_on_noisy_classes(three):
    words = texts(page_run("multiclass", {}, 5, 0, three), three)
    assert words["novikoff_bound"] is None and "no bound applies" in words["novikoff"]


def test_the_exports_give_every_class(three):
    run = page_run("multiclass", {}, 3, 0, three)
    record = run_record(run, three, DataRequest("three_classes"))
    final = record["final_hypothesis"]["classes"]
    assert [c["class"] for c in final] == list(three.all_classes) == record["data"]["classes"]
    np.testing.assert_array_equal(final[2]["w"], run.estimator.coef_[2])
    assert final[1]["b"] == run.estimator.intercept_[1]
    header, first = events_csv(run).split("\r\n")[:2]
    assert header == "step,epoch,example,event,score_0,score_1,score_2,hypothesis_after"
    assert first.split(",")[3] == "mistake" and first.split(",")[4:7] == ["0", "0", "0"]


def test_a_run_too_large_to_replay_is_refused_counting_every_class():
    learner = LEARNERS["multiclass"]
    check_run_size(learner, 1_000, 2, 100, n_classes=3)
    with pytest.raises(DataError, match="MB"):
        check_run_size(learner, 2_000, 64, 100, n_classes=10)


def test_more_than_two_features_draw_no_projection():
    """A vector per class has no one plane to project: on 50 features the replay shows the
    notice for 2-D data, not a projection whose line it could not draw."""
    data = make_dataset(DataRequest("kw", (("n_features", 50), ("n_samples", 60)), seed=2))
    payload = build_payload(data, [page_run("multiclass", {}, 2, 2, data)], 2)
    assert payload.meta["scene"]["view"] == "none"
    assert payload.meta["lanes"][0]["hypotheses"] == "none"
