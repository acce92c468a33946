"""Lesson 03's exercises."""

EXERCISES = ()
