"""PHH text as pokerlab hand records: every action replayed and checked by pokerlab's rules.

See :mod:`pokerlab.interop.phh` for what is read and what is refused.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence

from pokerlab._types import CHANCE, TERMINAL
from pokerlab.cards import cards_str, parse_cards
from pokerlab.errors import CardError, FileFormatError, IllegalActionError, SpecError
from pokerlab.games import load
from pokerlab.games.holdem import CALL, FOLD, HoldemGame, HoldemState
from pokerlab.interop._toml import toml_value
from pokerlab.interop.phh_rules import (
    REQUIRED_FIELDS,
    PhhHand,
    chip_counts,
    game_from_phh_fields,
    phh_game_fields,
)
from pokerlab.play.records import FAULT_KINDS, FaultEvent, HandRecord

_ACTION_FORMS = "d dh pN CARDS, d db CARDS, pN f, pN cc, pN cbr AMOUNT, pN sm [CARDS]"


def loads_phh(text: str, *, source: str = "PHH text") -> list[PhhHand]:
    """The hands of a ``.phh`` (one hand) or ``.phhs`` (tables of hands) text.

    Args:
        text: the file's text.
        source: what to call it in errors (a file name).

    Raises:
        FileFormatError: text that is not TOML, not PHH, or an action that is not legal
            (the message names the hand, the action and why).
        SpecError: rules no pokerlab game plays (another variant...).
    """
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise FileFormatError(f"{source} is not PHH: not TOML ({exc})") from None
    if not document:
        raise FileFormatError(f"{source} holds no hand (no fields, no [N] tables)")
    if not all(isinstance(value, dict) for value in document.values()):
        return [hand_from_phh_fields(document, index=0, where=source)]  # one hand: a .phh
    return [hand_from_phh_fields(value, index=index, where=f"{source} [{key}]")
            for index, (key, value) in enumerate(document.items())]


def hand_from_phh_fields(fields: Mapping[str, object], *, index: int = 0,
                         where: str = "PHH") -> PhhHand:
    """One hand from its PHH fields (a parsed ``.phh`` file, or one table of a ``.phhs``).

    ``index`` is the hand's number when the file gives none (its ``hand`` field, when an
    integer, wins). Raises as :func:`loads_phh`.
    """
    missing = [name for name in REQUIRED_FIELDS if name not in fields]
    if missing:
        raise FileFormatError(f"{where} is not a PHH hand: it lacks {', '.join(missing)}")
    named = fields.get("_pokerlab_game")
    game = game_from_phh_fields(fields, where=where) if named is None \
        else _named_game(named, fields, where)
    actions = fields["actions"]
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise FileFormatError(f"{where}: actions must be an array of strings")
    state, mucked = replay_phh_actions(game, actions, where=where)
    n = game.n_players
    returns = tuple(float(r) for r in state.returns())
    _check_mucks(state, mucked, where)
    finishing = fields.get("finishing_stacks")
    if finishing is not None:
        stated = chip_counts(fields, "finishing_stacks", where, length=n)
        ours = [int(s + r) for s, r in zip(game.rules.starting_stacks, returns, strict=True)]
        if stated != ours:
            raise FileFormatError(
                f"{where}: finishing_stacks {stated} disagree with the hand's settlement {ours}"
            )
    hand_field = fields.get("hand")
    number = hand_field if isinstance(hand_field, int) and not isinstance(hand_field, bool) \
        else index
    record = HandRecord(
        hand=number,
        deal=_int_field(fields, "_deal", number, where),
        seats=_seats(fields, n, where),
        returns=returns,
        history=tuple(int(a) for a in state.history),
        events=_faults(fields.get("_faults"), where),
        seconds=tuple(float(s) for s in _number_list(fields, "_seconds", where)),
        decisions=tuple(int(d) for d in _number_list(fields, "_decisions", where, integer=True)),
    )
    players = fields.get("players")
    if players is not None and (not isinstance(players, list) or len(players) != n
                                or not all(isinstance(p, str) for p in players)):
        raise FileFormatError(f"{where}: players must be {n} names (strings); got {players!r}")
    event = fields.get("event")
    return PhhHand(game, record, None if players is None else tuple(players),
                   event if isinstance(event, str) else None)


def _named_game(named: object, fields: Mapping[str, object], where: str) -> HoldemGame:
    """The game ``_pokerlab_game`` names, checked against the file's rule fields."""
    if not isinstance(named, str):
        raise FileFormatError(f"{where}: _pokerlab_game must be a spec string; got {named!r}")
    try:
        game = load(named)
    except SpecError as exc:
        raise FileFormatError(f"{where}: _pokerlab_game {named!r} is not a game: {exc}") from None
    if not isinstance(game, HoldemGame):
        raise FileFormatError(f"{where}: _pokerlab_game {named!r} is not a Hold'em game")
    try:
        ours = phh_game_fields(game)
    except SpecError as exc:
        raise FileFormatError(f"{where}: _pokerlab_game {named!r}: {exc}") from None
    theirs = {key: fields.get(key) for key in ours}
    if ours != theirs:
        wrong = [key for key in ours if ours[key] != theirs[key]]
        raise FileFormatError(
            f"{where}: _pokerlab_game {named!r} disagrees with the file's "
            f"{', '.join(wrong)} ({', '.join(f'{k} = {toml_value(theirs[k])}' for k in wrong)})"
        )
    return game


def replay_phh_actions(game: HoldemGame, actions: Sequence[str], *,
                       where: str = "PHH") -> tuple[HoldemState, frozenset[int]]:
    """Play PHH ``actions`` in ``game``; return the final state and the players who mucked.

    Raises:
        FileFormatError: an action that is malformed, out of turn or illegal, unknown
            cards, or a hand that stops before its end (naming the action).
    """
    n = game.n_players
    hole: list[tuple[int, ...] | None] = [None] * n
    state = game.initial_state()
    dealt = False
    mucked: set[int] = set()
    for number, text in enumerate(actions, start=1):
        at = f"{where}, action {number} {text!r}"
        words = text.split("#", 1)[0].split()
        if not words:
            continue
        try:
            if words[0] == "d":
                if len(words) == 4 and words[1] == "dh":
                    if dealt:
                        raise FileFormatError("hole cards are dealt after the betting began")
                    player = _player(words[2], n)
                    if hole[player] is not None:
                        raise FileFormatError(f"{words[2]} is dealt hole cards twice")
                    hole[player] = _cards(words[3], game.rules.hole_size)
                    continue
                if len(words) == 3 and words[1] == "db":
                    if not dealt:
                        state, dealt = _deal_hole(state, hole), True
                    state = _deal_board(state, _cards(words[2], None))
                    continue
                raise FileFormatError(f"not a dealing action; allowed: {_ACTION_FORMS}")
            player = _player(words[0], n)
            verb = words[1] if len(words) > 1 else ""
            if verb == "sm" and len(words) <= 3:
                _check_shown(hole[player], words[2:], words[0])
                if len(words) == 2:
                    mucked.add(player)
                continue
            if verb in ("sd", "pb"):
                raise FileFormatError(f"{verb!r} is not an action of Texas hold'em")
            if not dealt:
                state, dealt = _deal_hole(state, hole), True
            state = _bet(state, player, words)
        except (IllegalActionError, CardError, FileFormatError, ValueError) as exc:
            raise FileFormatError(f"{at}: {exc}") from None
    if not dealt and all(h is not None for h in hole):
        state = _deal_hole(state, hole)
    if state.player != TERMINAL:
        waiting = "the dealer" if state.player == CHANCE else f"p{state.player + 1}"
        raise FileFormatError(
            f"{where}: the hand stops before its end ({waiting} to act next); a pokerlab "
            "record holds a finished hand"
        )
    return state, frozenset(mucked)


def _player(word: str, n: int) -> int:
    if len(word) < 2 or word[0] != "p" or not word[1:].isdigit() or not 1 <= int(word[1:]) <= n:
        raise FileFormatError(f"{word!r} is not a player; allowed: p1..p{n}")
    return int(word[1:]) - 1


def _cards(text: str, count: int | None) -> tuple[int, ...]:
    if "?" in text:
        raise FileFormatError(
            f"cards {text!r} are unknown; a pokerlab record holds every card dealt"
        )
    cards = parse_cards(text)
    if count is not None and len(cards) != count:
        raise FileFormatError(f"{text!r} is {len(cards)} cards; Texas hold'em deals {count}")
    return cards


def _deal_hole(state: HoldemState, hole: Sequence[tuple[int, ...] | None]) -> HoldemState:
    """Deal the hole cards in pokerlab's order (a card to each player, then the second)."""
    unknown = [f"p{p + 1}" for p, cards in enumerate(hole) if cards is None]
    if unknown:
        raise FileFormatError(f"{', '.join(unknown)} not dealt hole cards (d dh) before acting")
    for k in range(state.game.rules.hole_size):
        for cards in hole:
            assert cards is not None
            state = state.child(cards[k])
    return state


def _deal_board(state: HoldemState, cards: tuple[int, ...]) -> HoldemState:
    sizes = state.game.rules.board_sizes
    for card in cards:
        if state.player != CHANCE:
            whom = ("the hand is over" if state.player == TERMINAL
                    else f"p{state.player + 1} is to act")
            raise FileFormatError(f"a board card is dealt while {whom}")
        state = state.child(card)
    if len(state.board) not in sizes:
        raise FileFormatError(f"the board has {len(state.board)} cards after it; a street "
                              f"ends at {', '.join(str(s) for s in sizes[1:])}")
    return state


def _bet(state: HoldemState, player: int, words: Sequence[str]) -> HoldemState:
    if state.player != player:
        whom = ("the dealer (cards to deal)" if state.player == CHANCE else "nobody (the hand "
                "is over)" if state.player == TERMINAL else f"p{state.player + 1}")
        raise FileFormatError(f"p{player + 1} acts out of turn; {whom} is to act")
    match words[1:]:
        case ["f"]:
            if not state.is_legal(FOLD):
                raise IllegalActionError("folding is not legal here (checking is free)")
            return state.child(FOLD)
        case ["cc"]:
            return state.child(CALL)
        case ["cbr", amount]:
            return state.child(state.action_for_raise_to(_amount(amount)))
    raise FileFormatError(f"not a player action; allowed: {_ACTION_FORMS}")


def _amount(text: str) -> int:
    try:
        value = float(text)
    except ValueError:
        raise FileFormatError(f"raise amount {text!r} is not a number") from None
    if value != int(value):
        raise FileFormatError(f"raise amount {text} is not a whole number of chips")
    return int(value)


def _check_shown(cards: tuple[int, ...] | None, shown: Sequence[str], player: str) -> None:
    """A show must agree with the hole cards dealt (``-`` and ``??`` agree with any)."""
    if not shown or shown[0] == "-" or cards is None:
        return
    text = shown[0]
    for k in range(0, len(text), 2):
        piece = text[k:k + 2]
        if "?" in piece:
            continue
        if k // 2 >= len(cards) or parse_cards(piece)[0] != cards[k // 2]:
            raise FileFormatError(
                f"{player} shows {text} but was dealt {cards_str(cards)}"
            )


def _check_mucks(state: HoldemState, mucked: frozenset[int], where: str) -> None:
    """A muck is fine when pokerlab's settlement (every hand shown) gives that player nothing."""
    if not mucked:
        return
    settlement = state.settle()
    for pot in settlement.pots:
        for winner, share in zip(pot.winners, pot.shares, strict=True):
            if winner in mucked and share > 0:
                raise FileFormatError(
                    f"{where}: p{winner + 1} mucks at showdown a hand that wins chips; pokerlab "
                    "shows every hand still in, so its payoffs would differ"
                )


def _int_field(fields: Mapping[str, object], name: str, default: int, where: str) -> int:
    value = fields.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise FileFormatError(f"{where}: {name} must be an integer; got {value!r}")
    return value


def _seats(fields: Mapping[str, object], n: int, where: str) -> tuple[int, ...]:
    value = fields.get("_seats")
    if value is None:
        return tuple(range(n))
    if (not isinstance(value, list) or len(value) != n or sorted(value) != list(range(n))
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise FileFormatError(
            f"{where}: _seats must give each of the {n} seats its agent 0..{n - 1} once; "
            f"got {value!r}"
        )
    return tuple(value)


def _number_list(fields: Mapping[str, object], name: str, where: str, *,
                 integer: bool = False) -> list[float]:
    value = fields.get(name, [])
    kinds: tuple[type, ...] = (int,) if integer else (int, float)
    if not isinstance(value, list) or not all(
        isinstance(v, kinds) and not isinstance(v, bool) for v in value
    ):
        kind = "integers" if integer else "numbers"
        raise FileFormatError(f"{where}: {name} must be an array of {kind}; got {value!r}")
    return value


def _faults(value: object, where: str) -> tuple[FaultEvent, ...]:
    if value is None:
        return ()
    keys = ("hand", "seat", "agent", "kind", "detail", "action")
    if not isinstance(value, list):
        raise FileFormatError(f"{where}: _faults must be an array of tables")
    events = []
    for item in value:
        if (not isinstance(item, dict) or set(item) != set(keys)
                or item["kind"] not in FAULT_KINDS or not isinstance(item["detail"], str)
                or not all(isinstance(item[k], int) and not isinstance(item[k], bool)
                           for k in ("hand", "seat", "agent", "action"))):
            raise FileFormatError(
                f"{where}: a _faults entry must be a table of {', '.join(keys)} (kind one of "
                f"{', '.join(FAULT_KINDS)}); got {item!r}"
            )
        events.append(FaultEvent(*(item[k] for k in keys)))
    return tuple(events)


__all__ = ["hand_from_phh_fields", "loads_phh", "replay_phh_actions"]
