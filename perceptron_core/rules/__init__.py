"""The on-line rules' scikit-learn estimators, one file per rule: above the engine.

``perceptron_core.rules.<name>`` is the estimator of the rule whose step is
:mod:`perceptron_core.steps.<name>` (each estimator also shows its step to its
readers as ``<name>.step``); :data:`NAMES` lists them in the driver's order
(:mod:`perceptron_core.engine.dispatch`). An estimator builds the rule's
``State`` and ``Settings`` by name and runs the driver through its base
(:class:`perceptron_core._online.OnlineLinearClassifier`); nothing below
imports an estimator, so the imports point one way: the estimators over the
engine over the steps.

``from perceptron_core.rules import kw`` gives Khardon and Wachman's
decision and vote count, :mod:`perceptron_core.steps.kw`.
"""

from perceptron_core.engine.dispatch import NAMES
from perceptron_core.steps import kw

__all__ = ["NAMES", "kw"]
