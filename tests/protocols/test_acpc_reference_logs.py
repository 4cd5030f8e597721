"""pokerlab reads and writes ACPC logs exactly as the reference dealer (University of Alberta).

The logs in data/reference/ were written by the reference dealer (see its README): its own
example players on Hold'em limit and no-limit (two and three players), Kuhn and Leduc, and
two pokerlab clients on Hold'em. For every hand pokerlab replays the line, pays what the
reference paid, and writes the same line again, with the log writer its own dealer uses;
the ``SCORE:`` line and the header come out the same too.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pokerlab._types import CHANCE, TERMINAL
from pokerlab.errors import ProtocolError
from pokerlab.games.holdem_state import HoldemGame, HoldemState
from pokerlab.play.acpc_matchstate import (
    MatchStateTracker,
    format_chips,
    format_matchstate,
    matchstate_from_state,
    parse_matchstate,
    state_from_matchstate,
)
from pokerlab.play.acpc_seat import AcpcTable, TimeLimits
from pokerlab.play.dealer import ActionTaken, ChanceDealt, HandEnded, HandStarted
from pokerlab.play.records import HandRecord
from pokerlab.protocols.acpc_gamedef import load_acpc_game
from pokerlab.protocols.acpc_log import log_header, read_acpc_log, score_line

DATA = Path(__file__).parent / "data" / "reference"
LOGS = {
    "ref_limit2p.log": "holdem.limit.2p.reverse_blinds",
    "ref_nolimit2p.log": "holdem.nolimit.2p.reverse_blinds",
    "ref_limit3p.log": "holdem.limit.3p",
    "ref_kuhn2p.log": "kuhn.limit.2p",
    "ref_leduc2p.log": "leduc.limit.2p",
    "refdealer_pokerlab_limit2p.log": "holdem.limit.2p.reverse_blinds",
    "refdealer_pokerlab_nolimit2p.log": "holdem.nolimit.2p.reverse_blinds",
}


class _Seat:
    """A seat of the log writer that sends nothing (only its name is written)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.table = None
        self.hand_seconds = 0.0

    def deliver(self, text: str) -> None:
        pass


def _written(game: HoldemGame, final: HoldemState, hand: int, names: list[str],
             order: list[str]) -> str:
    """The ``STATE:`` line pokerlab's dealer logs for the hand that ended at ``final``."""
    lines: list[str] = []
    table = AcpcTable({i: _Seat(name) for i, name in enumerate(order)}, lines.append)
    seats = tuple(order.index(name) for name in names)
    state = game.initial_state()
    table(HandStarted(hand, hand, seats, tuple(order), state))
    for action in final.history:
        if state.player == CHANCE:
            state = state.child(action)
            table(ChanceDealt(hand, action, state))
        else:
            seat, name = state.player, state.action_name(action)
            state = state.child(action)
            table(ActionTaken(hand, seat, seats[seat], action, name, state))
    record = HandRecord(hand=hand, deal=hand, seats=seats, returns=state.returns(),
                        history=state.history)
    table(HandEnded(record, state))
    return "\n".join(lines)


@pytest.mark.parametrize("name", sorted(LOGS))
def test_every_line_of_a_reference_log_reads_pays_and_writes_back_the_same(name: str) -> None:
    game = load_acpc_game(LOGS[name])
    path = DATA / name
    lines = path.read_text(encoding="ascii").splitlines()
    log = read_acpc_log(path)
    score = lines[-1]
    order = score.split(":")[2].split("|")
    totals = dict.fromkeys(order, 0.0)
    tracker = MatchStateTracker(game)
    states = [line for line in lines if line.startswith("STATE:")]
    assert len(states) == log.hands == len(log.states)
    for line in states:
        _, hand, betting, cards, results, names_text = line.split(":")
        names = names_text.split("|")
        text = f"MATCHSTATE:0:{hand}:{betting}:{cards}"
        state = state_from_matchstate(game, parse_matchstate(text))
        assert state.player == TERMINAL, line
        assert "|".join(format_chips(v) for v in state.returns()) == results, line
        assert tracker.follow(text)[2].returns() == state.returns(), line
        again = matchstate_from_state(state, 0, int(hand), show_all=True)
        assert format_matchstate(again) == text
        assert _written(game, state, int(hand), names, order) == line
        for who, value in zip(names, results.split("|"), strict=True):
            totals[who] += float(value)
    assert score_line([totals[who] for who in order], order) == score
    seconds = {key: value / 1000 for key, value in log.limits.items()}
    limits = TimeLimits(per_action=seconds["t_response"], per_hand=seconds["t_hand"],
                        per_match=seconds["t_per_hand"] * log.hands)
    assert log.match is not None
    assert log.game is not None
    assert log.seed is not None
    assert log_header(log.match, log.game, log.hands, log.seed, limits) == lines[:4]


def test_kuhn_and_leduc_cards_are_the_reference_decks_last_suits() -> None:
    # The reference deals a smaller deck from the last suits (spades, then hearts); a
    # pokerlab seat reads them and writes them back, and refuses a suit the deck lacks.
    kuhn, leduc = load_acpc_game("kuhn.limit.2p"), load_acpc_game("leduc.limit.2p")
    state = state_from_matchstate(kuhn, parse_matchstate("MATCHSTATE:1:0::|As"))
    assert format_matchstate(matchstate_from_state(state, 1, 0)) == "MATCHSTATE:1:0::|As"
    line = "MATCHSTATE:0:3:rc/r:Qh|/Ks"
    state = state_from_matchstate(leduc, parse_matchstate(line))
    assert format_matchstate(matchstate_from_state(state, 0, 3)) == line
    with pytest.raises(ProtocolError, match=r"card Ac is not in this game's deck; its suits: s"):
        state_from_matchstate(kuhn, parse_matchstate("MATCHSTATE:0:0::Ac|"))
    with pytest.raises(ProtocolError, match=r"its suits: hs"):
        MatchStateTracker(leduc).follow("MATCHSTATE:0:0::Qd|")
