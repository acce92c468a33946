"""Threshold-relative updating: a step sized by how far the score missed.

The perceptron's step ``eta * y * x`` has the same size whether an example
missed the threshold by a hair or by a mile. The threshold-relative rule of
the course notes sizes the step so that the example's score moves a fixed
fraction ``r`` of the way to the threshold and beyond::

    w <- w + r * (theta - <w, x>) / <x, x> * x

after which ``<w, x>`` has become ``theta + (r - 1) * (theta - old score)``:
with ``r = 1`` the example lands exactly on the threshold, with ``r = 2`` its
score is mirrored to the other side, and ``1 < r < 2`` puts it on the correct
side. Outside the papers this package reproduces, the same step is the
relaxation method of Agmon (1954) and Motzkin & Schoenberg (1954), which
Nilsson's *Learning Machines* calls fractional correction.

The step (:mod:`perceptron_core.steps.relative_update`) keeps the bias in its
state's numbers; the logged score is ``s - theta``. Its sums run left to right,
not vectorised: with ``r = 1`` an update parks the example exactly on the
threshold, so its next prediction is decided by the last bit of the score,
which must be the papers' (the tests' references'). Then the estimator,
:class:`RelativeUpdatePerceptron`.
"""

from __future__ import annotations

from perceptron_core._online import ZeroStartLinear
from perceptron_core._validation import Number, hyperparameters, parameter
from perceptron_core.steps import BIAS
from perceptron_core.steps.relative_update import Settings, step  # noqa: F401 (step: for its readers)


@hyperparameters
class RelativeUpdatePerceptron(ZeroStartLinear):
    """Threshold-relative (fractional-correction) updates: step proportional to the miss.

    The learner predicts positive iff ``<w, x> + b > theta`` for a fixed
    ``theta`` (``w = 0, b = 0`` at the start, so everything is negative at
    first). On a mistake::

        c = r * (theta - (<w, x> + b)) / (<x, x> + 1)
        w <- w + c * x
        b <- b + c            # (with fit_intercept; without it the "+ 1" and b go)

    The sign of ``theta - score`` carries the label: a missed positive has a
    score below ``theta`` and is pushed up, a missed negative is pushed down.
    After the step the example's score is ``theta + (r - 1)(theta - old
    score)``: ``r = 1`` parks it on the threshold (where it is still
    predicted negative, so a positive example stays a mistake), ``r = 2``
    mirrors it, ``1 < r < 2`` is the useful range. An example whose score is
    exactly ``theta`` gives a zero step (the rule's blind spot), and an
    all-zero row without intercept is skipped.

    On separable data the rule need not stop. The relaxation method it comes
    from solves closed inequalities (Agmon 1954 and Motzkin & Schoenberg 1954:
    each constraint is a closed half-space), so its step vanishes on a
    constraint's boundary; here a positive example scored exactly ``theta`` is
    still predicted negative. Once the other updates leave one there, it is a
    mistake with a zero step in every epoch, and training runs every epoch it
    is given. With boolean features (sums of zeros, ones and halves, computed
    exactly) that happens: on 40 examples of three such features labelled by
    the first, three seeded visiting orders of six end there, at 80 %
    training accuracy. With real-valued features it is rare.

    Because the bias is learned, ``theta`` only sets the scale of ``w``
    (the boundary ``<w, x> + b = theta`` is any hyperplane). Multi-class
    targets are learned one-vs-rest.

    Parameters
    ----------
    r : float, default=1.5
        The relaxation factor, in (0, 2].
    theta : float, default=1.0
        The threshold (> 0).
    fit_intercept, epochs, shuffle, random_state, record
        As in :class:`~perceptron_core.rules.thick_separator.ThickSeparatorPerceptron`.

    Attributes
    ----------
    intercept_ : ndarray of shape (n_problems,)
        ``b - theta`` (so ``decision_function`` is ``<w, x> + b - theta``).
    trace_ : Trace, dict of Trace, or None
        Scores in the events are ``<w, x> + b - theta``.
    classes_, coef_, n_iter_, n_updates_, n_mistakes_, update_counts_
        As in :class:`~perceptron_core.rules.thick_separator.ThickSeparatorPerceptron`.

    References
    ----------
    The course notes on on-line learning (the rule). Outside the papers this
    package reproduces: S. Agmon, "The relaxation method for linear
    inequalities", Canadian J. Math. 6 (1954) 382-392; T. S. Motzkin and
    I. J. Schoenberg, "The relaxation method for linear inequalities",
    Canadian J. Math. 6 (1954) 393-404.
    N. J. Nilsson, *Learning Machines*, McGraw-Hill (1965), ch. 4.

    Examples
    --------
    >>> from sklearn.datasets import make_blobs
    >>> from perceptron_core import RelativeUpdatePerceptron
    >>> X, y = make_blobs(n_samples=200, centers=[[-2, -1], [2, 1]], cluster_std=0.7,
    ...                   random_state=0)
    >>> clf = RelativeUpdatePerceptron(r=1.5, random_state=0).fit(X, y)
    >>> clf.score(X, y)
    1.0
    """

    #: Settings in the features' units (a warning names them when the data are far off).
    _scale_settings = ("theta",)

    _rule = __name__  # its step: perceptron_core.steps.relative_update
    r: float = parameter(1.5, "the relaxation factor", Number(low=0, high=2, open_low=True))
    theta: float = parameter(1.0, "the fixed threshold", Number(low=0, open_low=True))

    def _coef_intercept(self):
        return self._state.weights.copy(), self._state.numbers[:, BIAS] - float(self.theta)

    def _settings(self, X):
        return Settings(xb=self._xb(), r=self.r, theta=self.theta)
