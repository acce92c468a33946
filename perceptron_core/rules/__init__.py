"""The on-line rules: what one visit of one example does, one short file per rule.

Every rule is a compiled function::

    step(X, Y, p, j, a, model, hp) -> (kind, score, coef, theta_delta)

for the visit of example ``j`` (row ``X[j]``, label ``Y[p, j]`` = ±1) in
one-vs-rest problem ``p``, which has updated on that example ``a`` times so
far. ``model = (W, V, S)`` is the rule's state, changed in place: ``W[p]``
the weights, ``V[p]`` a second weight vector if the rule has one (Balanced
Winnow's ``w-``, the pocket), ``S[p]`` its few numbers (the bias, a
threshold, a counter); ``hp`` its hyper-parameters, a tuple of floats. It
returns the event (``CORRECT``, ``MISTAKE``, ``MARGIN`` or ``RESCUED`` of
:mod:`perceptron_core.trace`; ``MISTAKE`` and ``MARGIN`` mean the
hypothesis changed), the score to record, and for additive rules the
update ``w += coef * x, theta += theta_delta`` (NaN otherwise).

The driver (:func:`perceptron_core.engine.online.run_online`) does the rest.
It picks a rule by its number in :func:`step`'s switch: numba caches a
function on disk only when it calls fixed functions, so an integer switch
keeps a warm start fast where passing the step as an argument would
recompile in every new process. A new rule is a file here and one line in
each switch below.

For whoever edits a rule: numba checks only the source file of the
function it loads from its cache, and the steps are compiled into the
driver; :func:`perceptron_core._jit.jit` therefore drops every cached
compilation when any source file of the package has changed, so the next
run compiles the edited step (and everything else) again.
"""

from perceptron_core._jit import jit, jit_inline
from perceptron_core.rules import (
    alma,
    balanced_winnow,
    passive_aggressive,
    paum,
    pocket,
    relative_update,
    thick_separator,
    winnow,
)
from perceptron_core.vectors import copy_into

(
    THICK_SEPARATOR,
    PASSIVE_AGGRESSIVE,
    RELATIVE_UPDATE,
    ALMA,
    PAUM,
    WINNOW,
    BALANCED_WINNOW,
    POCKET,
) = range(8)


@jit_inline
def step(rule, X, Y, p, j, a, model, hp):
    """The visit of example ``j`` in problem ``p`` under rule number ``rule``."""
    if rule == THICK_SEPARATOR:
        return thick_separator.step(X, Y, p, j, a, model, hp)
    if rule == PASSIVE_AGGRESSIVE:
        return passive_aggressive.step(X, Y, p, j, a, model, hp)
    if rule == RELATIVE_UPDATE:
        return relative_update.step(X, Y, p, j, a, model, hp)
    if rule == ALMA:
        return alma.step(X, Y, p, j, a, model, hp)
    if rule == PAUM:
        return paum.step(X, Y, p, j, a, model, hp)
    if rule == WINNOW:
        return winnow.step(X, Y, p, j, a, model, hp)
    if rule == BALANCED_WINNOW:
        return balanced_winnow.step(X, Y, p, j, a, model, hp)
    return pocket.step(X, Y, p, j, a, model, hp)


@jit_inline
def answer(rule, model, p, n_updates):
    """The number of the hypothesis problem ``p`` answers with, after ``n_updates`` updates.

    The latest, but for the pocket algorithm, which answers with its pocket.
    """
    if rule == POCKET:
        return pocket.answer(model, p)
    return n_updates


@jit
def hypothesis(rule, model, p, hp, out):
    """Write problem ``p``'s weights into ``out``; returns its threshold ``theta``.

    For the rules whose updates are not additive (the driver records every
    hypothesis): by default ``W[p]`` and ``theta = -S[p, 0]`` (``S[p, 0]``
    is the bias ``b``).
    """
    if rule == WINNOW:
        return winnow.hypothesis(model, p, hp, out)
    if rule == BALANCED_WINNOW:
        return balanced_winnow.hypothesis(model, p, hp, out)
    W, _, S = model
    copy_into(out, W[p])
    return -S[p, 0]
