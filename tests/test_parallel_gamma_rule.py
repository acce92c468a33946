"""The parallel perceptron's margin moves by Cantador & Dorronsoro's rule (2005, section 2).

After a pattern the committee gets right, ``gamma`` grows by ``0.25 eta`` if
every correct member has ``y act_i > gamma`` and shrinks by ``0.75 eta`` if
at least one correct member has ``0 < y act_i < gamma``: one member inside
the band is enough to shrink it, whatever the others do.
"""

from __future__ import annotations

import numpy as np
import pytest

from perceptron_core._jit import read_only
from perceptron_core._online import RECORD_MODES
from perceptron_core.parallel import _p_delta


def _gamma_after_one_pattern(activations, gamma=0.5, eta=0.1):
    """Train one epoch on the single pattern x = (1,) with y = +1 and weight 1.

    Member ``i`` has weights ``(a_i, 0)``: its activation on ``x`` (whose
    appended constant is 1) is ``a_i``.
    """
    W = np.array([[a, 0.0] for a in activations])
    # the data and the record mode as ParallelPerceptron.fit passes them (no compilation of
    # its own)
    x, record = read_only(np.ones((1, 1))), RECORD_MODES["none"]
    out = _p_delta(x, np.ones(1), np.ones(1), W, gamma, eta, 1, record)
    return out[0]


def test_gamma_grows_when_every_correct_member_clears_it():
    assert _gamma_after_one_pattern([0.9, 0.8, 0.7]) == pytest.approx(0.5 + 0.25 * 0.1)


def test_a_wrong_member_does_not_stop_gamma_growing():
    # 2 of 3 right: the committee is right; the wrong member is not a "correct perceptron"
    assert _gamma_after_one_pattern([0.9, 0.8, -0.7]) == pytest.approx(0.5 + 0.25 * 0.1)


@pytest.mark.parametrize("activations", [[0.9, 0.8, 0.3], [0.9, 0.2, 0.3], [0.1, 0.2, 0.3]])
def test_gamma_shrinks_when_at_least_one_correct_member_is_inside_the_band(activations):
    assert _gamma_after_one_pattern(activations) == pytest.approx(0.5 - 0.75 * 0.1)


def test_gamma_does_not_move_after_a_committee_mistake():
    assert _gamma_after_one_pattern([-0.9, -0.8, 0.3]) == pytest.approx(0.5)
