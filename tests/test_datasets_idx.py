"""The idx (MNIST) reader and the Fashion-MNIST loader, on tiny files made here."""

import gzip
import struct

import numpy as np
import pytest

from perceptron_core.datasets import DataError, load, load_fashion_mnist, parse_idx, read_idx

CODES = {
    np.dtype(np.uint8): 0x08,
    np.dtype(np.int8): 0x09,
    np.dtype(">i2"): 0x0B,
    np.dtype(">i4"): 0x0C,
    np.dtype(">f4"): 0x0D,
    np.dtype(">f8"): 0x0E,
}


def idx_bytes(arr: np.ndarray) -> bytes:
    """Write an idx file by the format's definition (big-endian header and data)."""
    big = arr.astype(arr.dtype.newbyteorder(">"))
    header = bytes([0, 0, CODES[big.dtype], arr.ndim]) + b"".join(
        struct.pack(">I", n) for n in arr.shape
    )
    return header + big.tobytes()


@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.int16, np.int32, np.float32, np.float64])
@pytest.mark.parametrize("compress", [False, True])
def test_round_trip_every_element_type(tmp_path, dtype, compress):
    arr = (np.arange(24).reshape(2, 3, 4) - 5).astype(dtype)
    if dtype == np.uint8:
        arr = np.arange(24, dtype=np.uint8).reshape(2, 3, 4)
    data = idx_bytes(arr)
    path = tmp_path / ("a.idx.gz" if compress else "a.idx")
    path.write_bytes(gzip.compress(data) if compress else data)
    out = read_idx(path)
    np.testing.assert_array_equal(out, arr)
    assert out.dtype == np.dtype(dtype) and out.dtype.isnative


@pytest.mark.parametrize(
    "data, fragment",
    [
        (b"", "not an idx file"),
        (b"\x01\x00\x08\x01", "not an idx file"),
        (bytes([0, 0, 0x07, 1, 0, 0, 0, 1, 5]), "unknown idx element type"),
        (bytes([0, 0, 8, 2, 0, 0, 0]), "cut short"),
        (bytes([0, 0, 8, 1, 0, 0, 0, 3, 1, 2]), "damaged or incomplete"),
        (bytes([0, 0, 8, 1, 0, 0, 0, 1, 1, 2]), "damaged or incomplete"),
    ],
)
def test_bad_idx_data_is_explained(data, fragment):
    with pytest.raises(DataError, match=fragment):
        parse_idx(data)


def test_unreadable_and_corrupt_files(tmp_path):
    with pytest.raises(DataError, match="Cannot read"):
        read_idx(tmp_path / "nothing-here")
    (tmp_path / "bad.gz").write_bytes(b"\x1f\x8b" + b"garbage")
    with pytest.raises(DataError, match="gzip"):
        read_idx(tmp_path / "bad.gz")


def write_fake_fashion(folder, n_train=6, n_test=4, compress=True):
    rng = np.random.default_rng(0)
    parts = {"train": n_train, "t10k": n_test}
    expected = {}
    for stem, n in parts.items():
        images = rng.integers(0, 256, size=(n, 28, 28), dtype=np.uint8)
        labels = (np.arange(n) % 10).astype(np.uint8)
        for kind, arr in (("images-idx3-ubyte", images), ("labels-idx1-ubyte", labels)):
            data = idx_bytes(arr)
            name = f"{stem}-{kind}" + (".gz" if compress else "")
            (folder / name).write_bytes(gzip.compress(data) if compress else data)
        expected[stem] = (images.reshape(n, 784), labels.astype(np.int64))
    return expected


@pytest.mark.parametrize("compress", [True, False])
def test_fashion_loader_reads_a_named_folder(tmp_path, compress):
    expected = write_fake_fashion(tmp_path, compress=compress)
    X, y = load_fashion_mnist(tmp_path, part="all")
    np.testing.assert_array_equal(X, np.vstack([expected["train"][0], expected["t10k"][0]]))
    np.testing.assert_array_equal(y, np.concatenate([expected["train"][1], expected["t10k"][1]]))
    assert X.dtype == np.uint8
    X, y = load_fashion_mnist(tmp_path, part="test")
    assert X.shape == (4, 784)
    X, y, info = load(
        "fashion_mnist", path=tmp_path, part="train", positive_class=0, dtype="float32"
    )
    assert X.shape == (6, 784) and X.dtype == np.float32
    assert info.class_names == ("not T-shirt/top", "T-shirt/top") and info.class_counts == (5, 1)


def test_fashion_loader_environment_variable(tmp_path, monkeypatch):
    write_fake_fashion(tmp_path)
    monkeypatch.setenv("PERCEPTRON_LAB_FASHION_MNIST", str(tmp_path))
    X, y = load_fashion_mnist(part="train")
    assert X.shape == (6, 784)


def test_fashion_loader_explains_how_to_install(tmp_path):
    with pytest.raises(DataError, match="apt-get install dataset-fashion-mnist"):
        load_fashion_mnist(tmp_path)
    with pytest.raises(DataError, match="part must be"):
        load_fashion_mnist(tmp_path, part="valid")


def test_fashion_loader_refuses_mismatched_files(tmp_path):
    write_fake_fashion(tmp_path)
    (tmp_path / "t10k-labels-idx1-ubyte.gz").write_bytes(
        gzip.compress(idx_bytes(np.zeros(3, dtype=np.uint8)))
    )
    with pytest.raises(DataError, match="do not match"):
        load_fashion_mnist(tmp_path, part="test")
