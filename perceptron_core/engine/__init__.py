"""The compiled drivers: they own epochs, the visiting order, early stopping and the record.

* :mod:`~perceptron_core.engine.online` runs any rule of
  :mod:`perceptron_core.rules` (one example at a time, one weight vector per
  one-vs-rest problem);
* :mod:`~perceptron_core.engine.vectors` holds the few vector loops they share.

A rule never loops over epochs or examples itself: it says what one visit
does to the hypothesis, and the driver does the rest.
"""
