"""Typed arrays in one ``bytes`` blob, described by a small JSON header.

The browser gets a run as one binary component argument: every array is
copied into the blob little-endian, aligned to 8 bytes (a JavaScript
``Float64Array`` can only view a buffer at a multiple of its element size),
and the header says where each one starts, its dtype and its shape. The
browser side (``ui/playback/payload.js``) turns the header back into typed
arrays without copying them again.
"""

from __future__ import annotations

import hashlib

import numpy as np

#: The dtypes JavaScript has typed arrays for (int64 has none that plain numbers can use).
DTYPES = ("uint8", "int8", "uint16", "int16", "uint32", "int32", "float32", "float64")
ALIGN = 8


def index_dtype(n: int) -> np.dtype:
    """The smallest unsigned dtype that holds the indices ``0 .. n - 1``.

    Examples
    --------
    >>> index_dtype(1_000), index_dtype(70_000)
    (dtype('uint16'), dtype('uint32'))
    """
    return np.dtype(np.uint16 if n <= 2**16 else np.uint32)


class Packer:
    """Collect named arrays, then :meth:`pack` them into ``(header, blob)``.

    Examples
    --------
    >>> p = Packer()
    >>> p.add("a/x", np.arange(3, dtype=np.uint8))
    'a/x'
    >>> header, blob = p.pack()
    >>> header["a/x"], len(blob)
    ({'offset': 0, 'dtype': 'uint8', 'shape': [3]}, 8)
    """

    def __init__(self):
        self._arrays: dict[str, np.ndarray] = {}

    def add(self, name: str, array, dtype=None) -> str:
        """Store ``array`` (converted to ``dtype``) under ``name``; returns the name."""
        if name in self._arrays:
            raise ValueError(f"Two arrays are named {name!r}.")
        a = np.asarray(array, dtype=dtype)
        if a.dtype.name not in DTYPES:
            raise TypeError(f"{name}: dtype {a.dtype} has no JavaScript typed array.")
        self._arrays[name] = np.ascontiguousarray(a, dtype=a.dtype.newbyteorder("<"))
        return name

    def pack(self) -> tuple[dict, bytes]:
        header, parts, offset = {}, [], 0
        for name, a in self._arrays.items():
            header[name] = {"offset": offset, "dtype": a.dtype.name, "shape": list(a.shape)}
            raw = a.tobytes()
            pad = -len(raw) % ALIGN
            parts += [raw, bytes(pad)]
            offset += len(raw) + pad
        return header, b"".join(parts)


def unpack(header: dict, blob: bytes) -> dict[str, np.ndarray]:
    """The arrays back from ``(header, blob)``: what the browser reads, for tests and tools.

    Examples
    --------
    >>> p = Packer()
    >>> _ = p.add("w", [1.5, -2.0])
    >>> unpack(*p.pack())["w"].tolist()
    [1.5, -2.0]
    """
    out = {}
    for name, spec in header.items():
        dtype = np.dtype(spec["dtype"]).newbyteorder("<")
        count = int(np.prod(spec["shape"], dtype=np.int64))
        flat = np.frombuffer(blob, dtype=dtype, count=count, offset=spec["offset"])
        out[name] = flat.reshape(spec["shape"])
    return out


def content_id(header: dict, blob: bytes, meta: str) -> str:
    """A short fingerprint of a payload: the browser skips decoding when it has not changed."""
    h = hashlib.blake2b(digest_size=12)
    h.update(repr(sorted(header.items())).encode())
    h.update(meta.encode())
    h.update(blob)
    return h.hexdigest()
