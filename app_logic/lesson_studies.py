"""The lessons' studies, prepared ahead: computed once, kept on disk, read by every visitor.

Several lessons rest on a study that takes seconds: lesson 9's first figure
trains both learners on 21 data sets, lesson 11's trains hundreds of folds,
and the research boxes of lessons 2, 4-8 and 10 cross-validate grids. Others
take a second or less but would be paid on every rerun of their page (every
click): lesson 9's second setting and lesson 10's boosting rounds. With the
settings a lesson's widgets start with (its :attr:`Study.defaults`), a study
is the same for every visitor, so it is computed once:

* ``perceptron-lab warm`` calls :func:`prepare_lessons` after the learners:
  every study with its defaults is computed, which also compiles into
  numba's on-disk cache every function the lessons call that the menu's
  learners do not, and stored on disk;
* the server's background warm-up (:mod:`app_logic.training`) calls
  :func:`prepare_in_background` after the learners: it computes what is
  not on disk yet in a child process at the lowest priority, then reads
  every result into this process's memory;
* a lesson asks for :func:`result` (through ``ui/studies.py``): from memory
  (this process's copies are kept in the server's memory budget,
  :data:`app_logic.memory.SERVER`, which may drop them),
  else from disk, else computed there and then with a progress bar; a
  second session asking meanwhile waits for that computation and shows its
  progress instead of computing it again.

Results are kept with the experiments' cache
(:class:`perceptron_core.experiments.cache.DiskCache`) in
:func:`cache_folder`, under a key of the study's name, its settings, the
package's version and a digest of the code that computes it (every source
file of ``perceptron_core`` and ``app_logic``, and the versions of the
libraries it uses): any change computes it again. When the folder cannot
be written, results are computed and kept in memory only.
This module does not import Streamlit.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib.metadata
import logging
import os
import subprocess
import threading
import time
import warnings
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

import perceptron_core
from perceptron_core.experiments.cache import CacheWarning, DiskCache, cell_key, default_cache_dir
from perceptron_lab.app_logic import (
    studies_basics,
    studies_honest,
    studies_multiclass,
    studies_variants,
    studies_winnow,
)
from perceptron_lab.app_logic.memory import SERVER
from perceptron_lab.app_logic.progress import Progress, quietly
from perceptron_lab.app_logic.warmup import in_child_process

log = logging.getLogger("perceptron_lab")

#: The size cap of the results' folder: the default studies take tens of kilobytes, a
#: visitor's other settings as much again each.
MAX_BYTES = 64 * 2**20
#: The libraries whose versions can change a study's numbers.
LIBRARIES = ("numpy", "numba", "pandas", "scikit-learn")


@dataclass(frozen=True)
class Study:
    """A lesson's study: what computes it, and the settings the lesson opens with.

    Attributes
    ----------
    name : str
        ``"l09_mistakes"``: the lesson's prefix, then what it is.
    compute : callable
        ``compute(**settings, progress=...)`` returns a DataFrame or a dict of
        arrays and numbers (:mod:`app_logic.progress` for ``progress``).
    defaults : dict
        The settings the lesson's widgets start with (for a study shown only
        after a pick, such as lesson 9's second setting, the settings it then
        opens with); :func:`prepare_lessons` computes these.
    what : str
        What it computes, for the progress bar.
    """

    name: str
    compute: Callable
    defaults: dict = field(default_factory=dict)
    what: str = ""


#: Every lesson's studies, in lesson order (the order in which they are prepared). The
#: defaults are the lesson's widgets' defaults (tests/lessons/test_lesson_studies.py holds them
#: to it).
STUDIES = {
    study.name: study
    for study in (
        Study(
            "l02_sweep",
            studies_basics.sweep,
            {"seed": 0},
            "Training the perceptron on every gap until it converges",
        ),
        Study(
            "l04_predictors",
            studies_basics.kw_cross_validated,
            {"noise_levels": studies_basics.PREDICTOR_NOISE, "taus": (0.0,), "seed": 4},
            "Cross-validating the four predictors",
        ),
        Study(
            "l05_margins",
            studies_basics.kw_cross_validated,
            {
                "noise_levels": studies_basics.MARGIN_NOISE,
                "taus": studies_basics.MARGIN_TAUS,
                "seed": 0,
            },
            "Cross-validating the margins",
        ),
        Study(
            "l06_paum",
            studies_variants.paum_table,
            {"seed": 0, "rate": 1 / 21},
            "Cross-validating PAUM's margins",
        ),
        Study(
            "l07_switches",
            studies_variants.switch_table,
            {"seed": 1},
            "Cross-validating KW's switches",
        ),
        Study(
            "l08_digits",
            studies_variants.digits_table,
            {"seed": 0},
            "Training kernels of every degree on the digits",
        ),
        Study(
            "l09_mistakes",
            studies_winnow.mistakes_vs_n,
            {"k": 3, "m": 2000, "seed": 0},
            "Running both learners for every n",
        ),
        Study(
            "l09_perceptron_side",
            studies_winnow.perceptron_side,
            {"m": 2000, "seed": 0},
            "Running both learners for every n with k = n/2",
        ),
        Study(
            "l09_weights",
            studies_winnow.final_weights,
            {"n": 256, "k": 3, "m": 2000, "seed": 0},
            "Running both learners",
        ),
        Study(
            "l10_boosting",
            studies_variants.boosting_rounds,
            {"H": 3, "noise": 0.1, "seed": 0},
            "Boosting the figure's committees",
        ),
        Study("l10_nr", studies_variants.nr_table, {"seed": 0}, "Cross-validating the committees"),
        Study(
            "l11_estimates",
            studies_honest.estimates,
            {"test_share": 0.2, "k": 10, "seed": 0},
            "Training every split and fold",
        ),
        Study(
            "l12_compare",
            studies_multiclass.compare_table,
            {"seed": 0},
            "Cross-validating one against the rest and the multiclass perceptron",
        ),
    )
}


def cache_folder() -> Path:
    """``$XDG_CACHE_HOME/perceptron-lab/lesson-studies`` (``~/.cache/...`` by default).

    Beside the experiments' folders (:func:`perceptron_core.experiments.cache.default_cache_dir`),
    with a cap of its own, so that neither evicts the other's results.
    """
    return default_cache_dir().with_name("lesson-studies")


@functools.cache
def code_digest() -> str:
    """SHA-256 of the code behind every study: the package's version, the source files
    of ``perceptron_core`` and ``app_logic``, and the libraries' versions.

    Computed once per process, as numba checks its cache (a server runs the code it loaded).
    """
    digest = hashlib.sha256(perceptron_core.__version__.encode())
    for package in (Path(perceptron_core.__file__).parent, Path(__file__).parent):
        for path in sorted(package.rglob("*.py")):
            digest.update(path.relative_to(package.parent).as_posix().encode())
            digest.update(path.read_bytes())
    for name in LIBRARIES:
        with contextlib.suppress(importlib.metadata.PackageNotFoundError):
            digest.update(f"{name}=={importlib.metadata.version(name)}".encode())
    return digest.hexdigest()


def study_key(name: str, settings: dict) -> str:
    """The key of a study's result: its name, its settings and :func:`code_digest`.

    Examples
    --------
    >>> study_key("l02_sweep", {"seed": 0}) == study_key("l02_sweep", {"seed": 0})
    True
    >>> study_key("l02_sweep", {"seed": 0}) == study_key("l02_sweep", {"seed": 1})
    False
    """
    return cell_key({"lesson study": name, "settings": settings, "code": code_digest()})


# -- results as arrays (what the disk cache stores) ----------------------------------

_COLUMNS = "__columns__"  # the entry of a stored table that lists its columns


def encode(value) -> dict[str, np.ndarray]:
    """A study's result as named arrays: a table column by column, a dict entry by entry.

    Examples
    --------
    >>> arrays = encode(pd.DataFrame({"n": [1, 2], "name": ["a", "b"]}))
    >>> decode(arrays).equals(pd.DataFrame({"n": [1, 2], "name": ["a", "b"]}))
    True
    >>> decode(encode({"x": [0.5, 1.0], "best": 0.25}))
    {'x': array([0.5, 1. ]), 'best': 0.25}
    """
    if isinstance(value, pd.DataFrame):
        arrays = {_COLUMNS: np.array([str(name) for name in value.columns])}
        for i, name in enumerate(value.columns):
            column = value[name].to_numpy()
            arrays[f"c{i}"] = column.astype(str) if column.dtype == object else column
        return arrays
    return {name: np.asarray(item) for name, item in value.items()}


def decode(arrays: dict[str, np.ndarray]):
    """The result :func:`encode` was given, as new objects (a caller may change its copy)."""
    if _COLUMNS in arrays:
        return pd.DataFrame(
            {
                str(name): arrays[f"c{i}"].astype(object)
                if arrays[f"c{i}"].dtype.kind == "U"
                else arrays[f"c{i}"].copy()
                for i, name in enumerate(arrays[_COLUMNS])
            }
        )
    return {name: a.item() if a.ndim == 0 else a.copy() for name, a in arrays.items()}


# -- this process's results ----------------------------------------------------------


class _Computing:
    """A study being computed by one thread; others wait for it and follow its progress."""

    def __init__(self):
        self.share, self.text = 0.0, "starting"
        self.done = threading.Event()
        self.arrays: dict | None = None

    def report(self, share: float, text: str) -> None:
        self.share, self.text = share, text


_lock = threading.Lock()  # guards _computing
_computing: dict[str, _Computing] = {}


def _remember(key: str, arrays: dict) -> None:
    SERVER.keep("studies", key, arrays)


def _recalled(key: str) -> dict | None:
    return SERVER.peek("studies", key)


def forget() -> None:
    """Drop this process's results (the disk keeps its own): for tests, and to free memory."""
    SERVER.forget("studies")


def settings_of(name: str, settings: dict | None = None) -> dict:
    """The study's defaults with ``settings`` put over them (unknown names are refused)."""
    study = STUDIES[name]
    unknown = set(settings or {}) - set(study.defaults)
    if unknown:
        raise TypeError(f"The study {name} has no setting {', '.join(sorted(unknown))}.")
    return {**study.defaults, **(settings or {})}


def stored(name: str, settings: dict | None = None, folder=None):
    """The study's result if this process or the disk has it, else None (nothing computed)."""
    key = study_key(name, settings_of(name, settings))
    arrays = _recalled(key)
    if arrays is None:
        arrays = _read(folder, key)
        if arrays is not None:
            _remember(key, arrays)
    return None if arrays is None else decode(arrays)


def result(name: str, settings: dict | None = None, progress: Progress = quietly, folder=None):
    """The study's result: from this process's memory, else the disk, else computed and kept.

    Parameters
    ----------
    name : str
        A key of :data:`STUDIES`.
    settings : dict, optional
        Settings that differ from the study's defaults.
    progress : callable
        ``progress(share, text)`` while it is computed, here or by another thread.
    folder : path, optional
        The results' folder (default :func:`cache_folder`).
    """
    return decode(_fetch(name, settings_of(name, settings), progress, folder)[0])


def _read(folder, key: str) -> dict | None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CacheWarning)  # a bad file is removed and recomputed
        return DiskCache(folder or cache_folder(), MAX_BYTES).get(key)


def _write(folder, key: str, arrays: dict) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", CacheWarning)
        DiskCache(folder or cache_folder(), MAX_BYTES).put(key, arrays)
    for warning in caught:  # not writable: this process keeps it in memory all the same
        log.warning("%s", warning.message)


def _fetch(name: str, settings: dict, progress: Progress, folder) -> tuple[dict, str]:
    """``(arrays, where they came from)``: "memory", "disk", "computed" or "waited"."""
    key = study_key(name, settings)
    while True:
        arrays = _recalled(key)
        if arrays is not None:
            return arrays, "memory"
        with _lock:
            other = _computing.get(key)
            if other is None:
                mine = _computing[key] = _Computing()
        if other is None:
            break
        while not other.done.wait(0.2):  # another session computes it: show its progress
            progress(other.share, other.text)
        if other.arrays is not None:
            return other.arrays, "waited"
        # it failed there: try here (and show this session the error if it fails again)
    try:
        arrays, source = _read(folder, key), "disk"
        if arrays is None:

            def report(share: float, text: str) -> None:
                mine.report(share, text)
                progress(share, text)

            arrays = encode(STUDIES[name].compute(**settings, progress=report))
            source = "computed"
            _write(folder, key, arrays)
        _remember(key, arrays)
        mine.arrays = arrays
        return arrays, source
    finally:
        with _lock:
            del _computing[key]
        mine.done.set()


# -- preparing every lesson ----------------------------------------------------------


@dataclass(frozen=True)
class Prepared:
    """How one study with its defaults was made ready.

    Attributes
    ----------
    name : str
    seconds : float
        Wall time to compute it, or to read it.
    source : str
        "computed", "disk", "memory" or "waited" (for another thread's computation).
    error : str or None
        ``"ExceptionName: message"`` when it failed.
    """

    name: str
    seconds: float
    source: str
    error: str | None = None


def prepare_lessons(folder=None, names: Iterable[str] | None = None) -> Iterator[Prepared]:
    """Make every study with its lesson's defaults ready: compute it or read it, in lesson order.

    A generator: it yields each study's :class:`Prepared` as soon as that one is
    ready (``perceptron-lab warm`` prints them as they come). A study that fails
    is logged and reported, and the others go on.

    Parameters
    ----------
    folder : path, optional
        The results' folder (default :func:`cache_folder`).
    names : iterable of str, optional
        Only these studies (default: all of :data:`STUDIES`).

    Examples
    --------
    >>> import tempfile
    >>> folder = tempfile.mkdtemp()
    >>> forget()  # as in a new process
    >>> [(p.name, p.source) for p in prepare_lessons(folder, ["l09_weights"])]
    [('l09_weights', 'computed')]
    >>> [p.source for p in prepare_lessons(folder, ["l09_weights"])]
    ['memory']
    """
    for name in list(STUDIES) if names is None else names:
        start = time.perf_counter()
        try:
            settings = dict(STUDIES[name].defaults)
            arrays, source = _fetch(name, settings, quietly, folder)
            key = study_key(name, settings)
            if source in ("memory", "waited") and _read(folder, key) is None:
                _write(folder, key, arrays)  # on disk too, for the next process
            error = None
        except Exception as err:
            log.exception("Preparing the lesson study %s failed", name)
            source, error = "failed", f"{type(err).__name__}: {err}"
        yield Prepared(name, time.perf_counter() - start, source, error)


def missing(folder=None) -> list[str]:
    """The studies whose defaults' result is neither in this process nor on disk."""
    return [name for name in STUDIES if stored(name, folder=folder) is None]


def prepare_all() -> None:
    """:func:`prepare_lessons`, every study; raises when one failed (what
    :func:`prepare_in_child` runs)."""
    failed = [prepared.name for prepared in prepare_lessons() if prepared.error]
    if failed:
        raise RuntimeError(f"the lesson studies {', '.join(failed)} failed")


def prepare_in_child() -> None:
    """Compute the missing studies into the disk cache (and numba's) in a child process at the
    lowest priority (:func:`app_logic.warmup.in_child_process`)."""
    in_child_process("perceptron_lab.app_logic.lesson_studies", "prepare_all")


def _writable(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    return os.access(folder, os.W_OK)


def prepare_in_background() -> None:
    """The server's part, after its learners: every study into this process's memory.

    What the disk lacks (no ``perceptron-lab warm`` since the code changed) is
    computed first by :func:`prepare_in_child` when the disk can keep it; then
    every result is read here, and what is still missing is computed here.
    """
    if missing() and _writable(cache_folder()):
        try:
            prepare_in_child()
        except subprocess.CalledProcessError as err:
            if err.returncode < 0:  # ended by a signal (the warm-up's stop): this process ends too
                log.info("Preparing the lessons stopped: %s", err)
                return
            log.exception("Preparing the lessons in another process failed; preparing here")
        except OSError:
            log.exception("Preparing the lessons in another process failed; preparing here")
    for prepared in prepare_lessons():
        log.info("Lesson study %s: %s in %.2f s", prepared.name, prepared.source, prepared.seconds)
