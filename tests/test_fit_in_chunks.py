"""An on-line rule's fit in pieces, with a check between them (``perceptron_core.engine.chunks``):
the same numbers as one call of the driver, bit for bit, and stopped by what the check raises.

The app fits a visitor's run this way, so that a closed tab or a spent CPU budget stops the
fit of a long upload at its next piece instead of after the whole compiled loop.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from perceptron_core.engine.chunks import VISIT_WORK, between_chunks, visits_per_chunk
from perceptron_core.rules.alma import ALMA
from perceptron_core.rules.balanced_winnow import BalancedWinnow
from perceptron_core.rules.passive_aggressive import PassiveAggressive
from perceptron_core.rules.paum import PAUMPerceptron
from perceptron_core.rules.pocket import PocketPerceptron
from perceptron_core.rules.relative_update import RelativeUpdatePerceptron
from perceptron_core.rules.thick_separator import ThickSeparatorPerceptron
from perceptron_core.rules.winnow import Winnow, WinnowR
from perceptron_core.trace import Trace

RULES = [
    PAUMPerceptron,
    ThickSeparatorPerceptron,
    PocketPerceptron,
    RelativeUpdatePerceptron,
    PassiveAggressive,
    ALMA,
    BalancedWinnow,
    Winnow,
    WinnowR,
]
M, N, EPOCHS = 37, 3, 6


def _data(cls, n_classes: int, seed: int = 1):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(M, N))
    if cls in (Winnow, WinnowR):  # boolean features
        X = (X > 0).astype(np.float64)
    return X, rng.integers(0, n_classes, M)


def _make(cls, record: str):
    epochs = "max_epochs" if "max_epochs" in cls().get_params() else "epochs"
    return cls(random_state=0, record=record, **{epochs: EPOCHS})


def _same(x, y) -> bool:
    """Equal values: arrays element for element (NaN equal to NaN), dicts key for key."""
    if isinstance(x, dict):
        return x.keys() == y.keys() and all(_same(x[k], y[k]) for k in x)
    if isinstance(x, np.ndarray) or isinstance(y, np.ndarray):
        x, y = np.asarray(x), np.asarray(y)
        return np.array_equal(x, y, equal_nan=x.dtype.kind == "f")
    return x == y


def _same_trace(a: Trace, b: Trace) -> bool:
    return all(_same(getattr(a, f.name), getattr(b, f.name)) for f in dataclasses.fields(a))


def _same_fit(a, b) -> bool:
    fitted = ("coef_", "intercept_", "update_counts_")
    counted = ("n_iter_", "n_updates_", "n_mistakes_", "converged_")
    if any(not np.array_equal(getattr(a, k), getattr(b, k)) for k in fitted):
        return False
    if any(getattr(a, k) != getattr(b, k) for k in counted):
        return False
    if a.trace_ is None or b.trace_ is None:
        return a.trace_ is b.trace_
    if isinstance(a.trace_, dict):
        return a.trace_.keys() == b.trace_.keys() and all(
            _same_trace(a.trace_[k], b.trace_[k]) for k in a.trace_
        )
    return _same_trace(a.trace_, b.trace_)


#: Pieces of one visit, of a few, of all but one row, of one epoch, of several epochs, of all.
WORKS = [1, VISIT_WORK * 5, VISIT_WORK * (M - 1), VISIT_WORK * (M + 1), VISIT_WORK * 90, 2**40]


@pytest.mark.parametrize("cls", RULES, ids=lambda c: c.__name__)
@pytest.mark.parametrize("n_classes", [2, 3])
def test_a_fit_in_pieces_has_the_numbers_of_one_call(cls, n_classes):
    X, y = _data(cls, n_classes)
    for record in ("none", "updates", "all"):
        whole = _make(cls, record).fit(X, y)
        for work in WORKS:
            asked = []
            with between_chunks(lambda: asked.append(1), work=work):  # noqa: B023
                pieces = _make(cls, record).fit(X, y)
            assert asked, (cls.__name__, record, work)
            assert _same_fit(whole, pieces), (cls.__name__, n_classes, record, work)


@pytest.mark.parametrize("cls", [PocketPerceptron, BalancedWinnow], ids=lambda c: c.__name__)
def test_partial_fit_in_pieces_has_the_numbers_of_one_call(cls):
    X, y = _data(cls, 2)
    whole, pieces = _make(cls, "all"), _make(cls, "all")
    for _ in range(3):
        whole.partial_fit(X, y, classes=[0, 1])
        with between_chunks(lambda: None, work=VISIT_WORK * 4):
            pieces.partial_fit(X, y, classes=[0, 1])
    assert _same_fit(whole, pieces)


def test_a_fit_that_stops_early_stops_at_the_same_epoch_in_pieces():
    """Separable data: the fit ends after its first epoch without an update, well before its
    epochs, whether the pieces are parts of an epoch or several epochs."""
    X = np.array([[1.0, 2.0], [2.0, 1.0], [-1.0, -2.0], [-2.0, -1.5]] * 5)
    y = np.array([1, 1, 0, 0] * 5)
    whole = PassiveAggressive(epochs=50, random_state=3, record="all").fit(X, y)
    assert whole.converged_ and whole.n_iter_ < 50
    for work in (VISIT_WORK * 3, VISIT_WORK * 45):
        with between_chunks(lambda: None, work=work):
            pieces = PassiveAggressive(epochs=50, random_state=3, record="all").fit(X, y)
        assert _same_fit(whole, pieces)


class Stop(Exception):
    pass


def test_the_check_is_asked_before_every_piece_and_what_it_raises_ends_the_fit():
    X, y = _data(PassiveAggressive, 2)
    asked = []
    with between_chunks(lambda: asked.append(1), work=VISIT_WORK * 10):
        PassiveAggressive(epochs=4, random_state=0, record="all").fit(X, y)
    per_epoch = -(-M // visits_per_chunk(VISIT_WORK * 10, N, 1))
    assert len(asked) == 4 * per_epoch

    def stop_at_third():
        asked.append(1)
        if len(asked) == 3:
            raise Stop

    asked.clear()
    with pytest.raises(Stop), between_chunks(stop_at_third, work=VISIT_WORK * 10):
        PassiveAggressive(epochs=4, random_state=0, record="all").fit(X, y)
    assert len(asked) == 3  # nothing ran after the check that raised


def test_the_pockets_pieces_count_the_rows_its_ratchet_reads():
    """With the ratchet a visit may count the training errors of two hypotheses (every row
    twice): a piece holds that many fewer visits, so a long upload is asked about often."""
    rows = 20_000
    piece = visits_per_chunk(2**27, 2, 1 + 2 * rows)
    assert piece < visits_per_chunk(2**27, 2, 1) // 50
    rng = np.random.default_rng(0)
    X, y = rng.integers(0, 100, size=(rows, 2)).astype(float), rng.integers(0, 2, rows)
    counts = {}
    for ratchet in (True, False):
        asked = []
        with between_chunks(lambda: asked.append(1)):  # noqa: B023
            PocketPerceptron(epochs=2, ratchet=ratchet, random_state=0).fit(X, y)
        counts[ratchet] = len(asked)
    assert counts[False] == 1  # 40,000 visits: one piece
    assert counts[True] == 2 * -(-rows // piece)  # each epoch in pieces


def test_outside_between_chunks_a_fit_asks_nothing():
    X, y = _data(PocketPerceptron, 2)
    with between_chunks(lambda: pytest.fail("asked outside its block")):
        pass
    PocketPerceptron(epochs=3, random_state=0).fit(X, y)
