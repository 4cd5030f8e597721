"""Hostile ``.npz`` archives for the tests: members that expand far beyond their file size.

A member is a ``.npy`` header followed by data; :func:`zeros` is data that is gigabytes of
zero bytes once inflated but a few megabytes deflated (repeated full-flush deflate blocks,
built in milliseconds). :func:`write_zip` writes the archive byte by byte, so a member may
declare whatever size the test wants, as a hostile file would. The checksums are left at
0: a reader that inflates the member meets the mismatch only at its end, after the memory
is spent, so they do not defuse the bomb. (Members of a megabyte or less get their true
checksum, so that a reader may read them whole.)
"""

from __future__ import annotations

import io
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.lib import format as npy_format

_UNIT = 1024**2


@dataclass(frozen=True)
class Member:
    """One member: its name, its deflated bytes and the size it declares once inflated."""

    name: str
    data: bytes
    size: int
    deflated: bool = True
    crc: int = 0


def npy_header(shape: tuple[int, ...], descr: str = "<f8", *, fortran: bool = False) -> bytes:
    """The ``.npy`` header numpy writes for ``shape`` and ``descr``."""
    out = io.BytesIO()
    fields = {"descr": descr, "fortran_order": fortran, "shape": shape}
    npy_format.write_array_header_1_0(out, fields)
    return out.getvalue()


def raw_npy_header(text: str, *, version: int = 1) -> bytes:
    """A ``.npy`` header holding ``text`` verbatim (padded), for malformed-header tests."""
    body = text.encode("latin-1")
    size = struct.pack("<H" if version == 1 else "<I", len(body))
    return b"\x93NUMPY" + bytes((version, 0)) + size + body


def zeros(name: str, header: bytes, count: int) -> Member:
    """A deflated member: ``header`` then ``count`` zero bytes (declared: their sum)."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    pieces = [compressor.compress(header) + compressor.flush(zlib.Z_FULL_FLUSH)]
    units, rest = divmod(count, _UNIT)
    if units:
        unit = compressor.compress(bytes(_UNIT)) + compressor.flush(zlib.Z_FULL_FLUSH)
        pieces.append(unit * units)
    pieces.append(compressor.compress(bytes(rest)) + compressor.flush())
    crc = zlib.crc32(bytes(count), zlib.crc32(header)) if count <= _UNIT else 0
    return Member(name, b"".join(pieces), len(header) + count, crc=crc)


def array(name: str, value: np.ndarray) -> Member:
    """An honest member holding ``value`` (stored, correct sizes)."""
    out = io.BytesIO()
    np.save(out, value, allow_pickle=False)
    return Member(name, out.getvalue(), len(out.getvalue()), deflated=False)


def write_zip(path: Path, members: list[Member], *, prefix: bytes = b"") -> Path:
    """Write ``members`` as a zip archive after ``prefix`` (a blueprint's text header)."""
    body = bytearray(prefix)
    directory = bytearray()
    for member in members:
        name = member.name.encode()
        method = 8 if member.deflated else 0
        crc = member.crc if member.deflated else zlib.crc32(member.data)
        offset = len(body)
        body += struct.pack(
            "<IHHHHHIIIHH", 0x04034B50, 20, 0, method, 0, 0x21, crc, len(member.data),
            member.size, len(name), 0,
        ) + name + member.data
        directory += struct.pack(
            "<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, method, 0, 0x21, crc,
            len(member.data), member.size, len(name), 0, 0, 0, 0, 0, offset - len(prefix),
        ) + name
    start = len(body)
    body += directory
    body += struct.pack(
        "<IHHHHIIH", 0x06054B50, 0, 0, len(members), len(members), len(directory),
        start - len(prefix), 0,
    )
    path.write_bytes(bytes(body))
    return path
