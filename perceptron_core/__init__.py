"""Perceptron Lab's core: the perceptron family as scikit-learn estimators.

The one compiled on-line loop of Khardon & Wachman (2007) lives in
:mod:`perceptron_core._engine`; :class:`KWPerceptron` drives it with every
switch, and the named classes fix a configuration each. Data generators and
shipped data sets are in :mod:`perceptron_core.datasets`.

Examples
--------
>>> from perceptron_core import VotedPerceptron
>>> X = [[0.0, 1.0], [1.0, 2.0], [3.0, 0.0], [4.0, 1.0]]
>>> VotedPerceptron(random_state=0).fit(X, ["no", "no", "yes", "yes"]).predict([[4.0, 0.0]])
array(['yes'], dtype='<U3')
"""

from perceptron_core.linear import (
    AveragedPerceptron,
    KWPerceptron,
    LongestSurvivorPerceptron,
    MarginPerceptron,
    Perceptron,
    VotedPerceptron,
)
from perceptron_core.trace import EVENT_KINDS, Trace

__all__ = [
    "AveragedPerceptron",
    "EVENT_KINDS",
    "KWPerceptron",
    "LongestSurvivorPerceptron",
    "MarginPerceptron",
    "Perceptron",
    "Trace",
    "VotedPerceptron",
]
__version__ = "0.1.0"
