"""The rules' steps, one file per rule, named as the rule's file in :mod:`perceptron_core.rules`.

A step imports nothing of the estimators, so the driver
(:mod:`perceptron_core.engine.online`) compiles them in without importing any
estimator: the imports point one way, estimators to the driver to the steps.
"""
