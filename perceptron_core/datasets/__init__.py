"""Every data set Perceptron Lab teaches and experiments with: offline, seeded, validated.

Generators (each returns ``GeneratedData(X, y, flipped, target)``, labels in
{-1, +1}, the mask of labels flipped by label noise, and the true boundary):

* :func:`make_kw` — Khardon & Wachman's artificial data ``(f, M, N)``,
  streamed in blocks so it scales to 10^6 examples (``dtype="int8"``).
* :func:`make_twonorm`, :func:`make_threenorm`, :func:`make_ringnorm` —
  Breiman's 20-D Gaussian problems (the NR paper's benchmarks).
* 2-D teaching sets: :func:`make_separable`, :func:`make_gaussians`,
  :func:`make_imbalanced`, :func:`make_xor`, :func:`make_circles`,
  :func:`make_moons`.

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

from typing import TYPE_CHECKING

from perceptron_core._lazy import attach

if TYPE_CHECKING:  # what type checkers and IDEs see; at run time __getattr__ imports on use
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

#: The submodule of each public name. They are imported on first use, so the registry's
#: table (:func:`list_datasets`, read by ``perceptron-lab generate --help``) loads without
#: NumPy and scikit-learn.
_EXPORTS = {
    "DataError": "_common",
    "FunctionTarget": "_common",
    "GeneratedData": "_common",
    "LinearTarget": "_common",
    "Target": "_common",
    "make_ringnorm": "breiman",
    "make_threenorm": "breiman",
    "make_twonorm": "breiman",
    "CSVData": "csvfile",
    "CSVLimits": "csvfile",
    "load_csv": "csvfile",
    "load_fashion_mnist": "idx",
    "parse_idx": "idx",
    "read_idx": "idx",
    "KWTarget": "kw",
    "kw_target": "kw",
    "make_kw": "kw",
    "add_feature_noise": "noise",
    "add_outliers": "noise",
    "flip_labels": "noise",
    "flip_labels_exact": "noise",
    "flip_near_boundary": "noise",
    "DatasetInfo": "registry",
    "DatasetSpec": "registry",
    "Option": "registry",
    "get_spec": "registry",
    "list_datasets": "registry",
    "load": "registry",
    "make_circles": "teaching",
    "make_gaussians": "teaching",
    "make_imbalanced": "teaching",
    "make_moons": "teaching",
    "make_separable": "teaching",
    "make_xor": "teaching",
}

__all__ = [
    "CSVData",
    "CSVLimits",
    "DataError",
    "DatasetInfo",
    "DatasetSpec",
    "FunctionTarget",
    "GeneratedData",
    "KWTarget",
    "LinearTarget",
    "Option",
    "Target",
    "add_feature_noise",
    "add_outliers",
    "flip_labels",
    "flip_labels_exact",
    "flip_near_boundary",
    "get_spec",
    "kw_target",
    "list_datasets",
    "load",
    "load_csv",
    "load_fashion_mnist",
    "make_circles",
    "make_gaussians",
    "make_imbalanced",
    "make_kw",
    "make_moons",
    "make_ringnorm",
    "make_separable",
    "make_threenorm",
    "make_twonorm",
    "make_xor",
    "parse_idx",
    "read_idx",
]


__getattr__, __dir__ = attach(__name__, _EXPORTS)
