"""Bad input gets a message a student can act on."""

import numpy as np
import pytest

from perceptron_core import KWPerceptron, MarginPerceptron

X = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 1.0], [0.5, 2.0]])
y = np.array([0, 1, 1, 0])


@pytest.mark.parametrize(
    "params, words",
    [
        (dict(eta=0), "eta (the learning rate"),
        (dict(eta=float("nan")), "must be a number greater than 0"),
        (dict(tau=-1), "tau (the margin"),
        (dict(alpha_bound=0), "alpha_bound (the most updates one example may cause) must be"),
        (dict(alpha_bound=2.5), "a whole number at least 1"),
        (dict(epochs="many"), "epochs (the number of passes"),
        (dict(predict_with="best"), "'last' or 'longest' or 'voted' or 'averaged'"),
        (dict(record=True), "record"),
        (dict(theta_init="big"), "theta_init"),
        (dict(random_state=-3), "random_state"),
    ],
)
def test_bad_parameters_are_named_and_explained(params, words):
    with pytest.raises(ValueError, match=words.replace("(", r"\(").replace(")", r"\)")):
        KWPerceptron(**params).fit(X, y)


def test_named_configuration_reports_its_own_name():
    with pytest.raises(ValueError, match="^MarginPerceptron: tau"):
        MarginPerceptron(tau=-0.5).fit(X, y)


@pytest.mark.parametrize(
    "bad_X, bad_y, words",
    [
        (
            np.array([[0.0, np.nan], [1.0, 0.0]]),
            [0, 1],
            "NaN or infinite value .* row 0, column 1",
        ),
        (np.array([[0.0, np.inf], [1.0, 0.0]]), [0, 1], "fill in the missing values"),
        (np.array([0.0, 1.0, 2.0]), [0, 1, 0], "Expected 2D array"),
        (X, [1, 1, 1, 1], "only one class"),
        (X, [0, 1, 1], "inconsistent numbers of samples"),
        (np.array([["a", "b"], ["c", "d"]]), [0, 1], "not numbers"),
        (X, None, "requires y to be passed"),
    ],
)
def test_bad_training_data_is_explained(bad_X, bad_y, words):
    with pytest.raises(ValueError, match=words):
        KWPerceptron(epochs=2).fit(bad_X, bad_y)


def test_dataframe_with_text_columns_names_them():
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame({"size": [1.0, 2.0, 3.0, 4.0], "colour": ["r", "g", "b", "r"]})
    with pytest.raises(ValueError, match="non-numeric columns: colour"):
        KWPerceptron(epochs=2).fit(df, y)


def test_sparse_input_is_refused_with_a_way_out():
    sparse = pytest.importorskip("scipy.sparse")
    with pytest.raises(TypeError, match=r"toarray\(\)"):
        KWPerceptron(epochs=2).fit(sparse.csr_matrix(X), y)


def test_feature_count_mismatch_says_what_to_do():
    clf = KWPerceptron(epochs=2).fit(X, y)
    with pytest.raises(
        ValueError, match="X has 3 features, but KWPerceptron is expecting 2.*same"
    ):
        clf.predict(np.ones((2, 3)))


def test_unknown_mode_and_unknown_label():
    clf = KWPerceptron(epochs=2).fit(X, y)
    with pytest.raises(ValueError, match="mode must be one of"):
        clf.decision_function(X, mode="majority")
    with pytest.raises(ValueError, match="not among the classes"):
        clf.partial_fit(X, [0, 1, 2, 0])


def test_record_all_refuses_to_fill_memory():
    big = np.zeros((100_000, 1))
    big[0] = 1.0
    labels = np.zeros(100_000, dtype=int)
    labels[0] = 1
    with pytest.raises(ValueError, match="record='all' would store"):
        KWPerceptron(epochs=500, record="all").fit(big, labels)
