"""The names agents play under: printable ASCII only.

An agent's name comes from what a user gives (an entrant's file name, a program's, a
name on the command line) and reaches terminals (progress lines, tables), databases and
logs. A name with a control or other non-printable character (``ESC``, an OSC 52
clipboard write, a screen clear, a bidirectional override) would act on the terminal of
whoever reads it, so such a name is refused, never printed raw.
"""

from __future__ import annotations

from pokerlab.errors import SpecError

ALLOWED_NAMES = ("printable ASCII (letters, digits, punctuation, spaces; no control "
                 "characters, no letter of another alphabet)")
"""What a name may hold, as error messages say it."""


def printable(text: str) -> str:
    """``text`` with every non-printable character escaped (as ``repr`` does), to show it."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def check_name(name: str, what: str, *, forbidden: str = "", ascii_only: bool = True) -> str:
    """``name`` if it is printable ASCII without any of ``forbidden``; else refuse it.

    ASCII: a letter of another alphabet can pass for a Latin one (a Cyrillic ``а`` in
    ``rаndom``), and some printable characters show as nothing (U+3164, U+2800), so that
    one entrant could pass for another, or for none, on a leaderboard.

    Args:
        name: the name (a file's stem, a program's file name, a name given).
        what: what it names, for the message, escaped (``f"agent file {path!r}"``).
        forbidden: printable characters the name may not hold either (a format's separators).
        ascii_only: False for text that names no entrant (a file's folder): printable only.

    Raises:
        SpecError: naming ``what``, the name (escaped) and what is allowed.
    """
    bad = sorted({c for c in name if not c.isprintable() or c in forbidden
                  or (ascii_only and not c.isascii())})
    if name.strip() == name and name and not bad:
        return name
    if not name.strip():
        raise SpecError(f"{what}: the name is empty or blank; allowed: {ALLOWED_NAMES}")
    if not bad:  # " bot" would show as "bot" in a table's column
        raise SpecError(f"{what}: its name {name!r} starts or ends with a space; allowed: "
                        f"{ALLOWED_NAMES}, without spaces around it")
    extra = f", without {' '.join(forbidden)}" if forbidden else ""
    shown = " ".join(repr(c) for c in bad)
    raise SpecError(f"{what}: its name holds {shown}; allowed: {ALLOWED_NAMES}{extra}")


__all__ = ["ALLOWED_NAMES", "check_name", "printable"]
