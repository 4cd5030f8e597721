"""Reading ``.npz`` archives and JSON headers without trusting them.

A compressed archive says how large its arrays are before it is decompressed: the zip
directory declares each member's size, and each member's ``.npy`` header declares its
shape and dtype. This module reads those declarations first and checks them against each
other, against what the caller expects and against a size limit, and only then reads the
data, never more bytes than declared. So a small file cannot expand into gigabytes, a
pickled object array is never unpickled, and a header that lies (nested, huge integers,
an unknown dtype) is a one-line :class:`~pokerlab.errors.FileFormatError`, not a
traceback.

The steps (:class:`NpzArchive`):

1. the zip directory: at most :data:`MAX_MEMBERS` members, each a ``.npy`` stored or
   deflated, no name twice;
2. each member's ``.npy`` header (``numpy.lib.format`` versions 1 to 3): at most
   :data:`MAX_NPY_HEADER` bytes, a literal dict of exactly ``descr``, ``fortran_order``
   and ``shape``, a plain numeric, boolean or text dtype (never ``object``), and a
   declared uncompressed size equal to header plus data;
3. the caller's checks of the declared shapes (see :func:`pokerlab.strategy.io.read_npz`)
   and the total against the limit (:data:`pokerlab.tree.compile.DEFAULT_MEMORY_LIMIT`);
4. the data, read into an array of the declared size; the archive's checksum is
   verified at its end.

JSON headers go through :func:`parse_json`: bounded length, nesting depth and integer
digits, so a header can neither exhaust the stack nor spend seconds on one number.
"""

from __future__ import annotations

import ast
import io
import json
import math
import os
import re
import struct
import zipfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import IO

import numpy as np
from numpy.lib import format as npy_format

from pokerlab.errors import FileFormatError

MAX_MEMBERS = 1024
"""The most members an archive may hold (pokerlab's files hold a few)."""
MAX_NPY_HEADER = 4096
"""The longest ``.npy`` header accepted, in bytes (numpy writes 64 to 128)."""
MAX_JSON_BYTES = 16 * 1024**2
"""The longest JSON header accepted, in bytes."""
MAX_JSON_DEPTH = 64
"""The deepest nesting of lists and objects accepted in a JSON header."""
MAX_INTEGER_DIGITS = 40
"""The most digits an integer of a JSON header may have (a 128-bit number has 39)."""
MAX_DIMENSION = 2**48
"""The largest length of one array axis accepted."""
ALLOWED_KINDS = "biufcSU"
"""dtype kinds accepted: booleans, integers, floats, complex, bytes and text (no objects,
no void records, no dates)."""

_CHUNK = 16 * 1024**2
_READ_ERRORS = (
    zipfile.BadZipFile, zipfile.LargeZipFile, zlib.error, OSError, ValueError, EOFError,
    RuntimeError, NotImplementedError, struct.error,
)  # fmt: skip
"""What zipfile and zlib raise on a damaged archive (RuntimeError: encrypted members)."""
_HEADER_CHARACTERS = re.compile(r"[A-Za-z0-9_'\"<>|=:,(){}\s.-]*")


@dataclass(frozen=True)
class ArrayInfo:
    """What a member of an archive declares, read before its data.

    Attributes:
        name: the array's name (the member's name without ``.npy``).
        shape: the declared shape.
        dtype: the declared dtype.
        nbytes: the bytes of data the shape and dtype declare.
        fortran_order: whether the data are in column-major order.
        data_offset: where the data start in the member (after the ``.npy`` header).
    """

    name: str
    shape: tuple[int, ...]
    dtype: np.dtype[np.generic]
    nbytes: int
    fortran_order: bool
    data_offset: int


def format_bytes(count: int) -> str:
    """``count`` bytes in words (``3.2 GB``)."""
    for unit, scale in (("GB", 1024**3), ("MB", 1024**2), ("KB", 1024)):
        if count >= scale:
            return f"{count / scale:.1f} {unit}"
    return f"{count} bytes"


class NpzArchive:
    """An ``.npz`` archive opened for checked reading (see the module docstring).

    ``source`` may be a path or a binary file; the zip may follow other bytes (a
    blueprint's text header). ``where`` names the file in errors, and ``contents`` what
    its arrays are (``"the blueprint tables"``), if the file is more than an archive.

    Raises:
        FileFormatError: a damaged zip, a member that is not a plain ``.npy`` array, or
            declarations that contradict each other.
    """

    def __init__(
        self, source: str | Path | IO[bytes], *, where: str, contents: str | None = None
    ) -> None:
        self.where = where
        self.contents = contents
        self._read: dict[str, np.ndarray] = {}
        try:
            self._zip = zipfile.ZipFile(source)
        except _READ_ERRORS as exc:
            raise FileFormatError(
                f"{where} is not a readable zip archive (truncated or corrupted?): {exc}"
            ) from None
        try:
            self.arrays = self._read_directory()
        except BaseException:
            self._zip.close()
            raise

    def _damaged(self, reason: str) -> FileFormatError:
        """The error for data that cannot be read (a damaged archive)."""
        if self.contents is not None:
            return FileFormatError(f"{self.where}: {self.contents} are damaged ({reason})")
        return FileFormatError(f"{self.where} is damaged (truncated or corrupted?): {reason}")

    def _refuse(self, reason: str) -> FileFormatError:
        """The error for declarations pokerlab does not read (an impossible or hostile file)."""
        if self.contents is not None:
            return FileFormatError(f"{self.where}: {self.contents} are refused: {reason}")
        return FileFormatError(f"{self.where} is not an array file pokerlab reads: {reason}")

    def _read_directory(self) -> dict[str, ArrayInfo]:
        members = self._zip.infolist()
        if len(members) > MAX_MEMBERS:
            raise self._refuse(f"{len(members)} members, over the {MAX_MEMBERS} allowed")
        arrays: dict[str, ArrayInfo] = {}
        for member in members:
            if not member.filename.endswith(".npy"):
                raise self._refuse(f"member {member.filename[:60]!r} is not a .npy array")
            name = member.filename[: -len(".npy")]
            if name in arrays:
                raise self._refuse(f"the array {name[:60]!r} is stored twice")
            if member.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
                raise self._refuse(
                    f"{name[:60]!r} uses zip compression {member.compress_type}; only stored "
                    "and deflated arrays are read"
                )
            arrays[name] = self._read_npy_header(member, name)
        return arrays

    def _read_npy_header(self, member: zipfile.ZipInfo, name: str) -> ArrayInfo:
        try:
            with self._zip.open(member) as stream:
                head = stream.read(MAX_NPY_HEADER + 16)
        except _READ_ERRORS as exc:
            raise self._damaged(f"{name[:60]!r} cannot be read: {exc}") from None
        return parse_npy_header(head, member.file_size, name, self._refuse)

    def read(self, name: str) -> np.ndarray:
        """The array ``name``, read after its declarations were checked (once: kept).

        Raises:
            FileFormatError: the archive has no such array, or its data are damaged.
        """
        if name in self._read:
            return self._read[name]
        info = self._info(name)
        out = np.empty(info.nbytes, dtype=np.uint8)
        self._stream(name, info, out.data)
        array: np.ndarray = out.view(info.dtype)
        self._read[name] = array.reshape(info.shape, order="F" if info.fortran_order else "C")
        return self._read[name]

    def read_into(self, name: str, out: np.ndarray) -> None:
        """Read the array ``name`` straight into ``out``, keeping no copy of it.

        ``out``: a writeable C-ordered array of the declared shape and type. A large table
        (a blueprint's) then loads at its own size, not twice. On damaged data ``out`` is
        left partly filled: the caller drops it.

        Raises:
            FileFormatError: no such array, another shape, type or order, or damaged data.
        """
        info = self._info(name)
        if not out.flags.writeable:
            raise ValueError("read_into needs a writeable array")
        if (info.shape != out.shape or info.dtype != out.dtype or info.fortran_order
                or not out.flags.c_contiguous):
            raise FileFormatError(
                f"{self.where}: {name[:60]!r} is {info.dtype} {info.shape}; expected "
                f"{out.dtype} {out.shape} in C order"
            )
        self._stream(name, info, out.reshape(-1).view(np.uint8).data)

    def _info(self, name: str) -> ArrayInfo:
        info = self.arrays.get(name)
        if info is None:
            raise FileFormatError(f"{self.where} has no {name!r} array")
        return info

    def _stream(self, name: str, info: ArrayInfo, view: memoryview) -> None:
        """Fill ``view`` (``info.nbytes`` bytes) with the array's data, chunk by chunk."""
        try:
            with self._zip.open(name + ".npy") as stream:
                stream.read(info.data_offset)
                done = 0
                while done < info.nbytes:
                    piece = stream.read(min(_CHUNK, info.nbytes - done))
                    if not piece:
                        raise self._damaged(f"{name[:60]!r} ends before its declared size")
                    view[done : done + len(piece)] = piece
                    done += len(piece)
                if stream.read(1):
                    raise self._damaged(f"{name[:60]!r} holds more than its declared size")
        except FileFormatError:
            raise
        except _READ_ERRORS as exc:
            raise self._damaged(f"{name[:60]!r}: {str(exc)[:120]}") from None

    def total_bytes(self) -> int:
        """The bytes every array declares, together."""
        return sum(info.nbytes for info in self.arrays.values())

    def check_limit(self, limit: int, *, names: tuple[str, ...] | None = None) -> None:
        """Refuse an archive whose arrays (or the ``names`` among them) declare over ``limit``.

        Raises:
            FileFormatError: naming the declared size and the limit.
        """
        chosen = self.arrays.values() if names is None else [
            self.arrays[n] for n in names if n in self.arrays
        ]
        total = sum(info.nbytes for info in chosen)
        if total > limit:
            raise FileFormatError(
                f"{self.where} declares {format_bytes(total)} of arrays, over the limit of "
                f"{format_bytes(limit)} (POKERLAB_MEMORY_LIMIT raises it for a file you trust)"
            )

    def close(self) -> None:
        """Close the archive."""
        self._zip.close()

    def __enter__(self) -> NpzArchive:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


def parse_npy_header(
    head: bytes,
    declared_size: int,
    name: str,
    damaged: Callable[[str], FileFormatError],
) -> ArrayInfo:
    """The declarations of one ``.npy`` member from its first bytes (see the module docstring).

    ``damaged(reason)`` makes the error raised; ``declared_size`` is the zip directory's
    uncompressed size of the member, which must equal header plus data.
    """
    make = damaged
    shown = repr(name[:60])
    try:
        major, minor = npy_format.read_magic(io.BytesIO(head))
    except (ValueError, EOFError):
        raise make(f"{shown} is not a .npy array (no numpy magic)") from None
    if (major, minor) not in ((1, 0), (2, 0), (3, 0)):
        raise make(f"{shown} has .npy format version {major}.{minor}; 1.0 to 3.0 are read")
    size_format = "<H" if major == 1 else "<I"
    start = npy_format.MAGIC_LEN + struct.calcsize(size_format)
    if len(head) < start:
        raise make(f"{shown} is cut short in its .npy header")
    (length,) = struct.unpack(size_format, head[npy_format.MAGIC_LEN : start])
    if length > MAX_NPY_HEADER:
        raise make(f"{shown} has a .npy header of {length} bytes, over {MAX_NPY_HEADER}")
    if len(head) < start + length:
        raise make(f"{shown} is cut short in its .npy header")
    try:
        text = head[start : start + length].decode("latin-1" if major < 3 else "utf-8")
    except UnicodeDecodeError:
        raise make(f"{shown} has a .npy header that is not text") from None
    shape, fortran_order, dtype = _header_fields(text, shown, make)
    nbytes = math.prod(shape) * dtype.itemsize
    if declared_size != start + length + nbytes:
        raise make(
            f"{shown} declares {declared_size} bytes in its container, but its .npy "
            f"header says {start + length + nbytes} (shape {shape}, {dtype})"
        )
    return ArrayInfo(name, shape, dtype, nbytes, fortran_order, start + length)


def _header_fields(
    text: str, shown: str, make_error: Callable[[str], FileFormatError]
) -> tuple[tuple[int, ...], bool, np.dtype[np.generic]]:
    if not _HEADER_CHARACTERS.fullmatch(text) or text.count("(") > 2 or text.count("{") > 1:
        raise make_error(f"{shown} has a malformed .npy header (not a plain literal dict)")
    try:
        fields = ast.literal_eval(text.strip())
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        raise make_error(f"{shown} has a malformed .npy header (not a literal dict)") from None
    if not isinstance(fields, dict) or set(fields) != {"descr", "fortran_order", "shape"}:
        raise make_error(f"{shown} has a .npy header without exactly descr, fortran_order, shape")
    shape, fortran_order, descr = fields["shape"], fields["fortran_order"], fields["descr"]
    if not isinstance(shape, tuple) or not all(
        type(n) is int and 0 <= n <= MAX_DIMENSION for n in shape
    ) or len(shape) > 32:
        raise make_error(
            f"{shown} declares the shape {_clipped(shape)}; axes must be 0 to {MAX_DIMENSION}"
        )
    if not isinstance(fortran_order, bool):
        raise make_error(f"{shown} declares fortran_order {str(fortran_order)[:40]}, not a bool")
    if not isinstance(descr, str):
        raise make_error(f"{shown} holds records or Python objects, which pokerlab never writes")
    try:
        dtype = np.dtype(descr)
    except (TypeError, ValueError):
        raise make_error(f"{shown} declares the unknown dtype {descr[:40]!r}") from None
    if dtype.kind == "O":
        raise make_error(f"{shown} holds Python objects (pickled), which are never read")
    if dtype.kind not in ALLOWED_KINDS or dtype.itemsize == 0 or dtype.subdtype is not None:
        raise make_error(f"{shown} declares the dtype {descr[:40]!r}; numbers and text only")
    return shape, fortran_order, dtype


def _clipped(value: object, length: int = 60) -> str:
    text = str(value)
    return text if len(text) <= length else f"{text[:length]}... ({len(text)} characters)"


_STRINGS = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_LONG_INTEGER = re.compile(rb"(?<![\w.])-?\d{%d,}(?![\d.eE])" % (MAX_INTEGER_DIGITS + 1))


def parse_json(data: bytes | str, *, where: str, max_bytes: int = MAX_JSON_BYTES) -> object:
    """Parse a JSON header with bounded size, depth and integer length.

    Raises:
        FileFormatError: not UTF-8, not JSON, over ``max_bytes``, nested deeper than
            :data:`MAX_JSON_DEPTH`, or holding an integer of more than
            :data:`MAX_INTEGER_DIGITS` digits.
    """
    raw = data.encode() if isinstance(data, str) else bytes(data)
    if len(raw) > max_bytes:
        raise FileFormatError(
            f"{where} has a header of {format_bytes(len(raw))}, over {format_bytes(max_bytes)}"
        )
    bare = _STRINGS.sub(b'""', raw)
    codes = np.frombuffer(bare, dtype=np.uint8)
    steps = np.isin(codes, (ord("["), ord("{"))).astype(np.int64) - np.isin(
        codes, (ord("]"), ord("}"))
    )
    depth = int(np.cumsum(steps).max()) if steps.size else 0
    if depth > MAX_JSON_DEPTH:
        raise FileFormatError(
            f"{where} has a header nested {depth} deep; at most {MAX_JSON_DEPTH} is read"
        )
    if _LONG_INTEGER.search(bare):
        raise FileFormatError(
            f"{where} has a header with an integer of more than {MAX_INTEGER_DIGITS} digits"
        )
    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise FileFormatError(f"{where} has a header that is not UTF-8 text") from None
    except (ValueError, RecursionError) as exc:
        reason = str(exc).splitlines()[0][:120] if str(exc) else type(exc).__name__
        raise FileFormatError(f"{where} has a header that is not valid JSON: {reason}") from None


def read_npy(path: str | Path, *, shape: tuple[int, ...], kinds: str = "biuf") -> np.ndarray:
    """A ``.npy`` file's array, read only if it declares ``shape`` and a dtype of ``kinds``.

    For cache files pokerlab writes itself: the header is checked before any data is read.

    Raises:
        FileFormatError: a damaged file, or another shape or dtype declared.
        OSError: the file cannot be read.
    """
    where = repr(str(path))

    def damaged(reason: str) -> FileFormatError:
        return FileFormatError(f"{where} is not a readable .npy array: {reason}")

    with open(path, "rb") as handle:
        size = os.fstat(handle.fileno()).st_size
        info = parse_npy_header(handle.read(MAX_NPY_HEADER + 16), size, "array", damaged)
        if info.shape != shape or info.dtype.kind not in kinds:
            raise damaged(f"it declares {info.shape} ({info.dtype}), not {shape}")
        handle.seek(info.data_offset)
        data = np.fromfile(handle, dtype=info.dtype, count=math.prod(shape))
    if data.size != math.prod(shape):
        raise damaged("it ends before its declared size")
    return data.reshape(shape, order="F" if info.fortran_order else "C")


def check_zip_sizes(path: Path, *, where: str, limit: int) -> None:
    """Refuse a zip file of stored members (torch's ``.pt``) that could expand or is too large.

    torch writes its members uncompressed, so a compressed member can only be there to
    expand on loading: it is refused, and the members' declared sizes must fit ``limit``.

    Raises:
        FileFormatError: a damaged zip, more than :data:`MAX_MEMBERS` members, a compressed
            member, or over ``limit`` bytes declared.
    """
    try:
        with zipfile.ZipFile(path) as archive:
            members = archive.infolist()
    except _READ_ERRORS as exc:
        raise FileFormatError(f"{where} is not a readable zip archive: {exc}") from None
    if len(members) > MAX_MEMBERS:
        raise FileFormatError(f"{where} has {len(members)} members, over {MAX_MEMBERS}")
    for member in members:
        if member.compress_type != zipfile.ZIP_STORED:
            raise FileFormatError(
                f"{where} holds the compressed member {member.filename[:60]!r}; torch stores "
                "its members uncompressed, so this file was not written by torch.save"
            )
    total = sum(member.file_size for member in members)
    if total > limit:
        raise FileFormatError(
            f"{where} declares {format_bytes(total)} of data, over the limit of "
            f"{format_bytes(limit)} (POKERLAB_MEMORY_LIMIT raises it for a file you trust)"
        )


__all__ = [
    "ALLOWED_KINDS",
    "MAX_DIMENSION",
    "MAX_INTEGER_DIGITS",
    "MAX_JSON_BYTES",
    "MAX_JSON_DEPTH",
    "MAX_MEMBERS",
    "MAX_NPY_HEADER",
    "ArrayInfo",
    "NpzArchive",
    "check_zip_sizes",
    "format_bytes",
    "parse_json",
    "parse_npy_header",
    "read_npy",
]
