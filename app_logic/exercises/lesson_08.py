"""Lesson 08's exercises."""

EXERCISES = ()
