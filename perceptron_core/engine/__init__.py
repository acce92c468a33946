"""The compiled drivers: they own epochs, the visiting order, early stopping and the record.

* :mod:`~perceptron_core.engine.online` runs any rule of
  :mod:`perceptron_core.rules` (one example at a time, one weight vector per
  one-vs-rest problem);
* :mod:`~perceptron_core.engine.kw_trainer` runs Khardon and Wachman's rule
  (:mod:`perceptron_core.rules.kw`) on all one-vs-rest problems at once and
  counts every hypothesis's votes; :mod:`~perceptron_core.engine.record`
  turns its record into the last, longest-survivor, voted and averaged
  predictors;
* the few vector loops they share with the rules are in :mod:`perceptron_core.vectors`.

A rule never loops over epochs or examples itself: it says what one visit
does to the hypothesis, and the driver does the rest.
"""
