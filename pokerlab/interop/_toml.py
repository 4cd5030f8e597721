"""A small TOML writer for PHH files: the values a hand history holds, nothing more.

Python reads TOML (``tomllib``) but does not write it. PHH files need strings, integers,
floats, booleans, arrays and inline tables, which :func:`toml_value` writes; strings are
basic strings with every character TOML forbids escaped, so any text (a fault's detail, a
player's name) reads back as written.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f",
            "\r": "\\r"}


def toml_string(text: str) -> str:
    r"""``text`` as a TOML basic string: quotes, backslashes and control characters escaped.

    Characters that are not Unicode scalar values (lone surrogates) cannot be written in
    TOML at all; they become U+FFFD.

    Example:
        >>> print(toml_string('say "hi"\n'))
        "say \"hi\"\n"
    """
    out = []
    for char in text:
        escaped = _ESCAPES.get(char)
        if 0xD800 <= ord(char) <= 0xDFFF:
            out.append("\ufffd")
        elif escaped is not None:
            out.append(escaped)
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def toml_key(key: str) -> str:
    """``key`` bare when TOML allows it (letters, digits, ``_``, ``-``), else quoted."""
    return key if _BARE_KEY.fullmatch(key) else toml_string(key)


def toml_value(value: object) -> str:
    """One TOML value on one line: str, bool, int, float, a sequence or a mapping.

    Raises:
        TypeError: for any other type (a bug of the caller, never of the input).
    """
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, Mapping):
        pairs = ", ".join(f"{toml_key(str(k))} = {toml_value(v)}" for k, v in value.items())
        return "{" + pairs + "}"
    if isinstance(value, Sequence):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    raise TypeError(f"cannot write a {type(value).__name__} as a TOML value")


def toml_document(fields: Mapping[str, object], *, long_arrays: Sequence[str] = ()) -> str:
    """``key = value`` lines; the arrays named in ``long_arrays`` get one element per line."""
    lines = []
    for key, value in fields.items():
        if key in long_arrays and isinstance(value, Sequence) and not isinstance(value, str):
            lines.append(f"{toml_key(key)} = [")
            lines.extend(f"  {toml_value(item)}," for item in value)
            lines.append("]")
        else:
            lines.append(f"{toml_key(key)} = {toml_value(value)}")
    return "\n".join(lines) + "\n"


__all__ = ["toml_document", "toml_key", "toml_string", "toml_value"]
