"""The ACPC match-state codec: spec examples, round trips on random hands, fuzzing."""

from __future__ import annotations

import contextlib
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerlab.cards.card import parse_cards
from pokerlab.errors import IllegalActionError, ProtocolError
from pokerlab.games.base import TERMINAL
from pokerlab.games.holdem import CALL, FOLD, HoldemGame, HoldemState, holdem
from pokerlab.play.acpc_matchstate import (
    MatchState,
    action_token,
    format_matchstate,
    format_response,
    matchstate_from_state,
    parse_matchstate,
    parse_response,
    state_from_matchstate,
    token_action,
)

NO_LIMIT = holdem(stack=20000, blinds=(50, 100))
LIMIT = holdem(betting="limit", blinds=(5, 10), stack=1000)


def _random_hand(game: HoldemGame, rng: random.Random) -> list[HoldemState]:
    """Every state of one random hand (cards and actions), ending with the terminal one."""
    state = game.initial_state()
    states = [state]
    while state.player != TERMINAL:
        if state.player < 0:
            action = rng.choice(state.legal_actions())
        else:
            bounds = state.raise_range()
            if bounds is not None and rng.random() < 0.3:
                action = state.action_for_raise_to(rng.randint(*bounds))
            elif state.is_legal(FOLD) and rng.random() < 0.2:
                action = FOLD
            else:
                action = CALL
        state = state.child(action)
        states.append(state)
    return states


def test_spec_examples_parse_and_write_back() -> None:
    examples = [
        "MATCHSTATE:0:0::TdAs|",
        "MATCHSTATE:1:0:r:|9hQd",
        "MATCHSTATE:0:0:rc/:TdAs|/2c8c3h",
        "MATCHSTATE:0:30:cc/r250c/r500c/:5d5c|/8dAs8s/4h/6d",
        "MATCHSTATE:1:1:f:|JdTc",
        "MATCHSTATE:0:2:rrc/rc/cc/cc:7h3s|QsKd/8c6d5s/Td/9c",
    ]
    for text in examples:
        assert format_matchstate(parse_matchstate(text)) == text
    message = parse_matchstate("MATCHSTATE:0:30:cc/r250c/r500c/:5d5c|/8dAs8s/4h/6d")
    assert message == MatchState(
        position=0,
        hand_number=30,
        betting=(("c", "c"), ("r250", "c"), ("r500", "c"), ()),
        hole=(parse_cards("5d5c"), ()),
        board=(parse_cards("8dAs8s"), parse_cards("4h"), parse_cards("6d")),
    )


def test_no_limit_raise_sizes_count_the_whole_hand() -> None:
    message = parse_matchstate("MATCHSTATE:0:30:cc/r250c/r500c/:5d5c|/8dAs8s/4h/6d")
    state = state_from_matchstate(NO_LIMIT, message)
    assert state.player == 0
    assert state.street == 3
    assert state.committed == (500, 500)
    # A raise to 1000 chips in the hand is a bet of 500 on the river.
    assert state.raise_to_amount(token_action(state, "r1000")) == 500
    assert action_token(state, token_action(state, "r1000")) == "r1000"
    with pytest.raises(IllegalActionError, match="cannot raise to"):
        token_action(state, "r550")  # 50 on the river is under the minimum bet
    with pytest.raises(ProtocolError, match="no size"):
        token_action(state, "r")


def test_limit_raise_has_no_size() -> None:
    state = state_from_matchstate(LIMIT, parse_matchstate("MATCHSTATE:1:0::|9hQd"))
    with pytest.raises(ProtocolError, match="gives a size in limit"):
        token_action(state, "r20")
    assert state.child(token_action(state, "r")).bets == (10, 20)


@pytest.mark.slow
@pytest.mark.parametrize("game", [NO_LIMIT, LIMIT], ids=["nolimit", "limit"])
def test_round_trip_on_random_hands(game: HoldemGame) -> None:
    rng = random.Random(15)
    hands = showdowns = 0
    for hand_number in range(1000):
        states = _random_hand(game, rng)
        final = states[-1]
        for state in states:
            if state.player < 0 and state is not final:
                continue
            seats = [state.player] if state.player >= 0 else [0, 1]
            for seat in seats:
                message = matchstate_from_state(state, seat, hand_number)
                text = format_matchstate(message)
                assert parse_matchstate(text) == message
                back = state_from_matchstate(game, message)
                assert back.betting == state.betting
                assert back.board == state.board
                assert back.hole_cards(seat) == state.hole_cards(seat)
                assert back.player == state.player
                assert back.committed == state.committed
                assert parse_response(format_response(message, "c")) == (message, "c")
            full = matchstate_from_state(state, 0, hand_number, show_all=True)
            assert state_from_matchstate(game, full).history == state.history
        hands += 1
        if not any(final.folded):
            showdowns += 1
            assert all(matchstate_from_state(final, 0, hand_number).hole)
        else:
            assert not matchstate_from_state(final, 0, hand_number).hole[1]
    assert hands == 1000
    assert showdowns > 100


@pytest.mark.parametrize(
    ("text", "part"),
    [
        ("MATCH:0:0::TdAs|", "starts with"),
        ("MATCHSTATE:0:0::TdAs", "name 1 positions"),
        ("MATCHSTATE:x:0::TdAs|", "position 'x'"),
        ("MATCHSTATE:0:-1::TdAs|", "hand number '-1'"),
        ("MATCHSTATE:0:0:cx:TdAs|", "round 1 'cx'"),
        ("MATCHSTATE:0:0::TdAz|", "hole cards 'TdAz'"),
        ("MATCHSTATE:0:0:cc/:TdAs|", "must agree"),
        ("MATCHSTATE:0:0:cc/:TdAs|/2c2c3c", "repeat a card"),
        ("MATCHSTATE:0:0:cc/:TdAs|/2c", None),
        ("MATCHSTATE:0:0::TdAs|:extra", "parts"),
        ("", "parts"),
    ],
)
def test_malformed_messages_name_the_part(text: str, part: str | None) -> None:
    with pytest.raises(ProtocolError) as caught:
        state_from_matchstate(NO_LIMIT, parse_matchstate(text))
    if part is not None:
        assert part in str(caught.value)


@pytest.mark.parametrize(
    "text",
    [
        "MATCHSTATE:0:0:r50:TdAs|",  # under the minimum raise
        "MATCHSTATE:0:0:r:TdAs|",  # a limit raise in no-limit
        "MATCHSTATE:0:0:cc/cc:TdAs|/2c3c4c",  # round 2 is over, round 3 is not shown
        "MATCHSTATE:0:0:ff:TdAs|",  # an action after the hand ended
        "MATCHSTATE:0:0::TdAsKs|",  # three hole cards
        "MATCHSTATE:2:0::TdAs|",  # no such position
    ],
)
def test_messages_that_do_not_fit_the_game(text: str) -> None:
    with pytest.raises(ProtocolError):
        state_from_matchstate(NO_LIMIT, parse_matchstate(text))


def test_bad_responses() -> None:
    with pytest.raises(ProtocolError, match="response action"):
        parse_response("MATCHSTATE:0:0::TdAs|:x")
    with pytest.raises(ProtocolError, match="no ':<action>'"):
        parse_response("garbage")
    with pytest.raises(ProtocolError, match="is not a seat"):
        matchstate_from_state(NO_LIMIT.initial_state(), 5, 0)


_PROTOCOL_TEXT = st.text(alphabet="MATCHSTE:0123456789/|fckr2TJQKAcdhs", max_size=60)


@given(st.one_of(st.text(max_size=80), _PROTOCOL_TEXT.map(lambda t: "MATCHSTATE:" + t)))
@settings(max_examples=400, deadline=None)
def test_fuzz_no_input_crashes_the_codec(text: str) -> None:
    for game in (NO_LIMIT, LIMIT):
        try:
            message = parse_matchstate(text)
        except ProtocolError:
            continue
        assert format_matchstate(message) == text
        with contextlib.suppress(ProtocolError):
            state_from_matchstate(game, message)
        with contextlib.suppress(ProtocolError):
            parse_response(text)
