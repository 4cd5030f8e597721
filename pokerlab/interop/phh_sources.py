"""Where pokerlab keeps hands, read as PHH hands; folders of PHH files written and read.

pokerlab keeps hands in four places, each read here into :class:`~pokerlab.interop.phh.PhhHand`
objects grouped in :class:`HandBatch` es (one batch, one ``.phhs`` file):

- an arena database (:func:`arena_batches`): one batch per match, read through the store's
  reading methods (``runs``, ``agents``, ``matches``, ``hands``), the players named after
  the entrants;
- a match's result (:func:`match_batch`): ``pokerlab match --hands-out DIR``;
- a web table's session (:func:`session_batch`): every hand of a Hold'em table, each with
  its own game (stacks carry over from hand to hand);
- an ACPC log (:func:`acpc_log_batch`): the dealer's ``STATE:`` lines, read with the
  match-state codec (:mod:`pokerlab.play.acpc_matchstate`); ``#`` comments and the
  ``SCORE:`` line are skipped. The log does not name its game: the caller gives it.

:func:`write_batches` writes them (atomically, file by file); :func:`read_phh_paths` reads
files and folders of ``.phh`` / ``.phhs`` files back, and :func:`assign_agents` numbers
the players of hands from many files so that one name is one agent throughout.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import BinaryIO

from pokerlab._types import TERMINAL
from pokerlab.arena.store import ArenaStore
from pokerlab.errors import FileFormatError, PokerlabError, ProtocolError, SpecError
from pokerlab.games import Game, load
from pokerlab.games.holdem import HoldemGame
from pokerlab.interop.phh import EXTENSIONS, PhhHand, dumps_phh, loads_phh, phh_game_fields
from pokerlab.play.acpc_matchstate import parse_matchstate, state_from_matchstate
from pokerlab.play.records import HandRecord
from pokerlab.strategy.io import write_file_atomic


@dataclass(frozen=True)
class HandBatch:
    """Hands to write together: one ``.phhs`` file (or a folder of ``.phh`` files).

    Attributes:
        name: the file's stem (``arena-run1-match3``).
        count: how many hands ``hands`` gives.
        hands: the hands, read when iterated (a batch of an arena is read from the database
            only then).
    """

    name: str
    count: int
    hands: Callable[[], Iterable[PhhHand]]


def unique_names(names: Sequence[str]) -> tuple[str, ...]:
    """``names`` with repeats numbered (``random``, ``random#2``): one name, one agent.

    Example:
        >>> unique_names(["random", "easy", "random"])
        ('random', 'easy', 'random#2')
    """
    seen: dict[str, int] = {}
    out = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
    return tuple(out)


def _holdem(game: Game, where: str) -> HoldemGame:
    """``game`` when PHH can hold its hands, else a clear error naming ``where``."""
    try:
        phh_game_fields(game)
    except SpecError as exc:
        raise SpecError(f"{where}: {exc}") from None
    assert isinstance(game, HoldemGame)
    return game


def _hands(game: HoldemGame, records: Iterable[HandRecord], names: Sequence[str] | None,
           event: str | None) -> Iterator[PhhHand]:
    for record in records:
        players = None if names is None else tuple(names[agent] for agent in record.seats)
        yield PhhHand(game, record, players, event)


# -- sources -------------------------------------------------------------------------------


def arena_batches(path: str | Path, run_id: int | None = None) -> list[HandBatch]:
    """One batch per match of an arena run (default: the latest run of the database).

    Raises:
        PokerlabError: a missing file or one that is not an arena database, a run that
            does not exist, or a run of a game PHH cannot hold (Kuhn, Leduc...).
    """
    shown = str(path)
    with ArenaStore(path, readonly=True) as store:
        run = store.run(run_id)
        game = _holdem(load(run.game), f"run {run.id} of {shown!r}")
        by_id = {agent.id: agent.name for agent in store.agents(run.id)}
        batches = []
        for match in store.matches(run.id):
            names = unique_names([by_id[a] for a in match.agents])
            event = f"pokerlab arena run {run.id}, match {match.match_index}"
            count = store.hands_done(match.id)
            batches.append(HandBatch(
                f"arena-run{run.id}-match{match.match_index}", count,
                _arena_reader(path, match.id, game, names, event),
            ))
    return batches


def _arena_reader(path: str | Path, match_id: int, game: HoldemGame, names: Sequence[str],
                  event: str) -> Callable[[], Iterable[PhhHand]]:
    def read() -> Iterable[PhhHand]:
        with ArenaStore(path, readonly=True) as store:
            records = store.hands(match_id)
        return _hands(game, records, names, event)

    return read


def match_batch(game: Game, records: Sequence[HandRecord], agent_names: Sequence[str], *,
                name: str = "match", event: str | None = None) -> HandBatch:
    """A played match's hands (``records`` by agent index, ``agent_names`` in that order).

    Raises:
        SpecError: a game PHH cannot hold.
    """
    holdem = _holdem(game, "the match")
    names = unique_names(agent_names)
    return HandBatch(name, len(records), lambda: _hands(holdem, records, names, event))


def session_batch(hands: Sequence[tuple[HoldemGame, HandRecord]], seat_names: Sequence[str], *,
                  name: str = "session", event: str | None = None) -> HandBatch:
    """A Hold'em session's hands: each with its game; ``record.seats`` are table seats.

    Raises:
        SpecError: a hand of a game PHH cannot hold.
    """
    for game, record in hands:
        _holdem(game, f"hand {record.hand}")
    names = unique_names(seat_names)

    def read() -> Iterator[PhhHand]:
        for game, record in hands:
            yield from _hands(game, [record], names, event)

    return HandBatch(name, len(hands), read)


def acpc_log_batch(path: str | Path, game: Game) -> HandBatch:
    """The hands of an ACPC log (``STATE:<hand>:<betting>:<cards>:<returns>:<names>`` lines).

    Each line is replayed in ``game`` by the match-state codec and its returns checked
    against the line's. Players are numbered by name, in order of first appearance.

    Raises:
        FileFormatError: a missing file, a line that is not an ACPC log line, a hand that
            does not fit ``game`` or whose returns differ (naming the line).
        SpecError: a game PHH cannot hold.
    """
    path = Path(path)
    holdem = _holdem(game, "the log's game")
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        raise FileFormatError(f"ACPC log {str(path)!r} does not exist") from None
    except IsADirectoryError:
        raise FileFormatError(f"ACPC log {str(path)!r} is a folder; give the log file") from None
    except UnicodeDecodeError:
        raise FileFormatError(f"{str(path)!r} is not an ACPC log: not text") from None
    agents: dict[str, int] = {}
    records = []
    for number, line in enumerate(lines, start=1):
        text = line.strip()
        if not text or text.startswith(("#", "SCORE:")):
            continue
        record, names = _acpc_line(holdem, text, f"{path}:{number}")
        for seat_name in names:
            agents.setdefault(seat_name, len(agents))
        records.append(replace(record, seats=tuple(agents[s] for s in names)))
    if not records:
        raise FileFormatError(f"{str(path)!r} holds no ACPC STATE: line")
    players = tuple(agents)
    if len(players) < holdem.n_players:
        raise FileFormatError(f"{str(path)!r} names {len(players)} players for "
                              f"{holdem.n_players} seats")
    event = f"ACPC log {path.name}"
    return HandBatch(path.stem, len(records), lambda: _hands(holdem, records, players, event))


def _acpc_line(game: HoldemGame, text: str, where: str) -> tuple[HandRecord, list[str]]:
    n = game.n_players
    parts = text.split(":")
    if parts[0] != "STATE" or len(parts) != 6:
        raise FileFormatError(
            f"{where}: not an ACPC log line (STATE:<hand>:<betting>:<cards>:<returns>:<names>, "
            f"SCORE:... or # ...): {text[:80]!r}"
        )
    _, hand, betting, cards, returns_text, names_text = parts
    try:
        message = parse_matchstate(f"MATCHSTATE:0:{hand}:{betting}:{cards}")
        if len(message.hole) != n or not all(message.hole):
            raise ProtocolError(f"the log shows {sum(map(bool, message.hole))} of {n} "
                                "players' hole cards; a log line shows them all")
        state = state_from_matchstate(game, message)
    except ProtocolError as exc:
        raise FileFormatError(f"{where}: {exc}") from None
    if state.player != TERMINAL:
        raise FileFormatError(f"{where}: the hand stops before its end")
    names = names_text.split("|")
    try:
        stated = [float(r) for r in returns_text.split("|")]
    except ValueError:
        stated = []
    if len(names) != n or len(stated) != n:
        raise FileFormatError(f"{where}: returns and names must give the {n} seats one each")
    returns = tuple(float(r) for r in state.returns())
    if list(returns) != stated:
        raise FileFormatError(f"{where}: the line's returns {stated} differ from the hand's "
                              f"{list(returns)} in {game.spec}: is it the log's game?")
    record = HandRecord(hand=message.hand_number, deal=message.hand_number, seats=tuple(range(n)),
                        returns=returns, history=tuple(int(a) for a in state.history))
    return record, names


# -- writing and reading folders -------------------------------------------------------------


def write_batches(batches: Sequence[HandBatch], out: str | Path, *, per_hand: bool = False,
                  progress: Callable[[int], None] | None = None) -> list[Path]:
    """Write each batch as ``OUT/<name>.phhs`` (or ``OUT/<name>/<hand>.phh`` with ``per_hand``).

    Every file is written atomically (a reader sees none or all of it); an interrupted
    export leaves whole files, and running it again rewrites them. ``progress`` is called
    with the number of hands written so far.

    Returns:
        The files written.
    """
    out = Path(out)
    written: list[Path] = []
    done = 0
    for batch in batches:
        if per_hand:
            for hand in batch.hands():
                path = out / batch.name / f"hand{hand.record.hand:06d}.phh"
                _write_text(path, dumps_phh(hand))
                written.append(path)
                done += 1
                if progress is not None:
                    progress(done)
            continue
        parts = []
        for k, hand in enumerate(batch.hands(), start=1):
            parts.append(f"[{k}]\n{dumps_phh(hand)}")
            done += 1
            if progress is not None and done % 100 == 0:
                progress(done)
        path = out / f"{batch.name}.phhs"
        _write_text(path, "\n".join(parts))
        written.append(path)
        if progress is not None:
            progress(done)
    return written


def _write_text(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically."""
    data = text.encode("utf-8")

    def write(handle: BinaryIO) -> None:
        handle.write(data)

    write_file_atomic(path, write)


def phh_paths(paths: Iterable[str | Path]) -> list[Path]:
    """The PHH files named: files as given, folders searched for ``.phh`` and ``.phhs`` files.

    Raises:
        FileFormatError: a path that does not exist, a file not ending in ``.phh`` or
            ``.phhs``, or a folder holding none.
    """
    found: list[Path] = []
    for item in paths:
        path = Path(item)
        if path.is_dir():
            inside = sorted(p for p in path.rglob("*") if p.suffix in EXTENSIONS and p.is_file())
            if not inside:
                raise FileFormatError(f"folder {str(path)!r} holds no .phh or .phhs file")
            found.extend(inside)
        elif not path.exists():
            raise FileFormatError(f"PHH file {str(path)!r} does not exist")
        elif path.suffix not in EXTENSIONS:
            raise FileFormatError(f"{str(path)!r} is not a PHH file; allowed: .phh, .phhs files "
                                  "or folders of them")
        else:
            found.append(path)
    return found


def read_phh_paths(paths: Iterable[str | Path],
                   progress: Callable[[int, int], None] | None = None) -> list[list[PhhHand]]:
    """The hands of each PHH file named (folders searched), one list per file.

    ``progress`` is called with the files read and the files in all.

    Raises:
        FileFormatError, SpecError: as :func:`phh_paths` and :func:`~pokerlab.interop.phh.loads_phh`
            (the message starts with the file's name).
    """
    files = phh_paths(paths)
    out = []
    for k, path in enumerate(files, start=1):
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise FileFormatError(f"{str(path)!r} is not PHH: not UTF-8 text") from None
        out.append(loads_phh(text, source=str(path)))
        if progress is not None:
            progress(k, len(files))
    return out


@dataclass(frozen=True)
class ImportedHands:
    """Hands of many PHH files, their players numbered as agents.

    Attributes:
        hands: every hand, with ``record.seats`` giving each seat's agent and ``record.deal``
            a deal id unique across files (the hands of one deal share it).
        agent_names: the name of each agent (``p1``.. for hands that name no players).
    """

    hands: tuple[PhhHand, ...]
    agent_names: tuple[str, ...]


def assign_agents(files: Sequence[Sequence[PhhHand]]) -> ImportedHands:
    """Number the players of ``files`` by name: the same name is the same agent everywhere.

    A hand without names counts its seats as players ``p1``, ``p2``...; a hand that names
    one player in two seats is refused. Deal ids are made unique per file (hands of one
    deal in one file keep sharing theirs: a duplicate match's rotations).

    Raises:
        PokerlabError: a hand naming one player twice.
    """
    agents: dict[str, int] = {}
    hands: list[PhhHand] = []
    deals: dict[tuple[int, int], int] = {}
    for file_index, file_hands in enumerate(files):
        for hand in file_hands:
            names = hand.players or tuple(f"p{s + 1}" for s in range(hand.game.n_players))
            if len(set(names)) != len(names):
                raise PokerlabError(f"hand {hand.record.hand} names a player twice: "
                                    f"{', '.join(names)}")
            for name in names:
                agents.setdefault(name, len(agents))
            deal = deals.setdefault((file_index, hand.record.deal), len(deals))
            record = replace(hand.record, seats=tuple(agents[name] for name in names), deal=deal)
            hands.append(replace(hand, record=record, players=tuple(names)))
    return ImportedHands(tuple(hands), tuple(agents))


__all__ = [
    "HandBatch",
    "ImportedHands",
    "acpc_log_batch",
    "arena_batches",
    "assign_agents",
    "match_batch",
    "phh_paths",
    "read_phh_paths",
    "session_batch",
    "unique_names",
    "write_batches",
]
