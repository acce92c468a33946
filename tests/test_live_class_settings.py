"""The live class's settings from the environment: where the classes are stored and how long
a class lives (that ``perceptron-lab app`` stops on a wrong one with one line is in
tests/test_hostile_cli_edges.py)."""

from __future__ import annotations

import pytest

from perceptron_lab.app_logic.live_class.settings import (
    DEFAULT_HOURS,
    database_from_environment,
    default_database,
    hours_from_environment,
)


@pytest.mark.parametrize("text", ["inf", "nan", "-1", "0", "169", "a day"])
def test_hours_that_are_not_a_sensible_number_are_named_with_what_is_accepted(text):
    with pytest.raises(ValueError) as refused:
        hours_from_environment({"PERCEPTRON_LAB_CLASS_HOURS": text})
    message = str(refused.value)
    assert f"PERCEPTRON_LAB_CLASS_HOURS={text!r}" in message and "\n" not in message


def test_the_defaults_are_twelve_hours_and_a_file_in_the_labs_cache_folder(tmp_path, monkeypatch):
    assert hours_from_environment({}) == DEFAULT_HOURS == 12
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert default_database() == tmp_path / "perceptron-lab" / "class.sqlite3"
    assert database_from_environment({}) == str(default_database())


@pytest.mark.parametrize("text", ["mysql://host/db", "sqlite:///x.db", "a\x00b"])
def test_a_database_that_is_neither_postgresql_nor_a_file_is_refused(text):
    with pytest.raises(ValueError, match="PERCEPTRON_LAB_CLASS_DB"):
        database_from_environment({"PERCEPTRON_LAB_CLASS_DB": text})
