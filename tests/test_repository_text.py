"""Every text in the repository cites what a reader has: the papers, or docs/algorithms.md.

Students and users get this repository and nothing else. A reference to the private
specification the project was built from, to a path beside the checkout, or to a number on
the project's issue tracker points them at something they cannot open. The test reads every
file git tracks (and new files git would add: not ignored, not yet committed) and lists each
such reference as ``path:line``.

The patterns are built from pieces, so that this file's own text does not match them and it
is checked like every other file.
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.repository import repository_files

ROOT = Path(__file__).resolve().parents[1]

#: What must not appear, with what to say about it. Case-sensitive except the tracker's numbers.
FORBIDDEN = (
    (
        re.compile(re.escape(".." + "/shared")),
        "a path outside the repository",
    ),
    (
        re.compile(r"\b" + "SP" + r"EC\b"),
        "the private specification",
    ),
    (
        re.compile(r"\b" + "iss" + r"ues?(?:\s+#?|#)\d+", re.IGNORECASE),
        "a number on the project's issue tracker",
    ),
)

#: Files that are not text, or not ours to word: data, images, minified vendor bundles.
BINARY_SUFFIXES = (
    ".npz",
    ".npy",
    ".pkl",
    ".png",
    ".jpg",
    ".jpeg",
    ".gif",
    ".ico",
    ".svg",
    ".pdf",
    ".woff",
    ".woff2",
    ".ttf",
    ".gz",
    ".zip",
    ".whl",
    ".min.js",
)

ADVICE = (
    "Users and students see only the repository. Cite the paper instead (author, year, "
    'section, figure or table, e.g. "Khardon & Wachman (2007), section 2.1") or the matching '
    'section of docs/algorithms.md (e.g. "docs/algorithms.md §1.3"), and instead of a tracker '
    "number say what was measured or decided."
)


def read_text(path: Path) -> str | None:
    """The file's text, or None for a binary file (or one deleted from the work tree)."""
    if path.name.endswith(BINARY_SUFFIXES) or not path.is_file():
        return None
    data = path.read_bytes()
    if b"\0" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def test_no_reference_points_outside_the_repository():
    found = []
    for name in repository_files():
        text = read_text(ROOT / name)
        if text is None:
            continue
        for number, line in enumerate(text.splitlines(), start=1):
            for pattern, what in FORBIDDEN:
                for match in pattern.finditer(line):
                    found.append(f"{name}:{number}: {what}: {match.group(0)!r}")
    assert not found, (
        f"{len(found)} reference(s) to text outside the repository:\n  "
        + "\n  ".join(found)
        + "\n"
        + ADVICE
    )
