"""The ACPC log as the reference dealer (University of Alberta) writes it, and read back.

A log is, in order: header comments, one ``STATE:`` line per hand, and a final
``SCORE:`` line::

    # name/game/hands/seed <match> <game> <hands> <seed>
    #--t_response <ms>
    #--t_hand <ms>
    #--t_per_hand <ms>
    STATE:<hand>:<betting>:<cards>:<result 1>|<result 2>:<name 1>|<name 2>
    ...
    SCORE:<total 1>|<total 2>:<name 1>|<name 2>

``STATE:`` results are in the hand's positions' order (the names say whose); ``SCORE:``
totals are each entrant's sum over the match, in the order the dealer was given the names.
Chips are written as the reference does: ``%.6f`` less trailing zeros
(:func:`~pokerlab.play.acpc_matchstate.format_chips`). A time limit pokerlab does not set
(per hand, per match: none by default) has no ``#--t_...`` line. Other ``#`` lines (the
seats' faults) are comments, as ACPC's tools read them.

The log is written atomically (:class:`AcpcLogWriter`): the hands go to a file beside it
and the whole log is moved into place at the end, even when interrupted (then without
its ``SCORE:`` line). The header is written then too, so a deal seed kept secret during
the match never sits in a file the clients might read.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, TextIO

from pokerlab.errors import FileFormatError
from pokerlab.play.acpc_matchstate import format_chips
from pokerlab.play.acpc_seat import TimeLimits
from pokerlab.strategy.io import write_file_atomic

HEADER_PREFIX = "# name/game/hands/seed "
SCORE_PREFIX = "SCORE:"


def log_header(
    match: str, game: str, hands: int, seed: int, limits: TimeLimits | None = None
) -> list[str]:
    """The reference dealer's header lines: match name, game, hands, seed and time limits.

    ``match`` and ``game`` lose any whitespace (the header's fields are separated by
    spaces). Limits are written in milliseconds as the reference does: ``t_response`` per
    action, ``t_hand`` per hand and ``t_per_hand`` the match's limit divided by ``hands``.
    """
    match, game = "".join(match.split()) or "match", "".join(game.split())
    lines = [f"{HEADER_PREFIX}{match} {game} {hands} {seed}"]
    limits = limits or TimeLimits(per_action=None)
    if limits.per_action is not None:
        lines.append(f"#--t_response {int(limits.per_action * 1000)}")
    if limits.per_hand is not None:
        lines.append(f"#--t_hand {int(limits.per_hand * 1000)}")
    if limits.per_match is not None:
        lines.append(f"#--t_per_hand {int(limits.per_match * 1_000_000) // hands // 1000}")
    return lines


def score_line(totals: Sequence[float], names: Sequence[str]) -> str:
    """``SCORE:<total 1>|...:<name 1>|...``: each entrant's chips over the match."""
    return f"{SCORE_PREFIX}{'|'.join(map(format_chips, totals))}:{'|'.join(names)}"


class AcpcLogWriter:
    """Writes a log atomically: hands as they end, the header and score once it is over.

    The hands wait in a new file of a random name beside ``path``, readable by its owner
    only (``mkstemp``: made, never opened through a planted link): they hold every hole
    card, folded hands included, while the match is still being played.

    Args:
        path: the log file.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        descriptor, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".hands",
                                            dir=path.parent)
        self._body = Path(name)
        self._handle: TextIO | None = os.fdopen(descriptor, "w", encoding="ascii")

    def __call__(self, line: str) -> None:
        """Write one ``STATE:`` or comment line."""
        if self._handle is not None:
            self._handle.write(line + "\n")

    def close(self, header: Sequence[str], last: Sequence[str] = ()) -> None:
        """Write ``header``, the hands, then ``last``, and move the log into place."""
        if self._handle is None:
            return
        self._handle.close()
        self._handle = None

        def write(out: BinaryIO) -> None:
            out.writelines((line + "\n").encode("ascii") for line in header)
            with self._body.open("rb") as body:
                shutil.copyfileobj(body, out)
            out.writelines((line + "\n").encode("ascii") for line in last)

        try:
            write_file_atomic(self.path, write)
        finally:
            with contextlib.suppress(OSError):
                self._body.unlink()


@dataclass(frozen=True)
class AcpcLog:
    """A log read back: its header fields, hands and score.

    Attributes:
        match: the match name of the header (None without a header).
        game: the game of the header.
        hands: the hands the header announces.
        seed: the seed of the header.
        limits: the header's ``#--t_...`` values by name (milliseconds).
        states: the ``STATE:`` lines, in order.
        results: per hand, each name's result (chips).
        totals: the ``SCORE:`` line's totals by name (None without one).
    """

    match: str | None
    game: str | None
    hands: int | None
    seed: int | None
    limits: dict[str, int]
    states: tuple[str, ...]
    results: tuple[dict[str, float], ...]
    totals: dict[str, float] | None


def read_acpc_log(path: str | Path) -> AcpcLog:
    """Read a log in the reference dealer's format (pokerlab's or the reference's own).

    Raises:
        FileFormatError: a missing file, a malformed header, ``STATE:`` or ``SCORE:`` line
            (naming the line), a ``SCORE:`` line that is not the last, or a file with none
            of them (empty).
    """
    path = Path(path)
    try:
        lines = path.read_text(encoding="ascii").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise FileFormatError(f"cannot read the ACPC log {str(path)!r} ({error})") from None
    header: list[str] | None = None
    limits: dict[str, int] = {}
    states: list[str] = []
    results: list[dict[str, float]] = []
    totals: dict[str, float] | None = None
    for number, line in enumerate(lines, start=1):
        where = f"{path}:{number}"
        if totals is not None and line and not line.startswith("#"):
            raise FileFormatError(f"{where}: a line after the SCORE: line")
        if line.startswith(HEADER_PREFIX):
            header = line[len(HEADER_PREFIX) :].split()
            if len(header) != 4 or not (header[2].isdigit() and header[3].isdigit()):
                raise FileFormatError(f"{where}: header {line!r} is not "
                                      f"'{HEADER_PREFIX}<match> <game> <hands> <seed>'")
        elif line.startswith("#--t_"):
            name, _, value = line[3:].partition(" ")
            if not value.isdigit():
                raise FileFormatError(f"{where}: {line!r} gives no milliseconds")
            limits[name] = int(value)
        elif line.startswith("STATE:"):
            parts = line.split(":")
            if len(parts) != 6:
                raise FileFormatError(f"{where}: not a STATE:<hand>:<betting>:<cards>:"
                                      f"<results>:<names> line: {line[:80]!r}")
            states.append(line)
            results.append(_by_name(parts[4], parts[5], where))
        elif line.startswith(SCORE_PREFIX):
            parts = line.split(":")
            if len(parts) != 3:
                raise FileFormatError(f"{where}: not a SCORE:<totals>:<names> line: {line!r}")
            totals = _by_name(parts[1], parts[2], where)
        elif line and not line.startswith("#"):
            raise FileFormatError(f"{where}: not a line of an ACPC log: {line[:80]!r}")
    if header is None and not states and totals is None:  # an empty file, comments only
        raise FileFormatError(f"{path} holds no line of an ACPC log: no header "
                              f"('{HEADER_PREFIX}...'), STATE: or SCORE: line")
    return AcpcLog(
        match=None if header is None else header[0],
        game=None if header is None else header[1],
        hands=None if header is None else int(header[2]),
        seed=None if header is None else int(header[3]),
        limits=limits,
        states=tuple(states),
        results=tuple(results),
        totals=totals,
    )


def _by_name(values: str, names: str, where: str) -> dict[str, float]:
    chips, who = values.split("|"), names.split("|")
    try:
        numbers = [float(v) for v in chips]
    except ValueError:
        raise FileFormatError(f"{where}: {values!r} are not chip counts") from None
    if len(numbers) != len(who) or len(set(who)) != len(who):
        raise FileFormatError(f"{where}: {values!r} and {names!r} do not pair one to one")
    return dict(zip(who, numbers, strict=True))


__all__ = [
    "HEADER_PREFIX",
    "SCORE_PREFIX",
    "AcpcLog",
    "AcpcLogWriter",
    "log_header",
    "read_acpc_log",
    "score_line",
]
