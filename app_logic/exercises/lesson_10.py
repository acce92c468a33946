"""Lesson 10's exercises."""

EXERCISES = ()
