"""Lesson 07's exercises."""

EXERCISES = ()
