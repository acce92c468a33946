#!/usr/bin/env python
"""Convert the real data sets shipped in ``data/`` from Debian's R packages.

This is the one script that made every ``data/*.npz`` file; run it again to
check or rebuild them::

    apt-get install r-cran-mlbench r-cran-kernlab     # the .rda sources
    pip install rdata pandas                            # build-time only
    python scripts/build_data.py                        # writes data/
    python scripts/build_data.py --check                # rebuild in memory, compare

What it does to each set (also written into ``data/README.md``):

* reads the ``.rda`` file with ``rdata`` (no R needed);
* numeric columns stay ``float64``; factors whose levels are numbers
  (BreastCancer's grades 1..10, Ionosphere's 0/1 columns) become those
  numbers (by label, not by level position: BreastCancer's Mitoses has no
  level 9); ordered factors with non-numeric labels (ticdata's percentage and
  contribution bands, age groups) become their position ``0..L-1`` (age
  groups ``1..6``), the coding of the original CoIL files;
* nominal factors become one 0/1 indicator column per level
  (``name=level``), as Khardon and Wachman did; a missing nominal value is a
  level of its own (``name=?``) in HouseVotes84, where it means "did not vote
  yes or no";
* BreastCancer's 16 missing grades are kept as NaN; the loader drops those
  rows or imputes them, on request;
* the class becomes codes 0/1 with code 1 the "event" class (malignant, mine,
  bad, pos, republican, promoter, spam, insurance);
* files are written with fixed zip timestamps, so the same sources and
  library versions give byte-identical files, and their SHA-256, shape,
  class counts, source file, source package and version go to
  ``data/MANIFEST.json``.

scikit-learn's breast-cancer and digits sets are not converted: they ship
inside scikit-learn, a runtime dependency, and are read from it.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import platform
import subprocess
import sys
import warnings
import zipfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data"
MLBENCH = Path("/usr/lib/R/site-library/mlbench/data")
KERNLAB = Path("/usr/lib/R/site-library/kernlab/data")

# name -> (Debian package, .rda file, R object, class column, positive level, class names
#          in code order [code 0, code 1])
SOURCES = {
    "sonar": ("r-cran-mlbench", MLBENCH / "Sonar.rda", "Sonar", "Class", "M", ("rock", "mine")),
    "ionosphere": (
        "r-cran-mlbench",
        MLBENCH / "Ionosphere.rda",
        "Ionosphere",
        "Class",
        "bad",
        ("good", "bad"),
    ),
    "breast_cancer_original": (
        "r-cran-mlbench",
        MLBENCH / "BreastCancer.rda",
        "BreastCancer",
        "Class",
        "malignant",
        ("benign", "malignant"),
    ),
    "pima": (
        "r-cran-mlbench",
        MLBENCH / "PimaIndiansDiabetes.rda",
        "PimaIndiansDiabetes",
        "diabetes",
        "pos",
        ("neg", "pos"),
    ),
    "house_votes": (
        "r-cran-mlbench",
        MLBENCH / "HouseVotes84.rda",
        "HouseVotes84",
        "Class",
        "republican",
        ("democrat", "republican"),
    ),
    "promoters": (
        "r-cran-kernlab",
        KERNLAB / "promotergene.rda",
        "promotergene",
        "Class",
        "+",
        ("non-promoter", "promoter"),
    ),
    "spam": ("r-cran-kernlab", KERNLAB / "spam.rda", "spam", "type", "spam", ("nonspam", "spam")),
    "ticdata": (
        "r-cran-kernlab",
        KERNLAB / "ticdata.rda",
        "ticdata",
        "CARAVAN",
        "insurance",
        ("noinsurance", "insurance"),
    ),
}

#: ticdata: the first 5,822 rows are the CoIL 2000 training customers, the last 4,000 the
#: evaluation customers (348 and 238 policy holders, as documented for the challenge).
TIC_TRAIN_ROWS = 5822


def debian_version(package: str) -> str:
    out = subprocess.run(
        ["dpkg-query", "-W", "-f=${Version}", package], capture_output=True, text=True, check=True
    )
    return out.stdout.strip()


def r_version(rda: Path) -> str:
    for line in (rda.parent.parent / "DESCRIPTION").read_text().splitlines():
        if line.startswith("Version:"):
            return line.split(":", 1)[1].strip()
    return "unknown"


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def read_rda(path: Path, obj: str):
    import rdata

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "Unknown encoding. Assumed ASCII." (all ASCII)
        return rdata.read_rda(str(path))[obj]


def _is_categorical(series) -> bool:
    return str(series.dtype) == "category"


def _numeric_levels(series) -> bool:
    try:
        [float(c) for c in series.cat.categories]
        return True
    except ValueError:
        return False


def convert(name: str):
    """Return (arrays, notes) for one set; arrays in the layout the loader reads."""
    import pandas

    _, rda, obj, class_col, positive, class_names = SOURCES[name]
    df = read_rda(rda, obj)
    label = df[class_col].astype(str)
    levels = sorted(set(label))
    if len(levels) != 2 or positive not in levels:
        raise SystemExit(f"{name}: unexpected classes {levels}")
    y = (label == positive).to_numpy().astype(np.int8)
    df = df.drop(columns=[class_col])
    if name == "breast_cancer_original":
        df = df.drop(columns=["Id"])  # a sample number, not a feature (and not unique)

    columns, names, kinds = [], [], []
    for col in df.columns:
        s = df[col]
        if not _is_categorical(s):
            columns.append(s.to_numpy(dtype=np.float64))
            names.append(str(col))
            kinds.append("numeric")
        elif _numeric_levels(s):
            values = s.astype(object).map(lambda v: np.nan if pandas.isna(v) else float(v))
            columns.append(values.to_numpy(dtype=np.float64))
            names.append(str(col))
            kinds.append("numeric levels")
        elif s.cat.ordered or (name == "ticdata" and col == "MGEMLEEF"):
            codes = s.cat.codes.to_numpy().astype(np.float64)
            if (codes < 0).any():
                raise SystemExit(f"{name}: missing value in ordered column {col}")
            columns.append(codes + (1 if col == "MGEMLEEF" else 0))
            names.append(str(col))
            kinds.append("ordered codes")
        else:
            cats = list(s.cat.categories)
            missing = s.isna().to_numpy()
            for cat in cats:
                columns.append((s == cat).to_numpy().astype(np.float64))
                names.append(f"{col}={cat}")
            if missing.any():
                columns.append(missing.astype(np.float64))
                names.append(f"{col}=?")
            kinds.append("one-hot")
    X = np.column_stack(columns)
    finite = X[~np.isnan(X)]
    integral = np.array_equal(finite, np.round(finite)) and not np.isnan(X).any()
    if integral and finite.min() >= 0 and finite.max() <= 255:
        X = X.astype(np.uint8)
    arrays = {
        "X": X,
        "y": y,
        "class_names": np.array(class_names),
        "feature_names": np.array(names),
    }
    if name == "ticdata":
        arrays["part"] = np.array(
            ["train"] * TIC_TRAIN_ROWS + ["test"] * (X.shape[0] - TIC_TRAIN_ROWS)
        )
    from collections import Counter

    return arrays, dict(Counter(kinds))


def npz_bytes(arrays: dict[str, np.ndarray]) -> bytes:
    """An .npz archive (what numpy.load reads) with fixed timestamps: reproducible bytes."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for key, arr in arrays.items():
            buf = io.BytesIO()
            np.lib.format.write_array(buf, np.ascontiguousarray(arr), allow_pickle=False)
            info = zipfile.ZipInfo(f"{key}.npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, buf.getvalue(), compresslevel=9)
    return out.getvalue()


def build(names) -> tuple[dict, dict[str, bytes]]:
    import pandas
    import rdata

    manifest = {
        "generated_by": "scripts/build_data.py",
        "tools": {
            "python": platform.python_version(),
            "numpy": np.__version__,
            "rdata": rdata.__version__,
            "pandas": pandas.__version__,
        },
        "files": {},
    }
    blobs = {}
    for name in names:
        package, rda = SOURCES[name][0], SOURCES[name][1]
        arrays, kinds = convert(name)
        blob = npz_bytes(arrays)
        fname = f"{name}.npz"
        blobs[fname] = blob
        counts = np.bincount(arrays["y"], minlength=2)
        manifest["files"][fname] = {
            "dataset": name,
            "source_package": package,
            "source_package_version": debian_version(package),
            "r_package_version": r_version(rda),
            "source_file": str(rda),
            "source_sha256": sha256(rda.read_bytes()),
            "sha256": sha256(blob),
            "bytes": len(blob),
            "shape": list(arrays["X"].shape),
            "dtype": str(arrays["X"].dtype),
            "missing_values": int(np.isnan(arrays["X"]).sum())
            if arrays["X"].dtype.kind == "f"
            else 0,
            "class_names": [str(c) for c in arrays["class_names"]],
            "class_counts": [int(c) for c in counts],
            "columns_by_treatment": kinds,
        }
    return manifest, blobs


def readme(manifest: dict) -> str:
    sys.path.insert(0, str(ROOT))
    from perceptron_core.datasets.registry import REGISTRY, load

    lines = [
        "# Real data shipped with Perceptron Lab",
        "",
        "Every `.npz` file here was made by `scripts/build_data.py` from the `.rda` files of "
        "Debian's `r-cran-mlbench` and `r-cran-kernlab` packages (read with the `rdata` "
        "package, no R needed). `MANIFEST.json` records, per file, the source package and "
        "version, the source file and its SHA-256, and the SHA-256 of the result; "
        "`python scripts/build_data.py --check` rebuilds them in memory and compares. This "
        "README is written by the same script.",
        "",
        "Reading them needs NumPy only: `perceptron_core.datasets.load(name)` returns "
        '`X, y, info` with `y` in {-1, +1} (the "event" class, listed second below, is +1).',
        "",
        "Conversion rules: numeric columns stay as they are; factors whose levels are numbers "
        "become those numbers; ordered bands become their integer codes; nominal attributes "
        "become one 0/1 indicator column per value (as Khardon and Wachman did). Per-set "
        "details, including missing values, are under *Notes*.",
        "",
        "The **majority baseline** is the accuracy of always predicting the most frequent "
        "class, computed from the shipped data: a learner must beat it to have learnt "
        "anything.",
        "",
        "Shapes, classes and baselines are those of `load(name)` with its default options.",
        "",
        "| name | from (Debian package, version) | shape | classes (−1 / +1) | majority "
        "baseline | file size |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for entry in manifest["files"].values():
        name = entry["dataset"]
        X, _, info = load(name)
        counts = info.class_counts
        total = sum(counts)
        classes = " / ".join(
            f"{c} {n} ({n / total:.1%})" for c, n in zip(info.class_names, counts)
        )
        rda = Path(entry["source_file"]).name
        lines.append(
            f"| `{name}` | {entry['source_package']} {entry['source_package_version']} "
            f"(`{rda}`) | {X.shape[0]} × {X.shape[1]} | {classes} | "
            f"{info.majority_rate:.1%} | {entry['bytes'] / 1024:.1f} KiB |"
        )
    total_kib = sum(e["bytes"] for e in manifest["files"].values()) / 1024
    lines += [
        "",
        f"Total: {total_kib:.0f} KiB.",
        "",
        "## Per set",
        "",
    ]
    for entry in manifest["files"].values():
        spec = REGISTRY[entry["dataset"]]
        lines += [
            f"### `{spec.name}`: {spec.title}",
            "",
            spec.description,
            "",
            f"- Source: {spec.source}.",
            f"- Licence: {spec.licence}.",
            f"- `load('{spec.name}')` returns {spec.shape[0]} × {spec.shape[1]}"
            + (
                f" (the file holds {entry['shape'][0]} rows)"
                if tuple(entry["shape"]) != spec.shape
                else ""
            )
            + ".",
            "- Source attributes by treatment: "
            + ", ".join(f"{k}: {v}" for k, v in entry["columns_by_treatment"].items())
            + ".",
        ]
        if spec.notes:
            lines.append(f"- Notes: {spec.notes}")
        lines.append("")
    lines += [
        "## Not in this folder",
        "",
        "- `breast_cancer` (Wisconsin diagnostic, WDBC, 569 × 30, 357 benign / 212 malignant, "
        "majority baseline 62.7%) and `digits` (1,797 × 64, ten classes of about 180, "
        "majority baseline 10.2%) are read from the installed scikit-learn, which ships them "
        "(BSD-3-Clause; data from the UCI repository).",
        "- `fashion_mnist` (70,000 × 784, ten classes of 7,000, MIT licence, Zalando SE) is "
        "read from Debian's `dataset-fashion-mnist` (`/usr/share/datasets/fashion-mnist`) or "
        "a folder you name; it is never committed.",
        "",
        "## Licences",
        "",
        "The mlbench sets are distributed by Debian under GPL-2 "
        "(`/usr/share/doc/r-cran-mlbench/copyright`); the kernlab sets come with the kernlab "
        "package, licensed GPL-2 (its DESCRIPTION; Debian's copyright file lists only the code "
        "directories). The data themselves originate from the UCI Machine Learning Repository; "
        "cite the original authors listed above when you publish results.",
        "",
    ]
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--check",
        action="store_true",
        help="rebuild in memory and compare with data/ instead of writing",
    )
    parser.add_argument("names", nargs="*", help="sets to build (default: all)")
    args = parser.parse_args(argv)
    names = args.names or list(SOURCES)
    manifest, blobs = build(names)
    if args.check:
        bad = [
            f for f, b in blobs.items() if not (DATA / f).is_file() or (DATA / f).read_bytes() != b
        ]
        for f in bad:
            print(f"differs: data/{f}")
        print("all files identical" if not bad else f"{len(bad)} file(s) differ")
        return 1 if bad else 0
    DATA.mkdir(exist_ok=True)
    if args.names and (DATA / "MANIFEST.json").is_file():
        old = json.loads((DATA / "MANIFEST.json").read_text())
        old["files"].update(manifest["files"])
        old["tools"] = manifest["tools"]
        manifest = old
    for fname, blob in blobs.items():
        (DATA / fname).write_bytes(blob)
        print(f"data/{fname}: {len(blob) / 1024:.1f} KiB")
    (DATA / "MANIFEST.json").write_text(json.dumps(manifest, indent=2) + "\n")
    (DATA / "README.md").write_text(readme(manifest))
    print(f"data/MANIFEST.json and README.md written ({sys.executable})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
