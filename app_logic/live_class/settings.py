"""Where the live classes are stored, and how long a class lives: read from the environment.

* ``PERCEPTRON_LAB_CLASS_DB``: a ``postgresql://`` URL (several app processes then serve one
  class), or the path of a SQLite file; by default ``class.sqlite3`` in the lab's cache
  folder (``$XDG_CACHE_HOME/perceptron-lab``), so one process runs a class with nothing to
  set up.
* ``PERCEPTRON_LAB_CLASS_HOURS``: the hours after its start at which a class ends and its
  data are deleted (default :data:`DEFAULT_HOURS`, at most :data:`MOST_HOURS`).

A wrong value is refused in one line that names the variable and what it accepts
(``perceptron-lab app`` checks both before Streamlit starts).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from perceptron_core.experiments.defaults import default_cache_dir
from perceptron_lab.app_logic.memory import number_from_environment

#: A class ends this many hours after it started, unless the environment says otherwise.
DEFAULT_HOURS = 12.0
#: The longest a class may be kept: a week.
MOST_HOURS = 168
DB_VARIABLE = "PERCEPTRON_LAB_CLASS_DB"
HOURS_VARIABLE = "PERCEPTRON_LAB_CLASS_HOURS"


def default_database() -> Path:
    """``$XDG_CACHE_HOME/perceptron-lab/class.sqlite3`` (``~/.cache/...`` by default)."""
    return default_cache_dir().with_name("class.sqlite3")


def database_from_environment(environ: Mapping[str, str] = os.environ) -> str:
    """The class database: a ``postgresql://`` URL or a SQLite file's path.

    Examples
    --------
    >>> database_from_environment({"PERCEPTRON_LAB_CLASS_DB": "postgresql://lab@db/lab"})
    'postgresql://lab@db/lab'
    >>> database_from_environment({"PERCEPTRON_LAB_CLASS_DB": "/srv/lab/class.sqlite3"})
    '/srv/lab/class.sqlite3'
    >>> database_from_environment({"PERCEPTRON_LAB_CLASS_DB": "mysql://x"})
    Traceback (most recent call last):
    ...
    ValueError: PERCEPTRON_LAB_CLASS_DB='mysql://x' is not accepted: give a postgresql:// URL ...
    """
    text = environ.get(DB_VARIABLE, "").strip()
    if not text:
        return str(default_database())
    if text.startswith(("postgresql://", "postgres://")):
        return text
    if "://" in text or "\x00" in text:
        raise ValueError(
            f"{DB_VARIABLE}={text[:60]!r} is not accepted: give a postgresql:// URL or the "
            "path of a SQLite file."
        )
    return text


def hours_from_environment(environ: Mapping[str, str] = os.environ) -> float:
    """The hours a class lives.

    Examples
    --------
    >>> hours_from_environment({})
    12.0
    >>> hours_from_environment({"PERCEPTRON_LAB_CLASS_HOURS": "2.5"})
    2.5
    >>> hours_from_environment({"PERCEPTRON_LAB_CLASS_HOURS": "0"})
    Traceback (most recent call last):
    ...
    ValueError: PERCEPTRON_LAB_CLASS_HOURS='0' is not accepted: give a number from above 0 ...
    """
    return number_from_environment(environ, HOURS_VARIABLE, DEFAULT_HOURS, MOST_HOURS)
