"""The MNIST "idx" file format, and Fashion-MNIST from a local install.

An idx file is a big-endian header followed by the raw array: two zero
bytes, one byte for the element type (0x08 unsigned byte, 0x09 signed byte,
0x0B 16-bit, 0x0C 32-bit integer, 0x0D 32-bit float, 0x0E 64-bit float), one
byte for the number of dimensions, then each dimension as a 4-byte unsigned
integer. Files may be gzip-compressed (as distributed); the reader detects
that from the first two bytes, not from the file name.

Fashion-MNIST (Xiao, Rasul & Vollgraf 2017, Zalando Research; MIT licence) is
not shipped with Perceptron Lab: 70,000 greyscale 28 x 28 images of 10 kinds
of clothing. Debian's package ``dataset-fashion-mnist`` installs the four idx
files in :data:`DEBIAN_FASHION_MNIST`; any folder holding the same four files
works too.
"""

from __future__ import annotations

import gzip
import os
from pathlib import Path

import numpy as np

from ._common import DataError

#: Where Debian's ``dataset-fashion-mnist`` puts the files.
DEBIAN_FASHION_MNIST = Path("/usr/share/datasets/fashion-mnist")

#: Environment variable naming a folder with the Fashion-MNIST idx files.
FASHION_MNIST_ENV = "PERCEPTRON_LAB_FASHION_MNIST"


_TYPES = {0x08: ">u1", 0x09: ">i1", 0x0B: ">i2", 0x0C: ">i4", 0x0D: ">f4", 0x0E: ">f8"}

_FILES = {
    "train": ("train-images-idx3-ubyte", "train-labels-idx1-ubyte"),
    "test": ("t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"),
}


def parse_idx(data: bytes, what: str = "the file") -> np.ndarray:
    """Decode the bytes of an idx file (already decompressed) into an array.

    Parameters
    ----------
    data : bytes
    what : str
        How to name the file in error messages.

    Returns
    -------
    ndarray
        In native byte order, with the file's shape and element type.

    Examples
    --------
    >>> from perceptron_core.datasets import parse_idx
    >>> parse_idx(bytes([0, 0, 8, 2, 0, 0, 0, 2, 0, 0, 0, 3, 1, 2, 3, 4, 5, 6]))
    array([[1, 2, 3],
           [4, 5, 6]], dtype=uint8)
    """
    if len(data) < 4 or data[0] != 0 or data[1] != 0:
        raise DataError(
            f"{what} is not an idx file (MNIST format): it should start with two zero bytes, "
            "a type byte and a dimension count."
        )
    code, ndim = data[2], data[3]
    if code not in _TYPES:
        raise DataError(
            f"{what} has an unknown idx element type 0x{code:02X}; known types are "
            + ", ".join(f"0x{c:02X}" for c in _TYPES)
            + "."
        )
    header = 4 + 4 * ndim
    if ndim == 0 or len(data) < header:
        raise DataError(
            f"{what} is cut short: its header announces {ndim} dimensions but the "
            "file ends before they are listed."
        )
    shape = tuple(int.from_bytes(data[4 + 4 * i : 8 + 4 * i], "big") for i in range(ndim))
    dtype = np.dtype(_TYPES[code])
    expected = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    if len(data) - header != expected:
        raise DataError(
            f"{what} should hold {expected:,} bytes of data for shape {shape}, but holds "
            f"{len(data) - header:,}: the file is damaged or incomplete."
        )
    arr = np.frombuffer(data, dtype=dtype, offset=header).reshape(shape)
    return arr.astype(dtype.newbyteorder("="), copy=True)


def read_idx(path) -> np.ndarray:
    """Read an idx file (gzip-compressed or not) into an array.

    Parameters
    ----------
    path : str or os.PathLike

    Returns
    -------
    ndarray

    Examples
    --------
    >>> import gzip, os, tempfile
    >>> from perceptron_core.datasets import read_idx
    >>> path = os.path.join(tempfile.mkdtemp(), "tiny-labels-idx1-ubyte.gz")
    >>> with gzip.open(path, "wb") as f:
    ...     _ = f.write(bytes([0, 0, 8, 1, 0, 0, 0, 3, 7, 0, 9]))
    >>> read_idx(path)
    array([7, 0, 9], dtype=uint8)
    """
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as err:
        raise DataError(f"Cannot read {path}: {err.strerror or err}.") from None
    if raw[:2] == b"\x1f\x8b":
        try:
            raw = gzip.decompress(raw)
        except (OSError, EOFError, ValueError) as err:
            raise DataError(
                f"{path} looks gzip-compressed but cannot be decompressed "
                f"({err}); the file is damaged or incomplete."
            ) from None
    return parse_idx(raw, what=str(path))


def _find(folder: Path, stem: str) -> Path | None:
    for name in (stem + ".gz", stem):
        if (folder / name).is_file():
            return folder / name
    return None


def fashion_mnist_folder(path=None) -> Path:
    """The folder to read Fashion-MNIST from, or a :class:`DataError` saying how to get it.

    Looks at ``path`` if given, else the folder in the environment variable
    ``PERCEPTRON_LAB_FASHION_MNIST``, else Debian's install location
    ``/usr/share/datasets/fashion-mnist``.
    """
    if path is not None:
        candidates = [Path(path)]
    elif os.environ.get(FASHION_MNIST_ENV):
        candidates = [Path(os.environ[FASHION_MNIST_ENV])]
    else:
        candidates = [DEBIAN_FASHION_MNIST]
    folder = candidates[0]
    missing = [s for pair in _FILES.values() for s in pair if _find(folder, s) is None]
    if missing:
        raise DataError(
            f"Fashion-MNIST was not found in {folder} (missing {', '.join(missing)}). It is "
            "not shipped with Perceptron Lab. On Debian or Ubuntu install it with "
            "'sudo apt-get install dataset-fashion-mnist' (it goes to "
            f"{DEBIAN_FASHION_MNIST}); or put the four idx files (.gz or not) of the "
            "Fashion-MNIST project in a folder and pass it as path=... or in "
            f"${FASHION_MNIST_ENV}."
        )
    return folder


def load_fashion_mnist(path=None, part: str = "all"):
    """Read Fashion-MNIST images and labels from a local folder.

    Parameters
    ----------
    path : str or os.PathLike, optional
        Folder with ``train-images-idx3-ubyte[.gz]``,
        ``train-labels-idx1-ubyte[.gz]``, ``t10k-images-idx3-ubyte[.gz]`` and
        ``t10k-labels-idx1-ubyte[.gz]``. Default: see
        :func:`fashion_mnist_folder`.
    part : {"all", "train", "test"}, default="all"
        The 60,000 training images, the 10,000 test images, or both (training
        first, 70,000 rows).

    Returns
    -------
    X : ndarray of shape (n, 784), uint8
        Pixel intensities 0..255, one flattened image per row.
    y : ndarray of shape (n,), int64
        Class 0..9 (see :data:`~perceptron_core.datasets.registry.FASHION_MNIST_CLASSES`).

    Examples
    --------
    >>> from perceptron_core.datasets import DataError, load_fashion_mnist
    >>> try:
    ...     X, y = load_fashion_mnist(part="test")
    ... except DataError as err:  # not installed on this machine
    ...     X, y = None, None
    >>> X is None or (X.shape == (10000, 784) and y.shape == (10000,))
    True
    """
    if part not in ("all", "train", "test"):
        raise DataError(
            f"load_fashion_mnist: part must be 'all', 'train' or 'test'; got {part!r}."
        )
    folder = fashion_mnist_folder(path)
    Xs, ys = [], []
    for key in ("train", "test") if part == "all" else (part,):
        images = read_idx(_find(folder, _FILES[key][0]))
        labels = read_idx(_find(folder, _FILES[key][1]))
        if images.ndim != 3 or labels.ndim != 1 or images.shape[0] != labels.shape[0]:
            raise DataError(
                f"The Fashion-MNIST {key} files in {folder} do not match: images of shape "
                f"{images.shape} and labels of shape {labels.shape}."
            )
        Xs.append(images.reshape(images.shape[0], -1).astype(np.uint8, copy=False))
        ys.append(labels.astype(np.int64))
    return np.concatenate(Xs), np.concatenate(ys)
