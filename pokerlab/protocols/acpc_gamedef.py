"""ACPC ``GAMEDEF`` files read and written as pokerlab Hold'em games.

The Annual Computer Poker Competition describes a game in a few ``key = values`` lines
between ``GAMEDEF`` and ``END GAMEDEF`` (``limit`` or ``nolimit``, numPlayers, numRounds,
blind, raiseSize, firstPlayer, maxRaises, numSuits, numRanks, numHoleCards,
numBoardCards, stack; keys are case-insensitive, ``#`` starts a comment). Each maps to a
``holdem(...)`` parameter (:mod:`pokerlab.games.holdem_rules`): blind -> ``seat_blinds``,
raiseSize -> ``raises``, maxRaises -> ``caps`` (absent: 255, the ACPC's), firstPlayer ->
``first`` (1-based there, 0-based here), numBoardCards -> ``board`` (its first round must
deal no board card), stack -> ``stack`` (absent: 2**31 - 1, the ACPC's). The ACPC has no
antes: a game with antes cannot be written.

Kuhn's and Leduc's gamedefs become the Hold'em configs universal_poker plays (one suit
of three ranks and blinds of 1; Leduc adds a second suit and a one-card flop): the same
games as :func:`pokerlab.games.kuhn` and :func:`pokerlab.games.leduc` (the LP values are
equal, tests/solvers/test_holdem_small.py), under Hold'em's card ids and action ids.

Standard files ship in ``pokerlab/protocols/gamedefs`` (:func:`standard_gamedef`).
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from pokerlab.errors import SpecError
from pokerlab.games import load
from pokerlab.games.holdem_state import HoldemGame

ACPC_MAX_RAISES = 255
"""maxRaises when a gamedef leaves it out (the ACPC's UINT8_MAX)."""
ACPC_STACK = 2**31 - 1
"""stack when a gamedef leaves it out (the ACPC's INT32_MAX)."""
STANDARD = (
    "holdem.limit.2p.reverse_blinds",
    "holdem.nolimit.2p.reverse_blinds",
    "holdem.limit.3p",
    "kuhn.limit.2p",
    "leduc.limit.2p",
)
"""The game definitions shipped with pokerlab."""

_KEYS = {
    k.lower(): k
    for k in (
        "numPlayers", "numRounds", "blind", "raiseSize", "firstPlayer", "maxRaises",
        "numSuits", "numRanks", "numHoleCards", "numBoardCards", "stack",
    )
}  # fmt: skip
_PER_PLAYER = ("blind", "stack")
_PER_ROUND = ("raiseSize", "firstPlayer", "maxRaises", "numBoardCards")


def parse_gamedef(text: str) -> HoldemGame:
    """The pokerlab Hold'em game of a ``GAMEDEF`` text.

    Raises:
        SpecError: a malformed line, an unknown key, a missing field or values that pokerlab
            cannot play (the message names the line or the field and what is allowed).
    """
    betting: str | None = None
    fields: dict[str, tuple[int, ...]] = {}
    started = ended = False
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        word = line.lower()
        if word == "gamedef" and not started:
            started = True
        elif word == "end gamedef":
            ended = True
            break
        elif not started:
            raise SpecError(f"gamedef line {number}: expected GAMEDEF first; got {raw!r}")
        elif word in ("limit", "nolimit"):
            betting = word
        elif "=" in line:
            key, _, values = line.partition("=")
            name = _KEYS.get(key.strip().lower())
            if name is None:
                raise SpecError(
                    f"gamedef line {number}: unknown field {key.strip()!r}; allowed: "
                    f"{', '.join(_KEYS.values())}"
                )
            try:
                fields[name] = tuple(int(v) for v in values.split())
            except ValueError:
                raise SpecError(
                    f"gamedef line {number}: {name} takes integers; got {values.strip()!r}"
                ) from None
        else:
            raise SpecError(
                f"gamedef line {number}: expected 'key = values', limit or nolimit; got {raw!r}"
            )
    if not started or not ended:
        raise SpecError("a gamedef runs from a GAMEDEF line to an END GAMEDEF line")
    if betting is None:
        raise SpecError("gamedef: no betting line; allowed: limit, nolimit")
    return load(_spec_text(betting, fields))  # type: ignore[return-value]


def _spec_text(betting: str, fields: dict[str, tuple[int, ...]]) -> str:
    for name in ("numPlayers", "numRounds", "blind", "firstPlayer", "numSuits", "numRanks",
                 "numHoleCards", "numBoardCards"):  # fmt: skip
        if name not in fields:
            raise SpecError(f"gamedef: the {name} field is missing")
    (players,) = _one(fields, "numPlayers")
    (rounds,) = _one(fields, "numRounds")
    for name in _PER_PLAYER:
        if name in fields and len(fields[name]) < players:
            raise SpecError(f"gamedef: {name} needs one value per player ({players})")
    for name in _PER_ROUND:
        if name in fields and len(fields[name]) < rounds:
            raise SpecError(f"gamedef: {name} needs one value per round ({rounds})")
    if betting == "limit" and "raiseSize" not in fields:
        raise SpecError("gamedef: a limit game needs raiseSize")
    board = fields["numBoardCards"][:rounds]
    if board[0]:
        raise SpecError(f"gamedef: numBoardCards must deal no card in round 1; got {board[0]}")
    stacks = fields.get("stack", (ACPC_STACK,) * players)[:players]
    first = ",".join(str(f - 1) for f in fields["firstPlayer"][:rounds])
    parts = [
        f"betting={betting!r}", f"players={players}",
        f"seat_blinds={tuple(fields['blind'][:players])!r}",
        f"stack={stacks[0] if len(set(stacks)) == 1 else tuple(stacks)!r}",
        f"ranks={_one(fields, 'numRanks')[0]}", f"suits={_one(fields, 'numSuits')[0]}",
        f"hole={_one(fields, 'numHoleCards')[0]}",
        f"board={','.join(str(b) for b in board[1:])!r}", f"first={first!r}",
    ]  # fmt: skip
    if betting == "limit":
        caps = fields.get("maxRaises", (ACPC_MAX_RAISES,) * rounds)[:rounds]
        parts.append(f"raises={','.join(str(r) for r in fields['raiseSize'][:rounds])!r}")
        parts.append(f"caps={','.join(str(c) for c in caps)!r}")
    return f"holdem({', '.join(parts)})"


def _one(fields: dict[str, tuple[int, ...]], name: str) -> tuple[int]:
    values = fields[name]
    if len(values) != 1:
        raise SpecError(f"gamedef: {name} takes one value; got {' '.join(map(str, values))}")
    return (values[0],)


def format_gamedef(game: HoldemGame) -> str:
    """The ``GAMEDEF`` text of a Hold'em game (:func:`parse_gamedef` reads it back equal).

    Raises:
        SpecError: if the game has antes (the ACPC format has none).
    """
    rules = game.rules
    if rules.ante:
        raise SpecError(f"the ACPC gamedef format has no antes; {game.spec} antes {rules.ante}")
    openers = (rules.preflop_opener, *rules.openers[1:])
    new_cards = [rules.board_sizes[0]] + [
        rules.board_sizes[s] - rules.board_sizes[s - 1] for s in range(1, rules.n_streets)
    ]
    nominal = [b if p else 0 for b, p in zip(rules.blinds_paid, rules.posts_blind, strict=True)]
    lines = ["GAMEDEF", rules.betting, f"numPlayers = {rules.n_players}",
             f"numRounds = {rules.n_streets}", f"stack = {_join(rules.starting_stacks)}",
             f"blind = {_join(nominal)}"]  # fmt: skip
    if not rules.no_limit:
        lines.append(f"raiseSize = {_join(rules.street_bets)}")
    lines.append(f"firstPlayer = {_join(int(o or 0) + 1 for o in openers)}")
    if not rules.no_limit:
        lines.append(f"maxRaises = {_join(c if c is not None else 255 for c in rules.raise_caps)}")
    lines += [f"numSuits = {rules.n_suits}", f"numRanks = {rules.n_ranks}",
              f"numHoleCards = {rules.hole_size}", f"numBoardCards = {_join(new_cards)}",
              "END GAMEDEF"]  # fmt: skip
    return "\n".join(lines) + "\n"


def _join(values: object) -> str:
    return " ".join(str(v) for v in values)  # type: ignore[attr-defined]


def read_gamedef(path: str | Path) -> HoldemGame:
    """The game of a ``GAMEDEF`` file.

    Raises:
        SpecError: as :func:`parse_gamedef`, or when the file cannot be read.
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise SpecError(f"cannot read gamedef {path}: {exc.strerror}") from exc
    return parse_gamedef(text)


def standard_gamedef(name: str) -> str:
    """The text of a shipped game definition (one of :data:`STANDARD`).

    Raises:
        SpecError: for an unknown name (lists the known ones).
    """
    if name not in STANDARD:
        raise SpecError(f"unknown standard gamedef {name!r}; known: {', '.join(STANDARD)}")
    return resources.files("pokerlab.protocols").joinpath("gamedefs", f"{name}.game").read_text()


def load_acpc_game(text: str) -> HoldemGame:
    """The game a command line names: a ``GAMEDEF`` file, a standard name, or a spec.

    In that order: ``text`` is the path of a gamedef file if such a file exists; else one
    of :data:`STANDARD` (``.game`` may follow it); else a pokerlab Hold'em spec such as
    ``holdem(betting='limit')``. ``kuhn`` and ``leduc`` (their standard rules) are their
    ACPC gamedefs, ``kuhn.limit.2p`` and ``leduc.limit.2p``, whose strategies from
    ``pokerlab solve kuhn`` and ``solve leduc`` play (:mod:`pokerlab.protocols.acpc_native`).
    Other games ACPC cannot play (variants of Kuhn and Leduc, a matrix game) are refused
    with the gamedef names that play them.

    Raises:
        SpecError: if ``text`` is none of the three (the message lists what is allowed),
            or names a gamedef file that is malformed.
    """
    if Path(text).is_file():
        return read_gamedef(text)
    name = text.removesuffix(".game")
    if name in STANDARD:
        return parse_gamedef(standard_gamedef(name))
    allowed = (
        f"a GAMEDEF file, a standard gamedef ({', '.join(STANDARD)}) or a Hold'em spec "
        "such as holdem(betting='limit')"
    )
    try:
        game = load(text)
    except SpecError as error:
        where = "" if not text.endswith(".game") else f" (no file {text!r})"
        raise SpecError(f"game {text!r}{where} is not {allowed}: {error}") from None
    if str(game.spec) in ("kuhn", "leduc"):  # pokerlab's own: played as ACPC's gamedef
        return parse_gamedef(standard_gamedef(f"{game.spec}.limit.2p"))
    if not isinstance(game, HoldemGame):
        raise SpecError(
            f"ACPC plays Hold'em-family games; {text!r} is {game.spec}. Give {allowed} "
            "(Kuhn and Leduc: kuhn.limit.2p, leduc.limit.2p)"
        )
    return game


__all__ = [
    "ACPC_MAX_RAISES",
    "ACPC_STACK",
    "STANDARD",
    "format_gamedef",
    "load_acpc_game",
    "parse_gamedef",
    "read_gamedef",
    "standard_gamedef",
]
