"""Where the files that ship beside the core are: the app and the real data sets.

A checkout keeps ``app.py``, ``app_pages/``, ``ui/``, ``lessons/``, ``data/``
and ``.streamlit/`` beside ``perceptron_core/``. The wheel installs the same
files together as ``site-packages/perceptron_lab/`` (``pyproject.toml`` maps
that package onto the repository root), again beside ``perceptron_core/``.
:func:`app_folder` finds that folder in either layout by looking next to this
package, so the core never imports the app to find it: the dependency arrow
keeps pointing from the app to the core.
"""

from __future__ import annotations

from pathlib import Path

#: The installed package that holds the app's files (the repository root in a checkout).
APP_PACKAGE = "perceptron_lab"


def app_folder() -> Path | None:
    """The folder with the app's ``app.py`` (and ``data/``), or None when it is not there.

    An installed wheel is looked at first (``perceptron_lab/`` next to the
    installed core), then the checkout the core sits in; the app that is
    found always belongs to the same install as the running core.

    Examples
    --------
    >>> from perceptron_core.shipped import app_folder
    >>> sorted(p.name for p in (app_folder() / "data").glob("sonar*"))
    ['sonar.npz']
    """
    beside = Path(__file__).resolve().parents[1]
    for folder in (beside / APP_PACKAGE, beside):
        if (folder / "app.py").is_file():
            return folder
    return None
