"""The thick separator: the perceptron that also updates on near misses.

The classic perceptron updates only when an example lands on the wrong side.
The course notes on on-line learning add a margin ``gamma`` to the threshold
and call it a thick separator; they print its rules as "Promote if
w.x > theta+gamma; Demote if w.x < theta-gamma", which read literally
promote examples that already clear the slab, and give no threshold update.
This module is the project's reading of the idea: the boundary is a slab of
half-width ``gamma``, an example on the right side but closer than ``gamma``
to the boundary (in raw score units) also triggers the update, and the bias
``b = -theta`` is learned as the weight of a constant input. The learned
boundary then keeps a positive functional margin from the training points,
which usually generalises better, and with ``gamma = 0`` the rule is the
textbook perceptron (update iff ``y <w, x> <= 0``).

The step (:mod:`perceptron_core.steps.thick_separator`) keeps the bias in its
state's numbers. Then the estimator, :class:`ThickSeparatorPerceptron`.
"""

from __future__ import annotations

from perceptron_core._online import ZeroStartLinear
from perceptron_core._validation import Number, hyperparameters, parameter
from perceptron_core.steps.thick_separator import Settings, step  # noqa: F401 (step: for its readers)


@hyperparameters
class ThickSeparatorPerceptron(ZeroStartLinear):
    """The perceptron with a thick separator: update inside a slab of half-width gamma.

    ``f(x) = <w, x> + b`` starts at ``w = 0, b = 0``. For each example in
    turn::

        if y * f(x) <= gamma:      # wrong side, or right side but within gamma
            w <- w + eta * y * x
            b <- b + eta * y       # (fit_intercept: b is the weight of an input 1)

    Prediction is ``sign(f(x))`` with ``sign(0) = -1``. ``gamma`` is in raw
    score units, so its effect depends on the scale of ``w``: as ``w`` grows
    the slab gets thinner in distance ``gamma / ||w||``. With ``gamma = 0``
    this is the textbook perceptron (update iff ``y f(x) <= 0``). In
    ``trace_``, an update of a misclassified example is a ``"mistake"`` and an
    update of a correctly classified one inside the slab a ``"margin"`` event.

    Multi-class targets are learned one-vs-rest.

    Parameters
    ----------
    gamma : float, default=1.0
        Half-width of the slab (>= 0).
    eta : float, default=1.0
        The learning rate (> 0).
    fit_intercept : bool, default=True
    epochs : int, default=100
        The most passes; training stops after a pass without an update.
    shuffle : bool, default=True
        Permute the training set once before training (``random_state``).
    random_state : None, int or numpy generator, default=None
    record : {"none", "updates", "all"}, default="none"
        What ``trace_`` keeps (the additive update sequence is always complete).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    coef_ : ndarray of shape (n_problems, n_features)
    intercept_ : ndarray of shape (n_problems,)
        ``b``; the trace's threshold is ``theta = -b``.
    n_iter_, n_updates_, n_mistakes_ : int
        Epochs run; updates; updates on misclassified examples.
    update_counts_ : ndarray of shape (n_problems, n_samples)
    trace_ : Trace, dict of Trace, or None

    References
    ----------
    F. Rosenblatt, "The perceptron: a probabilistic model for information
    storage and organization in the brain", Psychological Review 65 (1958).
    W. Krauth and M. Mézard, "Learning algorithms with optimal stability in
    neural networks", J. Phys. A 20 (1987) L745 (the margin idea; see also
    ``MarginPerceptron``, whose margin is relative to ``theta_init``).

    Examples
    --------
    >>> from sklearn.datasets import make_blobs
    >>> from perceptron_core import ThickSeparatorPerceptron
    >>> import numpy as np
    >>> X, y = make_blobs(n_samples=200, centers=[[-2, -1], [2, 1]], cluster_std=0.7,
    ...                   random_state=0)
    >>> thin = ThickSeparatorPerceptron(gamma=0.0, random_state=0).fit(X, y)
    >>> thick = ThickSeparatorPerceptron(gamma=20.0, random_state=0).fit(X, y)
    >>> thin.score(X, y), thick.score(X, y)
    (1.0, 1.0)
    >>> def margin(clf):  # distance from the boundary to the closest training point
    ...     return ((2 * y - 1) * clf.decision_function(X)).min() / np.linalg.norm(clf.coef_)
    >>> bool(margin(thick) > 2 * margin(thin))
    True
    """

    #: Settings in the features' units (a warning names them when the data are far off).
    _scale_settings = ("gamma",)

    _rule = __name__  # its step: perceptron_core.steps.thick_separator
    gamma: float = parameter(
        1.0, "the half-width of the slab that triggers updates", Number(low=0)
    )
    eta: float = parameter(1.0, "the learning rate", Number(low=0, open_low=True))

    def _settings(self, X):
        return Settings(xb=self._xb(), eta=self.eta, gamma=self.gamma)
