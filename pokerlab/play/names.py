"""The names agents play under: printable text only.

An agent's name comes from what a user gives (an entrant's file name, a program's, a
name on the command line) and reaches terminals (progress lines, tables), databases and
logs. A name with a control or other non-printable character (``ESC``, an OSC 52
clipboard write, a screen clear, a bidirectional override) would act on the terminal of
whoever reads it, so such a name is refused, never printed raw.
"""

from __future__ import annotations

from pokerlab.errors import SpecError

ALLOWED_NAMES = "printable text (letters, digits, punctuation, spaces; no control characters)"
"""What a name may hold, as error messages say it."""


def printable(text: str) -> str:
    """``text`` with every non-printable character escaped (as ``repr`` does), to show it."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def check_name(name: str, what: str, *, forbidden: str = "") -> str:
    """``name`` if it is printable text without any of ``forbidden``; else refuse it.

    Args:
        name: the name (a file's stem, a program's file name, a name given).
        what: what it names, for the message, escaped (``f"agent file {path!r}"``).
        forbidden: printable characters the name may not hold either (a format's separators).

    Raises:
        SpecError: naming ``what``, the name (escaped) and what is allowed.
    """
    bad = sorted({c for c in name if not c.isprintable() or c in forbidden})
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
