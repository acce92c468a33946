"""Lesson 06's exercises."""

EXERCISES = ()
