"""The registry: every set loads as documented; shipped files match their manifest."""

import hashlib
import importlib
import inspect
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from perceptron_core.datasets import (
    DataError,
    DatasetInfo,
    get_spec,
    list_datasets,
    load,
    make_kw,
)
from perceptron_core.datasets.idx import fashion_mnist_folder

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data"
MANIFEST = json.loads((DATA / "MANIFEST.json").read_text())

REAL = [s for s in list_datasets() if s.kind in ("shipped", "scikit-learn")]


def test_registry_lists_every_kind_and_the_required_sets():
    names = {s.name for s in list_datasets()}
    required = {
        "kw",
        "twonorm",
        "threenorm",
        "ringnorm",
        "separable",
        "gaussians",
        "xor",
        "circles",
        "moons",
        "imbalanced",
        "breast_cancer",
        "digits",
        "sonar",
        "ionosphere",
        "breast_cancer_original",
        "pima",
        "house_votes",
        "promoters",
        "spam",
        "ticdata",
        "fashion_mnist",
    }
    assert required <= names
    assert {s.kind for s in list_datasets()} == {
        "generator",
        "shipped",
        "scikit-learn",
        "external",
    }
    assert all(s.kind == "shipped" for s in list_datasets("shipped"))
    with pytest.raises(DataError, match="kind"):
        list_datasets("everything")


@pytest.mark.parametrize("spec", REAL, ids=lambda s: s.name)
def test_every_real_set_loads_with_its_documented_shape_and_balance(spec):
    assert spec.available
    X, y, info = load(spec.name)
    assert isinstance(info, DatasetInfo)
    assert X.shape == spec.shape == info.shape
    assert X.dtype == np.float64 and np.isfinite(X).all()
    assert info.class_names == spec.class_names
    assert info.class_counts == spec.class_counts
    assert len(info.feature_names) == X.shape[1]
    assert len(set(info.feature_names)) == X.shape[1]
    assert info.majority_rate == pytest.approx(max(spec.class_counts) / X.shape[0])
    assert sum(info.balance.values()) == pytest.approx(1.0)
    if len(spec.class_names) == 2:
        assert set(np.unique(y)) == {-1, 1} and info.labels == (-1, 1)
        assert (y == 1).sum() == spec.class_counts[1]
    else:
        np.testing.assert_array_equal(np.unique(y), np.arange(len(spec.class_names)))
    assert info.source and info.licence and info.description
    assert spec.name in str(info) or info.title in str(info)


@pytest.mark.parametrize("fname", sorted(MANIFEST["files"]))
def test_shipped_files_match_the_manifest_and_the_registry(fname):
    entry = MANIFEST["files"][fname]
    blob = (DATA / fname).read_bytes()
    assert hashlib.sha256(blob).hexdigest() == entry["sha256"]
    assert len(blob) < 250_000  # keep the shipped files small
    spec = get_spec(entry["dataset"])
    assert spec.file == fname and spec.kind == "shipped"
    assert entry["source_package"] in spec.source
    with np.load(DATA / fname, allow_pickle=False) as npz:
        assert list(npz["X"].shape) == entry["shape"]
        assert np.bincount(npz["y"]).tolist() == entry["class_counts"]
        assert [str(c) for c in npz["class_names"]] == list(spec.class_names)
    if entry["missing_values"] == 0:
        assert tuple(entry["shape"]) == spec.shape
        assert tuple(entry["class_counts"]) == spec.class_counts


def test_every_shipped_set_is_in_the_manifest_and_documented_in_the_readme():
    readme = (DATA / "README.md").read_text()
    for spec in list_datasets("shipped"):
        assert spec.file in MANIFEST["files"]
        assert f"`{spec.name}`" in readme
        entry = MANIFEST["files"][spec.file]
        assert entry["source_package_version"] in readme
    total = sum(e["bytes"] for e in MANIFEST["files"].values())
    assert total < 1_000_000


def test_runtime_loading_needs_neither_pandas_nor_rdata():
    """The shipped data sets load without either (rdata only rebuilds them); load_csv
    imports pandas when it reads a file, so importing it does not need pandas either."""
    code = (
        "import sys; sys.modules['pandas'] = None; sys.modules['rdata'] = None\n"
        "from perceptron_core.datasets import load, load_csv\n"
        "for name in ('sonar', 'house_votes', 'ticdata', 'breast_cancer', 'kw'):\n"
        "    load(name)\n"
        "print('ok')\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


def test_one_hot_sets_are_indicators():
    X, _, info = load("promoters")
    assert set(np.unique(X)) == {0.0, 1.0}
    np.testing.assert_array_equal(X.reshape(106, 57, 4).sum(axis=2), 1)  # one base per spot
    X, _, info = load("house_votes")
    np.testing.assert_array_equal(X.reshape(435, 16, 3).sum(axis=2), 1)  # y, n or ?
    assert info.feature_names[:3] == ("V1=n", "V1=y", "V1=?")


def test_breast_cancer_original_missing_options():
    X, y, info = load("breast_cancer_original", missing="indicator")
    assert X.shape == (699, 10) and np.isfinite(X).all()
    assert info.feature_names[-1] == "Bare.nuclei missing"
    assert X[:, -1].sum() == 16 and info.class_counts == (458, 241)
    assert set(np.unique(X[:, :9])) <= set(range(1, 11))
    with pytest.raises(DataError, match="missing must be"):
        load("breast_cancer_original", missing="zero")


def test_ticdata_parts():
    X, y, info = load("ticdata", part="train")
    assert X.shape == (5822, 132) and info.class_counts == (5474, 348)
    X, y, info = load("ticdata", part="test")
    assert X.shape == (4000, 132) and info.class_counts == (3762, 238)


def test_positive_class_for_binary_and_multiclass_sets():
    X, y, info = load("sonar", positive_class="rock")
    assert info.class_names == ("mine", "rock") and info.class_counts == (111, 97)
    X, y2, info = load("sonar", positive_class=0)
    np.testing.assert_array_equal(y, y2)
    X, y, info = load("digits")
    assert info.labels == tuple(range(10)) and len(info.class_names) == 10
    X, y, info = load("digits", positive_class="7")
    assert info.class_names == ("not 7", "7") and info.class_counts == (1797 - 179, 179)
    with pytest.raises(DataError, match="positive_class"):
        load("sonar", positive_class="whale")
    with pytest.raises(DataError, match="positive_class"):
        load("digits", positive_class=10)


def test_generators_through_the_registry_carry_ground_truth():
    X, y, info = load("kw", n_features=30, noise=0.2, n_samples=500, random_state=1)
    direct = make_kw(30, 0.1, 0.2, 500, random_state=1)
    np.testing.assert_array_equal(X, direct.X)
    np.testing.assert_array_equal(info.flipped, direct.flipped)
    np.testing.assert_array_equal(info.target.w, direct.target.w)
    assert info.options["margin"] == 0.1 and info.options["random_state"] == 1
    for spec in list_datasets("generator"):
        X, y, info = load(spec.name, random_state=0)
        assert X.shape == spec.shape, spec.name
        assert info.flipped is not None and info.target is not None
        assert sum(info.class_counts) == X.shape[0]
    X, y, info = load("kw", dtype="int8", random_state=0)
    assert X.dtype == np.int8


GENERATORS = list_datasets("generator")


def _generator(spec):
    """The function its source names (a generator need not be a public name of the package: a
    new data set is its function and its registry entry)."""
    module, function = spec.source.split()[-1].rsplit(".", 1)
    return getattr(importlib.import_module(module), function)


@pytest.mark.parametrize("spec", GENERATORS, ids=lambda s: s.name)
def test_a_generators_options_are_its_signature(spec):
    """Names and defaults are declared once, in the function: the registry reads them (a
    generator of more than two classes also takes the registry's own ``positive_class``,
    first, as the real sets do)."""
    signature = inspect.signature(_generator(spec)).parameters
    registry_own = {"positive_class": None} if len(spec.class_names) > 2 else {}
    assert {o.name: o.default for o in spec.options} == registry_own | {
        name: p.default for name, p in signature.items()
    }
    assert [o.name for o in spec.options][-1] == "random_state"
    X, y, info = load(spec.name, random_state=0)
    assert (
        info.options
        == {name: p.default for name, p in signature.items()} | {"random_state": 0} | registry_own
    )
    assert X.shape == spec.shape


@pytest.mark.parametrize("spec", GENERATORS, ids=lambda s: s.name)
def test_a_generators_help_is_its_docstring(spec):
    doc = " ".join(inspect.getdoc(_generator(spec)).split())
    for option in spec.options:
        if option.name == "positive_class":  # the registry's own (see above)
            continue
        assert f"{option.name} : " in doc
        assert option.help in doc, option.name


def test_a_generator_parameter_without_docstring_entry_is_refused(monkeypatch):
    import ast

    from perceptron_core.datasets import registry

    source = 'def make_demo(n_samples: int = 10, spread: float = 1.0):\n    """Demo.\n\n' + (
        "    Parameters\n    ----------\n    n_samples : int, default=10\n"
        '        Number of examples.\n    """\n'
    )
    monkeypatch.setattr(registry, "_module_tree", lambda module: ast.parse(source))
    with pytest.raises(ValueError, match="make_demo: parameter spread needs a default and an"):
        registry.generator_options("demo", "make_demo")


def test_load_uses_the_generators_own_default(monkeypatch):
    """Changing a default in the function changes what ``load(name)`` makes."""
    from perceptron_core.datasets import teaching

    original = teaching.make_xor

    def make_xor(n_samples: int = 40, spread: float = 0.35, noise: float = 0.0, random_state=None):
        return original(n_samples, spread, noise, random_state)

    monkeypatch.setattr(teaching, "make_xor", make_xor)
    X, y, info = load("xor", random_state=0)
    assert X.shape == (40, 2)
    assert info.options["n_samples"] == 40


def test_names_and_options_are_checked():
    with pytest.raises(DataError, match="no data set called 'iris'"):
        load("iris")
    X, _, _ = load("Breast-Cancer")  # case and dashes do not matter
    assert X.shape == (569, 30)
    with pytest.raises(DataError, match="has no option 'colour'"):
        load("sonar", colour="red")
    with pytest.raises(DataError, match="random_state"):
        load("sonar", random_state=0)  # a fixed set is not random
    with pytest.raises(DataError, match="part must be"):
        load("ticdata", part="validation")


def test_missing_data_file_says_where_it_looked(monkeypatch, tmp_path):
    from perceptron_core.datasets import real

    monkeypatch.setattr(real, "data_dirs", lambda data_dir=None: [tmp_path])
    with pytest.raises(DataError, match="PERCEPTRON_LAB_DATA"):
        load("sonar")
    (tmp_path / "sonar.npz").write_bytes(b"not a zip")
    with pytest.raises(DataError, match="damaged"):
        load("sonar")


def test_data_dir_environment_variable(monkeypatch, tmp_path):
    from perceptron_core.datasets.real import find_data_file

    (tmp_path / "sonar.npz").write_bytes((DATA / "sonar.npz").read_bytes())
    monkeypatch.setenv("PERCEPTRON_LAB_DATA", str(tmp_path))
    assert find_data_file("sonar.npz") == tmp_path / "sonar.npz"


def test_fashion_mnist_loads_when_installed_or_explains_how_to_get_it():
    spec = get_spec("fashion_mnist")
    try:
        fashion_mnist_folder()
        installed = True
    except DataError as err:
        installed = False
        assert "apt-get install dataset-fashion-mnist" in str(err)
    assert spec.available == installed
    if installed:
        X, y, info = load("fashion_mnist", part="test", positive_class="Bag")
        assert X.shape == (10000, 784) and X.dtype == np.uint8
        assert info.class_counts == (9000, 1000) and info.class_names == ("not Bag", "Bag")
    else:
        with pytest.raises(DataError, match="apt-get install dataset-fashion-mnist"):
            load("fashion_mnist")
