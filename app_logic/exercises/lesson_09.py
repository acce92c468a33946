"""Lesson 09's exercises."""

EXERCISES = ()
