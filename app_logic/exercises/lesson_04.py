"""Lesson 04's exercises."""

EXERCISES = ()
