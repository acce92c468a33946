"""What one visit of one example does: the compiled steps, below the engine.

One file per on-line rule (``<rule>.py``, named as the rule's estimator in
:mod:`perceptron_core.rules`) and :mod:`~perceptron_core.steps.kw`, Khardon
and Wachman's decision and vote count. Nothing here imports the engine or an
estimator: the engine (:mod:`perceptron_core.engine`) compiles these in, and
the estimators (:mod:`perceptron_core.rules`) run the engine, so the imports
point one way, folder by folder (``tests/test_code_shape.py`` holds it).

An on-line rule's file defines

* ``Settings``, a :class:`~typing.NamedTuple` of the floats its step reads
  (a switch is 0.0 or 1.0), built by its estimator by name;
* ``step(X, Y, p, j, a, state, settings) -> (kind, score, coef, theta_delta)``,
  the visit of example ``j`` (row ``X[j]``, label ``Y[p, j]`` = ±1) in
  one-vs-rest problem ``p``, which has updated on that example ``a`` times
  so far. It changes ``state`` (a :class:`State`) in place and returns the
  event (``CORRECT``, ``MISTAKE``, ``MARGIN`` or ``RESCUED`` of
  :mod:`perceptron_core.trace`; ``MISTAKE`` and ``MARGIN`` mean the
  hypothesis changed), the score to record, and for additive rules the update
  ``w += coef * x, theta += theta_delta`` (NaN otherwise);
* the names of its columns of ``state.numbers`` (:data:`BIAS` when that is all);
* optionally ``answer(state, p)`` (the hypothesis it answers with, when not
  the latest) and ``hypothesis(state, p, settings, out)`` (its weights, when
  they are not ``state.weights[p]`` and the bias).

Every function a step calls at a visit is compiled with
:func:`perceptron_core._jit.jit_visit`, so LLVM inlines it into the driver
and a step allocates no array.
"""

from typing import NamedTuple

import numpy as np


class State(NamedTuple):
    """An on-line rule's state, one row per one-vs-rest problem, changed in place by its step.

    One type for every rule (three float64 matrices), so that one
    compilation of the driver serves them all.
    """

    #: ``(P, n)``: the weights ``w`` of each problem.
    weights: np.ndarray
    #: ``(P, n)`` or ``(P, 0)``: a second weight vector, if the rule has one
    #: (Balanced Winnow's ``w-``, the pocket's weights).
    second: np.ndarray
    #: ``(P, c)``: the rule's few numbers (the bias, a threshold, a counter); its
    #: step's file names the columns.
    numbers: np.ndarray


#: The column of ``State.numbers`` that holds the bias ``b``, for the rules whose only
#: number it is (their default hypothesis is ``w`` with the threshold ``-b``).
BIAS = 0
