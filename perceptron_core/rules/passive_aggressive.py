"""Passive-Aggressive learning: the smallest change that fixes the margin.

On each example the Passive-Aggressive rules ask for a margin of 1,
``y <w, x> >= 1``. If it is met they stay *passive*; if not, they move
*aggressively*: to the weight vector closest to the current one that meets
it (PA), or a step capped by ``C`` (PA-I) or damped by ``1/(2C)`` (PA-II),
which keeps a single noisy example from dragging the hypothesis too far.
The step size comes from the hinge loss, so no learning rate is tuned.

The step (:mod:`perceptron_core.steps.passive_aggressive`) reads the variant as
0, 1, 2 for PA, PA-I, PA-II and keeps the bias in its state's numbers. Its sums run left to right
(:func:`~perceptron_core.vectors.dot`), not vectorised: an update puts the
example at margin exactly 1 in exact arithmetic, so whether it updates again on
its next visit is decided by the last bit of the score, which must be the
papers' (the tests' references'). Then the estimator,
:class:`PassiveAggressive`.
"""

from __future__ import annotations

from typing import ClassVar

from perceptron_core._online import ZeroStartLinear
from perceptron_core._validation import Number, OneOf, hyperparameters, parameter
from perceptron_core.steps.passive_aggressive import Settings, step  # noqa: F401 (step: for its readers)

_VARIANTS = {"PA": 0, "PA-I": 1, "PA-II": 2}


@hyperparameters
class PassiveAggressive(ZeroStartLinear):
    """Crammer et al.'s Passive-Aggressive classifiers PA, PA-I and PA-II.

    ``f(x) = <w, x> + b`` starts at 0. For each example, with the hinge loss
    ``l = max(0, 1 - y f(x))`` and ``q = ||x||^2`` (plus 1 for the bias input
    when ``fit_intercept``)::

        if l > 0:
            tau = l / q                      # PA:    the smallest fixing step
            tau = min(C, l / q)              # PA-I:  capped step
            tau = l / (q + 1 / (2 C))        # PA-II: damped step
            w <- w + tau * y * x
            b <- b + tau * y

    PA moves to the closest weight vector with margin 1 on the example: on
    separable data it converges, but one mislabelled example can pull it
    far. PA-I and PA-II trade that for robustness to noise, ``C`` setting
    how aggressive they are (large ``C``: close to PA). Prediction is
    ``sign(f(x))`` with ``sign(0) = -1``. In ``trace_``, an update of a
    misclassified example is a ``"mistake"``, of a correctly classified one
    with margin below 1 a ``"margin"`` event. Examples with ``q = 0`` (all
    zero, without intercept) are skipped. Multi-class targets are learned
    one-vs-rest (Crammer et al. also give a direct multi-class form, not
    implemented here).

    Parameters
    ----------
    variant : {"PA", "PA-I", "PA-II"}, default="PA-I"
    C : float, default=1.0
        Aggressiveness of PA-I and PA-II (> 0); ignored by PA.
    fit_intercept, epochs, shuffle, random_state, record
        As in :class:`~perceptron_core.rules.thick_separator.ThickSeparatorPerceptron`.

    Attributes
    ----------
    classes_, coef_, intercept_, n_iter_, n_updates_, n_mistakes_, update_counts_, trace_
        As in :class:`~perceptron_core.rules.thick_separator.ThickSeparatorPerceptron`.

    References
    ----------
    K. Crammer, O. Dekel, J. Keshet, S. Shalev-Shwartz and Y. Singer,
    "Online passive-aggressive algorithms", Journal of Machine Learning
    Research 7 (2006) 551-585.

    Examples
    --------
    >>> from sklearn.datasets import make_blobs
    >>> from perceptron_core import PassiveAggressive
    >>> X, y = make_blobs(n_samples=200, centers=[[-2, -1], [2, 1]], cluster_std=0.7,
    ...                   random_state=0)
    >>> for variant in ("PA", "PA-I", "PA-II"):
    ...     clf = PassiveAggressive(variant=variant, C=0.1, random_state=0).fit(X, y)
    ...     print(variant, clf.score(X, y))
    PA 1.0
    PA-I 1.0
    PA-II 1.0
    """

    #: The configurations the scikit-learn conformance checks build
    #: (tests/test_sklearn_conformance.py).
    _check_params: ClassVar[tuple[dict, ...]] = (
        {"variant": "PA"},
        {"variant": "PA-I"},
        {"variant": "PA-II", "fit_intercept": False},
    )

    #: Settings in the features' units (a warning names them when the data are far off).
    _scale_settings = ("C",)

    _rule = __name__  # its step: perceptron_core.steps.passive_aggressive
    variant: str = parameter("PA-I", "which step-size rule to use", OneOf(tuple(_VARIANTS)))
    C: float = parameter(1.0, "the aggressiveness of PA-I and PA-II", Number(low=0, open_low=True))

    def _settings(self, X):
        return Settings(xb=self._xb(), variant=_VARIANTS[self.variant], C=self.C)
