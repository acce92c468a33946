"""The compiled drivers: they own epochs, the visiting order, early stopping and the record.

* :mod:`~perceptron_core.engine.online` runs any rule of
  :mod:`perceptron_core.rules` (one example at a time, one weight vector per
  one-vs-rest problem);
* :mod:`~perceptron_core.engine.kw_trainer` runs Khardon and Wachman's rule
  (:mod:`perceptron_core.steps.kw`) on all one-vs-rest problems at once and
  counts every hypothesis's votes; :mod:`~perceptron_core.engine.record`
  turns its record into the last, longest-survivor, voted and averaged
  predictors;
* :mod:`~perceptron_core.engine.dual_trainer` runs the same rule in dual form, for kernels:
  one running score per example, one kernel column added per update, the columns from
  :mod:`~perceptron_core.engine.kernel_cache`; :mod:`~perceptron_core.engine.dual_record`
  turns its record into kernel-space predictors;
* the few vector loops they share with the rules are in :mod:`perceptron_core.vectors`.

A rule never loops over epochs or examples itself: it says what one visit
does to the hypothesis, and the driver does the rest.
"""
