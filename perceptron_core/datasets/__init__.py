"""Every data set Perceptron Lab teaches and experiments with: offline, seeded, validated.

Generators (each returns ``GeneratedData(X, y, flipped, target)``, labels in
{-1, +1}, the mask of labels flipped by label noise, and the true boundary):

* :func:`make_kw` — Khardon & Wachman's artificial data ``(f, M, N)``,
  streamed in blocks so it scales to 10^6 examples (``dtype="int8"``).
* :func:`make_twonorm`, :func:`make_threenorm`, :func:`make_ringnorm` —
  Breiman's 20-D Gaussian problems (the NR paper's benchmarks).
* 2-D teaching sets: :func:`make_separable`, :func:`make_gaussians`,
  :func:`make_imbalanced`, :func:`make_xor`, :func:`make_circles`,
  :func:`make_moons`; :func:`make_three_classes`, three classes for the multiclass
  perceptron (labels 0, 1, 2).

Noise injection on any data, each returning the corruption mask:
:func:`flip_labels`, :func:`flip_labels_exact` (the NR protocol's exact
count), :func:`flip_near_boundary`, :func:`add_feature_noise`,
:func:`add_outliers`.

Real data and files: :func:`load` / :func:`list_datasets` (one registry for
generated, shipped, scikit-learn and Fashion-MNIST data), :func:`load_csv`
(user uploads), :func:`read_idx` / :func:`load_fashion_mnist` (MNIST format).

Every problem with the input raises :class:`DataError` (a ``ValueError``)
with a message meant for a person.
"""

# ruff: noqa: F401 (the TYPE_CHECKING imports below are the package's public names)
from typing import TYPE_CHECKING

from perceptron_core._lazy import attach

# The public names, listed once: type checkers and IDEs read these imports, and at run time
# attach() reads them from this file and imports each on first use, so the registry's table
# (list_datasets, read by ``perceptron-lab generate --help``) loads without NumPy and
# scikit-learn.
if TYPE_CHECKING:
    from ._common import DataError, FunctionTarget, GeneratedData, LinearTarget, Target
    from .breiman import make_ringnorm, make_threenorm, make_twonorm
    from .csvfile import CSVData, CSVLimits, load_csv
    from .idx import load_fashion_mnist, parse_idx, read_idx
    from .kw import KWTarget, kw_target, make_kw
    from .noise import (
        add_feature_noise,
        add_outliers,
        flip_labels,
        flip_labels_exact,
        flip_near_boundary,
    )
    from .registry import DatasetInfo, DatasetSpec, Option, get_spec, list_datasets, load
    from .teaching import (
        make_circles,
        make_gaussians,
        make_imbalanced,
        make_moons,
        make_separable,
        make_xor,
    )
    from .three_classes import LinearMachine, make_three_classes

__getattr__, __dir__, __all__ = attach(__name__)
