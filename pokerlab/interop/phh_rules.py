"""PHH's rules fields: a pokerlab Hold'em game as PHH's variant, blinds, bets and stacks, and back.

See :mod:`pokerlab.interop.phh` for what PHH expresses and what is refused.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from pokerlab.errors import FileFormatError, SpecError
from pokerlab.games import Game
from pokerlab.games.holdem import HoldemGame, HoldemRules, holdem
from pokerlab.play.records import HandRecord

VARIANTS = {"FT": "fixed-limit Texas hold'em", "NT": "no-limit Texas hold'em"}
"""The PHH variants pokerlab reads and writes, and what they are."""

OTHER_VARIANTS = {
    "NS": "no-limit short-deck hold'em",
    "PO": "pot-limit Omaha hold'em",
    "FO/8": "fixed-limit Omaha hold'em high/low-split eight or better",
    "F7S": "fixed-limit seven card stud",
    "F7S/8": "fixed-limit seven card stud high/low-split eight or better",
    "FR": "fixed-limit razz",
    "N2L1D": "no-limit deuce-to-seven lowball single draw",
    "F2L3D": "fixed-limit deuce-to-seven lowball triple draw",
    "FB": "fixed-limit badugi",
}
"""PHH's other variants (the specification's table): no pokerlab game plays them."""

PHH_LIMIT_CAP = 4
"""Bets and raises per street in PHH's ``FT`` (pokerkit's fixed-limit games), the blinds
not counting."""

EXTENSIONS = (".phh", ".phhs")
"""File name endings: one hand, many hands."""

REQUIRED_FIELDS = ("variant", "antes", "blinds_or_straddles", "starting_stacks", "actions")
"""The fields every PHH hand of pokerlab's variants has."""
_BET_FIELDS = {"NT": ("min_bet",), "FT": ("small_bet", "big_bet")}


@dataclass(frozen=True)
class PhhHand:
    """One hand as PHH holds it: the game, pokerlab's record of the hand, the players' names.

    Attributes:
        game: the hand's rules (a Texas Hold'em game).
        record: the hand: its seats (the agent in each seat), returns and full history.
        players: the name in each seat (PHH's ``players``), or None.
        event: a line saying where the hand was played (PHH's ``event``), or None.
    """

    game: HoldemGame
    record: HandRecord
    players: tuple[str, ...] | None = None
    event: str | None = None


def phh_game_fields(game: Game) -> dict[str, object]:
    """PHH's fields for ``game``'s rules: variant, antes, blinds, bet sizes, stacks.

    Raises:
        SpecError: a game PHH cannot express (Kuhn, Leduc, another Hold'em deck or board, a
            limit game with more raises than ``FT`` allows...), saying what differs.
    """
    if not isinstance(game, HoldemGame):
        raise SpecError(
            f"PHH has no variant for {game.spec}: its variants are Texas hold'em (FT, NT), "
            "short-deck, Omaha, stud, razz, draw and badugi games; pokerlab writes PHH for "
            "Texas Hold'em (holdem) only"
        )
    rules = game.rules
    texas = (rules.n_ranks, rules.n_suits, rules.hole_size, rules.board_sizes)
    if texas != (13, 4, 2, (0, 3, 4, 5)):
        raise SpecError(
            f"PHH has no variant for {game.spec}: PHH's hold'em is Texas Hold'em (52 cards, 2 "
            "hole cards, board 3,1,1)"
        )
    n = rules.n_players
    nominal = _nominal_blinds(game)
    fields: dict[str, object] = {
        "variant": "NT" if rules.no_limit else "FT",
        "antes": [rules.ante] * n,
        "blinds_or_straddles": [nominal[1], nominal[0]] if n == 2 else list(nominal),
    }
    bets = rules.street_bets
    if rules.no_limit:
        fields["min_bet"] = bets[0]
    else:
        if bets[0] != bets[1] or bets[2] != bets[3]:
            raise SpecError(
                f"PHH's FT has one bet size preflop and on the flop, another on the turn and "
                f"river; {game.spec} bets {bets}"
            )
        fields["small_bet"], fields["big_bet"] = bets[0], bets[2]
        over = [c for c in rules.raise_caps if c is None or c > PHH_LIMIT_CAP]
        if over:
            raise SpecError(
                f"PHH's FT allows {PHH_LIMIT_CAP} bets or raises per street (the blinds not "
                f"counting); {game.spec} allows {rules.raise_caps}"
            )
    fields["starting_stacks"] = list(rules.starting_stacks)
    differences = _differences(rules, game_from_phh_fields(fields).rules)
    if differences:
        raise SpecError(
            f"{game.spec} is not a PHH game: its {', '.join(differences)} differ from "
            f"PHH's {fields['variant']} with the same blinds and stacks"
        )
    return fields


def _nominal_blinds(game: HoldemGame) -> tuple[int, ...]:
    """The blind each player owes (before a short stack caps it), in player order."""
    seat_blinds = game.spec.get("seat_blinds")
    if isinstance(seat_blinds, tuple):
        return tuple(int(b) for b in seat_blinds)  # type: ignore[arg-type]
    small, big = game.rules.small_blind, game.rules.big_blind
    n = game.n_players
    return (big, small) if n == 2 else (small, big) + (0,) * (n - 2)


def _play_key(rules: HoldemRules) -> dict[str, object]:
    """What decides how a hand is played, except the raise caps (compared apart)."""
    return {
        "players": rules.n_players,
        "betting": rules.no_limit,
        "antes": rules.antes_paid,
        "blinds": (rules.posts_blind, rules.blinds_paid, rules.big_blind),
        "stacks": rules.starting_stacks,
        "bet sizes": rules.street_bets,
        "deck": rules.deck,
        "preflop opener": rules.preflop_opener,
        "postflop openers": tuple(0 if o is None else o for o in rules.openers[1:]),
    }


def _differences(ours: HoldemRules, theirs: HoldemRules) -> list[str]:
    mine, other = _play_key(ours), _play_key(theirs)
    return [name for name in mine if mine[name] != other[name]]


def game_from_phh_fields(fields: Mapping[str, object], *, where: str = "PHH") -> HoldemGame:
    """The pokerlab game of PHH's rule fields (``variant``, ``antes``, blinds, bets, stacks).

    Uniform antes and the blinds ``[small, big, 0, ...]`` give ``holdem(blinds=...)``; other
    blinds and straddles give ``seat_blinds``. ``FT`` gets ``caps='4,4,4,4'`` (PHH's cap).

    Raises:
        FileFormatError: a missing or malformed field (named, with ``where``).
        SpecError: rules no pokerlab game plays (another variant, antes that differ by
            seat, a no-limit minimum bet other than the big blind, fractional chips).
    """
    variant = fields.get("variant")
    if variant not in VARIANTS:
        if isinstance(variant, str) and variant in OTHER_VARIANTS:
            raise SpecError(
                f"{where}: PHH variant {variant!r} ({OTHER_VARIANTS[variant]}) is not a pokerlab "
                "game; pokerlab reads FT and NT (Texas hold'em)"
            )
        raise FileFormatError(
            f"{where}: variant {variant!r} is not a PHH variant pokerlab reads; allowed: FT, NT"
        )
    stacks = chip_counts(fields, "starting_stacks", where)
    n = len(stacks)
    if not 2 <= n <= 9 or min(stacks) < 1:
        raise SpecError(
            f"{where}: starting_stacks {stacks} must give 2 to 9 players at least 1 chip each"
        )
    antes = chip_counts(fields, "antes", where, length=n)
    if len(set(antes)) != 1:
        raise SpecError(f"{where}: antes {antes} differ by seat; pokerlab's antes are uniform")
    raw = chip_counts(fields, "blinds_or_straddles", where, length=n)
    nominal = (raw[1], raw[0]) if n == 2 else tuple(raw)
    params: dict[str, object] = {
        "players": n,
        "betting": "nolimit" if variant == "NT" else "limit",
        "ante": antes[0],
        "stack": stacks[0] if len(set(stacks)) == 1 else tuple(stacks),
    }
    small, big = (nominal[1], nominal[0]) if n == 2 else (nominal[0], nominal[1])
    if 0 < small <= big and not any(nominal[2:]):
        params["blinds"] = (small, big)
    else:
        params["seat_blinds"] = tuple(nominal)
        big = max(nominal)
    for name in _BET_FIELDS[variant]:
        if name not in fields:
            raise FileFormatError(f"{where}: variant {variant} needs the field {name!r}")
    if variant == "NT":
        min_bet = chip_count(fields["min_bet"], "min_bet", where)
        if min_bet != big:
            raise SpecError(
                f"{where}: min_bet {min_bet} is not the big blind {big}; pokerlab's no-limit "
                "minimum bet is the big blind"
            )
    else:
        small_bet = chip_count(fields["small_bet"], "small_bet", where)
        big_bet = chip_count(fields["big_bet"], "big_bet", where)
        if (small_bet, big_bet) != (big, 2 * big):
            params["raises"] = f"{small_bet},{small_bet},{big_bet},{big_bet}"
        params["caps"] = ",".join([str(PHH_LIMIT_CAP)] * 4)
    try:
        return holdem(**params)  # type: ignore[arg-type]
    except SpecError as exc:
        raise SpecError(f"{where}: {exc}") from None


def chip_count(value: object, name: str, where: str) -> int:
    """A PHH number as whole chips, or a clear error (fractional, unknown, not a number)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise FileFormatError(f"{where}: {name} must be a number; got {value!r}")
    if value != value or value in (float("inf"), float("-inf")):
        raise SpecError(f"{where}: {name} is {value}; pokerlab needs known chip counts")
    if value != int(value) or value < 0:
        raise SpecError(f"{where}: {name} is {value}; pokerlab plays whole chips (>= 0)")
    return int(value)


def chip_counts(fields: Mapping[str, object], name: str, where: str,
                length: int | None = None) -> list[int]:
    """A PHH array field as whole chips (``length`` entries when given), or a clear error."""
    value = fields.get(name)
    if not isinstance(value, list):
        raise FileFormatError(f"{where}: {name} must be an array of numbers; got {value!r}")
    if length is not None and len(value) != length:
        raise FileFormatError(
            f"{where}: {name} has {len(value)} entries; the hand has {length} players"
        )
    return [chip_count(v, name, where) for v in value]


__all__ = [
    "EXTENSIONS",
    "OTHER_VARIANTS",
    "PHH_LIMIT_CAP",
    "REQUIRED_FIELDS",
    "VARIANTS",
    "PhhHand",
    "chip_count",
    "chip_counts",
    "game_from_phh_fields",
    "phh_game_fields",
]
