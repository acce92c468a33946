"""Lesson 02's exercises."""

EXERCISES = ()
