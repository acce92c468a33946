"""Perceptron Lab's core: the perceptron family as scikit-learn estimators.

What one visit of an example does is a rule in :mod:`perceptron_core.rules`;
the compiled loops that run them are in :mod:`perceptron_core.engine`.
:class:`KWPerceptron` runs Khardon & Wachman's (2007) rule with every switch,
and the named classes fix a configuration each. Data generators and
shipped data sets are in :mod:`perceptron_core.datasets`.

Examples
--------
>>> from perceptron_core import VotedPerceptron
>>> X = [[0.0, 1.0], [1.0, 2.0], [3.0, 0.0], [4.0, 1.0]]
>>> VotedPerceptron(random_state=0).fit(X, ["no", "no", "yes", "yes"]).predict([[4.0, 0.0]])
array(['yes'], dtype='<U3')
"""

# ruff: noqa: F401 (the TYPE_CHECKING imports below are the package's public names)
from typing import TYPE_CHECKING

from perceptron_core._lazy import attach

# The public names, listed once: type checkers and IDEs read these imports, and at run time
# attach() reads them from this file and imports each on first use. Importing the estimators
# loads scikit-learn and numba (slow to import): ``perceptron-lab --help`` and the data-set
# code never pay for them.
if TYPE_CHECKING:
    from perceptron_core.average_algorithm import AverageAlgorithm
    from perceptron_core.boosting import AdaBoost, Bagging, NRBoost
    from perceptron_core.kernel import AveragedKernelPerceptron, KernelPerceptron
    from perceptron_core.linear import (
        AveragedPerceptron,
        KWPerceptron,
        LongestSurvivorPerceptron,
        MarginPerceptron,
        Perceptron,
        VotedPerceptron,
    )
    from perceptron_core.multiclass import MulticlassPerceptron
    from perceptron_core.parallel import ParallelPerceptron
    from perceptron_core.rules.alma import ALMA
    from perceptron_core.rules.balanced_winnow import BalancedWinnow
    from perceptron_core.rules.passive_aggressive import PassiveAggressive
    from perceptron_core.rules.paum import PAUMPerceptron
    from perceptron_core.rules.pocket import PocketPerceptron
    from perceptron_core.rules.relative_update import RelativeUpdatePerceptron
    from perceptron_core.rules.thick_separator import ThickSeparatorPerceptron
    from perceptron_core.rules.winnow import Winnow, WinnowR, make_k_of_n_disjunction
    from perceptron_core.trace import EVENT_KINDS, MulticlassTrace, Trace

__version__ = "0.1.0"

__getattr__, __dir__, __all__ = attach(__name__)
