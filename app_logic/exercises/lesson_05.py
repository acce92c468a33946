"""Lesson 05's exercises."""

EXERCISES = ()
