"""Lesson 11's exercises."""

EXERCISES = ()
