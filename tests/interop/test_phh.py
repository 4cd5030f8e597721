"""PHH text from pokerlab records and back: the games it expresses, the round trip, bad input."""

from __future__ import annotations

import tomllib

import numpy as np
import pytest

from pokerlab.agents.registry import make_agent
from pokerlab.cards import cards_str
from pokerlab.errors import FileFormatError, SpecError
from pokerlab.eval import play_match
from pokerlab.games import holdem, kuhn, leduc, load
from pokerlab.games.holdem import HoldemGame
from pokerlab.interop._toml import toml_string
from pokerlab.interop.phh import (
    PhhHand,
    dumps_phh,
    dumps_phhs,
    game_from_phh_fields,
    loads_phh,
    phh_actions,
    phh_game_fields,
)
from pokerlab.play.records import FaultEvent, HandRecord
from pokerlab.protocols.acpc_gamedef import load_acpc_game

HEADS_UP = """
variant = "NT"
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [100, 100]
actions = ["d dh p1 AsKs", "d dh p2 AhKh", "p2 cbr 6", "p1 cc", "d db 2c3d4h", "p1 cc",
           "p2 cbr 10", "p1 f"]
"""


def _record(game: HoldemGame, history: list[int], **fields: object) -> HandRecord:
    state = game.initial_state().apply_sequence(history)
    return HandRecord(hand=0, deal=0, seats=tuple(range(game.n_players)),
                      returns=state.returns(), history=state.history, **fields)  # type: ignore[arg-type]


def test_a_phh_hand_reads_into_pokerlab_s_rules() -> None:
    (hand,) = loads_phh(HEADS_UP)
    assert str(hand.game.spec) == "holdem(stack=100)"
    assert hand.record.returns == (-6.0, 6.0)
    assert hand.record.seats == (0, 1)
    assert hand.players is None
    assert phh_actions(hand.game, hand.record.history) == tomllib.loads(HEADS_UP)["actions"]


@pytest.mark.parametrize("spec", [
    "holdem", "holdem(betting='limit')", "holdem(players=9, ante=2, stack=50)",
    "holdem(players=3, betting='limit', cap=3, blinds=(5, 10), stack=(100, 20, 400))",
    "holdem(players=4, seat_blinds=(1, 2, 4, 0))",
])
def test_texas_holdem_games_map_to_phh_fields_and_back(spec: str) -> None:
    game = load(spec)
    assert isinstance(game, HoldemGame)
    back = game_from_phh_fields(phh_game_fields(game))
    # The same rules (a limit game comes back with PHH's cap, which allows at least as much).
    assert back.rules.starting_stacks == game.rules.starting_stacks
    assert back.rules.blinds_paid == game.rules.blinds_paid
    assert back.rules.street_bets == game.rules.street_bets
    assert back.rules.preflop_opener == game.rules.preflop_opener


@pytest.mark.parametrize("name", ["holdem.limit.2p.reverse_blinds",
                                  "holdem.nolimit.2p.reverse_blinds", "holdem.limit.3p"])
def test_the_acpc_games_are_phh_games(name: str) -> None:
    fields = phh_game_fields(load_acpc_game(name))
    assert fields["blinds_or_straddles"][:2] in ([5, 10], [50, 100])  # type: ignore[index]


@pytest.mark.parametrize(("game", "why"), [
    (kuhn(), "PHH has no variant for kuhn"),
    (leduc(), "PHH has no variant for leduc"),
    (holdem(ranks=9), "52 cards, 2 hole cards"),
    (holdem(hole=1, board="1,1"), "52 cards, 2 hole cards"),
    (holdem(betting="limit", cap=6), "allows 4 bets or raises"),
    (holdem(betting="limit", raises="2,4,4,8"), "one bet size preflop and on the flop"),
    (holdem(players=3, first="0,0,0,0"), "preflop opener"),
])
def test_games_phh_cannot_express_are_refused_saying_why(game: object, why: str) -> None:
    with pytest.raises(SpecError, match=why):
        phh_game_fields(game)  # type: ignore[arg-type]


@pytest.mark.parametrize(("spec", "bots"), [
    ("holdem(stack=(30, 200))", ["random", "always-raise"]),
    ("holdem(players=3, betting='limit', stack=(12, 50, 200))", ["random", "random", "easy"]),
    ("holdem(players=6, ante=1, stack=(15, 40, 100, 7, 300, 60))", ["random"] * 6),
])
def test_records_round_trip_through_phh(spec: str, bots: list[str]) -> None:
    game = load(spec)
    assert isinstance(game, HoldemGame)
    agents = [make_agent(b, game, seed=k) for k, b in enumerate(bots)]
    result = play_match(game, *agents, hands=5, seed=4)
    hands = [PhhHand(game, r, tuple(f"bot{a}" for a in r.seats), "a test") for r in result.hands]
    for hand in hands:
        assert loads_phh(dumps_phh(hand)) == [hand]
    assert loads_phh(dumps_phhs(hands)) == hands


def test_faults_seconds_and_odd_text_round_trip() -> None:
    game = holdem()
    fault = FaultEvent(hand=7, seat=1, agent=0, kind="exception",
                       detail='ValueError("x")\n\ttab \x00 \x7f é \\ end', action=1)
    record = _record(game, [51, 50, 47, 46, 0], events=(fault,), seconds=(0.25, 1e-05),
                     decisions=(1, 1))
    hand = PhhHand(game, record, players=('quote " and \\', "newline\nname"))
    assert loads_phh(dumps_phh(hand)) == [hand]


def test_toml_strings_escape_what_toml_forbids() -> None:
    text = "".join(chr(c) for c in range(0, 128)) + "é\ud800"
    parsed = tomllib.loads(f"x = {toml_string(text)}")["x"]
    assert parsed == text[:-1] + "\ufffd"


BAD = [
    ("x = ", "not TOML"),
    ("hand = 1\n", "lacks variant, antes"),
    (HEADS_UP.replace('"NT"', '"PO"'), "pot-limit Omaha hold'em"),
    (HEADS_UP.replace('"NT"', '"XX"'), "variant 'XX'"),
    (HEADS_UP.replace("antes = [0, 0]", "antes = [0, 1]"), "antes \\[0, 1\\] differ by seat"),
    (HEADS_UP.replace("min_bet = 2", "min_bet = 4"), "min_bet 4 is not the big blind 2"),
    (HEADS_UP.replace("[100, 100]", "[100.5, 100]"), "whole chips"),
    (HEADS_UP.replace("[100, 100]", "[inf, 100]"), "known chip counts"),
    (HEADS_UP.replace("AhKh", "????"),
     "action 2 'd dh p2 \\?\\?\\?\\?': cards '\\?\\?\\?\\?' are unknown"),
    (HEADS_UP.replace("AhKh", "AsKh"), "action 3 'p2 cbr 6'"),
    (HEADS_UP.replace("p2 cbr 6", "p1 cbr 6"), "p1 acts out of turn; p2 is to act"),
    (HEADS_UP.replace("p2 cbr 6", "p2 cbr 300"), "cannot raise to 300; allowed: raise to 4..100"),
    (HEADS_UP.replace("p2 cbr 6", "p2 raise 6"), "not a player action; allowed: d dh pN"),
    (HEADS_UP.replace("p2 cbr 6", "p7 cc"), "'p7' is not a player; allowed: p1..p2"),
    (HEADS_UP.replace('"p1 f"]', '"p1 f", "p2 sd"]'), "'sd' is not an action of Texas"),
    (HEADS_UP.replace(', "p1 f"]', "]"), "the hand stops before its end \\(p1 to act next\\)"),
    (HEADS_UP.replace("2c3d4h", "2c3d"), "the board has 2 cards"),
    (HEADS_UP + "finishing_stacks = [100, 100]\n", "disagree with the hand's settlement"),
    (HEADS_UP + "_seats = [0, 0]\n", "_seats must give each"),
    (HEADS_UP + "_pokerlab_game = 'leduc'\n", "not a Hold'em game"),
    (HEADS_UP + "_pokerlab_game = 'holdem(stack=50)'\n", "disagrees with the file's starting"),
    ("[1]\n" + HEADS_UP + "\n[2]\nvariant = 'NT'\n", "\\[2\\] is not a PHH hand: it lacks"),
    ("hand = 3\n[1]\n" + HEADS_UP, "bad.phh is not a PHH hand: it lacks variant"),
]


@pytest.mark.parametrize(("text", "message"), BAD, ids=[m[:30] for _, m in BAD])
def test_bad_phh_is_refused_in_one_line_naming_the_problem(text: str, message: str) -> None:
    with pytest.raises((FileFormatError, SpecError), match=message) as caught:
        loads_phh(text, source="bad.phh")
    assert "\n" not in str(caught.value).split(" (")[0]
    assert str(caught.value).startswith("bad.phh")


def test_a_muck_that_would_change_the_payoffs_is_refused() -> None:
    showdown = HEADS_UP.replace('"p2 cbr 10", "p1 f"]', '"p2 cc", "d db 5s", "p1 cc", "p2 cc", '
                                '"d db 9c", "p1 cc", "p2 cc", "p1 sm", "p2 sm AhKh"]')
    (hand,) = loads_phh(showdown.replace('"p1 sm"', '"p1 sm AsKs"'))
    assert hand.record.returns == (0.0, 0.0)  # a wheel straight each: a split pot
    with pytest.raises(FileFormatError, match="p1 mucks at showdown a hand that wins chips"):
        loads_phh(showdown)
    # A losing hand may be mucked: p2's pair of sevens against p1's wheel.
    loser = showdown.replace("AhKh", "7h7d").replace('"p1 sm"', '"p1 sm -"')
    loser = loser.replace("p2 sm 7h7d", "p2 sm")
    assert loads_phh(loser)[0].record.returns == (6.0, -6.0)


def test_straddles_read_as_seat_blinds() -> None:
    text = """
variant = "NT"
antes = [0, 0, 0, 0]
blinds_or_straddles = [1, 2, 4, 0]
min_bet = 4
starting_stacks = [50, 50, 50, 50]
actions = ["d dh p1 AsKs", "d dh p2 AhKh", "d dh p3 QsQh", "d dh p4 2c7d", "p4 f", "p1 f",
           "p2 f"]
"""
    (hand,) = loads_phh(text)
    assert hand.game.spec.get("seat_blinds") == (1, 2, 4, 0)
    assert hand.record.returns == (-1.0, -2.0, 3.0, 0.0)


def test_hole_cards_are_written_per_player_from_pokerlab_s_round_robin_deal() -> None:
    rng = np.random.default_rng(0)
    game = holdem(players=3)
    deck = [int(c) for c in rng.permutation(52)[:6]]
    actions = phh_actions(game, (*deck, 0, 0))  # the button and the small blind fold
    assert actions == [f"d dh p{p + 1} {cards_str(deck[p::3])}" for p in range(3)] + [
        "p3 f", "p1 f"]
