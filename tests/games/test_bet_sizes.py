"""The one bet-size grammar: reading, amounts, options, and the choices where parsers differed."""

from __future__ import annotations

import pytest

from pokerlab.errors import SpecError
from pokerlab.games.bet_sizes import (
    ALL_IN,
    POT,
    TIMES,
    BetContext,
    BetSize,
    merge_amounts,
    parse_bet_menu,
    parse_size,
    parse_sizes,
    round_chips,
    size_amount,
)
from pokerlab.games.betting_sequences import menu_raises
from pokerlab.games.holdem import holdem

DEAL = [0, 1, 2, 3]
SPOT = ("flop", "turn", "river")


def context(faced: int = 0, pot: int = 100, to_call: int | None = None, low: int = 1,
            high: int = 1000, **more: int) -> BetContext:
    """A decision's numbers (heads-up: what is owed is the bet faced unless given)."""
    owed = faced if to_call is None else to_call
    return BetContext(street=1, player=0, faced=faced, pot=pot, to_call=owed, low=low,
                      high=high, **more)  # type: ignore[arg-type]


# -- reading ----------------------------------------------------------------------------------


def test_sizes_read_as_the_postflop_solvers_write_them() -> None:
    assert parse_size("50%", raise_=False) == BetSize(POT, 0.5)
    assert parse_size(" 112.5% ", raise_=False) == BetSize(POT, 1.125)
    assert parse_size("2.5X", raise_=True) == BetSize(TIMES, 2.5)
    for text in ("a", "A", "allin", "all-in"):
        assert parse_size(text, raise_=False) == BetSize(ALL_IN)
    assert [str(parse_size(t, raise_=True)) for t in ("33%", "3x", "a")] == ["33%", "3x", "a"]


@pytest.mark.parametrize(
    ("text", "raise_", "needle"),
    [
        ("33", False, "cannot read bet size '33'; allowed: sizes like '50%'"),
        ("-5%", False, "cannot read bet size"),
        ("0%", False, r"percentage of the pot in \(0, 10000\]"),
        ("1x", True, "more than 1x"),
        ("2.5x", False, "'x' \\(times the bet faced\\) is for raises only"),
        ("half", True, "cannot read bet size 'half'"),
    ],
)
def test_unreadable_sizes_name_what_is_allowed(text: str, raise_: bool, needle: str) -> None:
    with pytest.raises(SpecError, match=needle):
        parse_size(text, raise_=raise_)


def test_groups_by_street_and_player_later_ones_override() -> None:
    table = parse_sizes("50%, 100%; river=75%,a; turn-ip=33%", raise_=False, names=SPOT,
                        first=1)
    text = [[[str(s) for s in table.sizes(street, p)] for p in (0, 1)] for street in (1, 2, 3)]
    assert text == [
        [["50%", "100%"], ["50%", "100%"]],  # flop: the group for everywhere
        [["50%", "100%"], ["33%"]],  # turn: IP's own
        [["75%", "a"], ["75%", "a"]],  # river
    ]
    assert table.sizes(0, 0) == ()  # a spot names no preflop
    assert table.split_by_player
    assert str(table).startswith("flop-oop=50%,100%; flop-ip=50%,100%; turn-oop=")


def test_one_list_per_street_is_short_for_groups() -> None:
    short = parse_sizes("2.5x,a/33%,75%,a/75%,a/a", raise_=True)
    long = parse_sizes("preflop=2.5x,a; flop=33%,75%,a; turn=75%,a; river=a", raise_=True)
    assert short.by_street == long.by_street
    assert str(short) == str(long) == "2.5x,a/33%,75%,a/75%,a/a"
    assert parse_sizes("a/a//a", raise_=True).sizes(2, 0) == ()  # an empty list: no sizes


@pytest.mark.parametrize(
    ("text", "needle", "players"),
    [
        ("50%,,a", r"empty bet size in '50%,,a'", 2),
        ("50%,a,", "empty bet size", 2),
        ("50%, 50%", "bet sizes repeat in '50%, 50%'", 2),
        ("preflop=50%", r"'preflop' is not a street \(flop, turn, river\)", 2),
        ("flop-btn=50%", "'btn' is not a street", 2),
        ("oop=50%", "'oop' and 'ip' name heads-up players; this game has 3", 3),
        ("50%/a", r"gives 2 lists separated by '/'; the game has 3 streets", 2),
        ("flop=50%/a", "one list per street is separated by '/' and has no groups", 2),
    ],
)
def test_bad_lists_and_groups_are_refused(text: str, needle: str, players: int) -> None:
    with pytest.raises(SpecError, match=needle):
        parse_sizes(text, raise_=True, names=SPOT, first=1, players=players)


def test_one_list_serves_bets_and_raises_its_multiples_raise_only() -> None:
    menu = parse_bet_menu("2.5x,50%,a")
    assert menu.shared
    assert str(menu) == "2.5x,50%,a/2.5x,50%,a/2.5x,50%,a/2.5x,50%,a"
    assert [str(s) for s in menu.bets.sizes(1, 0)] == ["50%", "a"]  # no multiple for a bet
    assert [str(s) for s in menu.raises.sizes(1, 0)] == ["2.5x", "50%", "a"]
    with pytest.raises(SpecError, match="the flop sizes '2x' could never bet"):
        parse_bet_menu("a/2x/a/a")
    separate = parse_bet_menu("50%", "2.5x", names=SPOT, first=1)
    assert not separate.shared
    assert str(separate) == "50%/50%/50%"
    with pytest.raises(SpecError, match="is for raises only"):
        parse_bet_menu("2.5x", "a", names=SPOT, first=1)


@pytest.mark.parametrize(
    ("option", "value"),
    [("add_all_in_threshold", -1.0), ("force_all_in_threshold", float("nan")),
     ("merging_threshold", True), ("raise_cap", 0), ("raise_cap", 1.5)],
)
def test_bad_options_are_refused(option: str, value: object) -> None:
    with pytest.raises(SpecError, match=option):
        parse_bet_menu("50%", **{option: value})  # type: ignore[arg-type]


# -- amounts: the one rounding rule, and where the two former parsers disagreed -----------------


def test_halves_round_away_from_zero() -> None:
    assert [round_chips(x) for x in (0.5, 1.5, 2.5, 12.5, 12.49, 3.0, 0.0)] == [1, 2, 3, 13, 12,
                                                                                    3, 0]
    # The spots' parser rounded the same way; the blueprint menus rounded halves to even
    # (Python's round: 12.5 -> 12, 2.5 -> 2). The one rule is the spots' (the Rust
    # solver's), so a 2.5x re-raise of an open to 5 is now to 13, not 12 ...
    assert size_amount(BetSize(TIMES, 2.5), context(faced=5, pot=7, to_call=3)) == 13
    # ... and 25% of a 10-chip pot after calling is 3, not 2.
    assert size_amount(BetSize(POT, 0.25), context(pot=10)) == 3
    # A pot size adds the rounded fraction to the bet faced (never rounds the sum).
    assert size_amount(BetSize(POT, 0.5), context(faced=3, pot=9, to_call=3)) == 3 + 6
    assert size_amount(BetSize(TIMES, 3.0), context()) is None  # nothing faced: no multiple
    assert size_amount(BetSize(ALL_IN), context(high=77)) == 77


def test_a_repeated_size_is_refused_where_spots_dropped_it() -> None:
    # The spots' parser kept one of "50%, 50%"; the menus refused it. One choice: refuse.
    with pytest.raises(SpecError, match="repeat"):
        parse_bet_menu("50%, 50%", "2.5x", names=SPOT, first=1)


def test_one_threshold_adds_all_in_another_forces_it() -> None:
    # The spots' allin_threshold added an all-in at most t pots beyond the bet faced; the
    # menus' all_in_threshold turned a size putting in a share of the chips into all-in.
    # Now: add_all_in_threshold (the spots' meaning, the Rust solver's add_allin_threshold)
    # and force_all_in_threshold (the Rust solver's: the stack-to-pot ratio after a call).
    bet = context(pot=100, low=1, high=150)
    assert parse_bet_menu("50%").amounts(bet) == (50,)
    assert parse_bet_menu("50%", add_all_in_threshold=1.5).amounts(bet) == (50, 150)
    assert parse_bet_menu("50%", add_all_in_threshold=1.49).amounts(bet) == (50,)
    # 100% bets 100 and leaves 50 behind in a pot of 300 after a call: SPR 1/6 = 0.167
    assert parse_bet_menu("100%", force_all_in_threshold=0.17).amounts(bet) == (150,)
    assert parse_bet_menu("100%", force_all_in_threshold=0.16).amounts(bet) == (100,)
    # a raise: facing 40 (pot 180, 40 to call: 220 after the call), 50% raises to 150:
    raise_ = context(faced=40, pot=180, to_call=40, low=80, high=300)
    assert parse_bet_menu("50%").amounts(raise_) == (150,)
    # after a call of 150 the pot is 220 + 2 * 110 = 440 and 150 is left: SPR 0.341
    # (0.34 x 440 = 149.6 rounds to 150 chips: forced)
    assert parse_bet_menu("50%", force_all_in_threshold=0.34).amounts(raise_) == (300,)
    assert parse_bet_menu("50%", force_all_in_threshold=0.33).amounts(raise_) == (150,)
    # all-in 300 is 260 beyond the bet faced: 260 / 220 = 1.18 pots (1.18 x 220 = 259.6)
    assert parse_bet_menu("50%", add_all_in_threshold=1.18).amounts(raise_) == (150, 300)
    assert parse_bet_menu("50%", add_all_in_threshold=1.17).amounts(raise_) == (150,)


def test_amounts_clamp_into_the_legal_range_and_dedupe() -> None:
    menu = parse_bet_menu("1%,10%,100%,5000%,a")
    assert menu.amounts(context(pot=4, low=2, high=98)) == (2, 4, 98)


def test_merging_keeps_the_largest_of_close_sizes() -> None:
    # PioSOLVER's rule: X kept, Y removed when (1 + X) / (1 + Y) < 1 + t (pot fractions).
    menu = parse_bet_menu("50%, 60%, 100%, a", merging_threshold=0.1)
    # pot 100: 50, 60, 100 and all-in 400 = 4 pots. 100 vs 400: 5 / 2 >= 1.1, kept;
    # 60 vs 100: 2 / 1.6 = 1.25 kept; 50 vs 60: 1.6 / 1.5 = 1.067 < 1.1, merged into 60.
    assert menu.amounts(context(pot=100, high=400)) == (60, 100, 400)
    assert parse_bet_menu("50%, 60%, 100%, a").amounts(context(pot=100, high=400)) == (
        50, 60, 100, 400)
    # sizes count beyond the bet faced, in the pot after the call
    assert merge_amounts([30, 31, 60], faced=10, pot=40, threshold=0.1) == [31, 60]
    assert merge_amounts([30, 31, 60], faced=10, pot=40, threshold=0.0001) == [30, 31, 60]


def test_donk_sizes_and_the_raise_cap() -> None:
    menu = parse_bet_menu("75%", "2.5x", donks="25%", names=SPOT, first=1, raise_cap=2)
    assert menu.amounts(context(pot=100, donk=True)) == (25,)
    assert menu.amounts(context(pot=100)) == (75,)
    assert menu.amounts(context(faced=25, pot=125, donk=True)) == (63,)  # a raise: 2.5 x 25
    assert menu.amounts(context(faced=25, pot=125, raise_count=2)) == ()  # capped
    default = parse_bet_menu("75%", "2.5x", names=SPOT, first=1)
    assert default.amounts(context(pot=100, donk=True)) == (75,)  # None: the bet sizes


# -- at engine states -------------------------------------------------------------------------


def test_menu_raises_at_the_preflop_open() -> None:
    state = holdem(stack=100).initial_state().apply_sequence(DEAL)  # SB to act, blinds 1/2
    # 2.5x of the big blind: 5; 50% pot: 2 + 0.5 * (pot 3 + to_call 1) = 4; all-in 100
    assert menu_raises(parse_bet_menu("2.5x,50%,a"), state) == (4, 5, 100)


def test_menu_raises_refuse_limit_states_and_donk_menus() -> None:
    state = holdem(betting="limit").initial_state().apply_sequence(DEAL)
    with pytest.raises(SpecError, match="no-limit"):
        menu_raises(parse_bet_menu("a"), state)  # type: ignore[arg-type]
    no_limit = holdem().initial_state().apply_sequence(DEAL)
    with pytest.raises(SpecError, match="donk sizes are for betting trees"):
        menu_raises(parse_bet_menu("a", "a", donks="a"), no_limit)  # type: ignore[arg-type]
