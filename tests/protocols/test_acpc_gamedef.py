"""ACPC game definitions: the standard files round-trip, play, and walk in lockstep with
universal_poker loaded from the same text; bad files name their bad line or field."""

from __future__ import annotations

import random

import pytest

from pokerlab.errors import SpecError
from pokerlab.games import kuhn, leduc
from pokerlab.protocols.acpc_gamedef import (
    STANDARD,
    format_gamedef,
    parse_gamedef,
    read_gamedef,
    standard_gamedef,
)
from pokerlab.solvers.lp import solve_sequence_form
from tests.differential.test_openspiel_holdem_lockstep import play_lockstep

pyspiel = pytest.importorskip("pyspiel")


@pytest.mark.parametrize("name", STANDARD)
def test_standard_gamedefs_round_trip_and_play(name: str) -> None:
    game = parse_gamedef(standard_gamedef(name))
    text = format_gamedef(game)
    assert parse_gamedef(text) == game
    assert format_gamedef(parse_gamedef(text)) == text
    rng = random.Random(name)
    state = game.initial_state()
    while not state.is_terminal:
        state = state.child(rng.choice(state.legal_actions()))
    assert sum(state.returns()) == 0


def test_the_texas_gamedefs_are_the_usual_games() -> None:
    limit = parse_gamedef(standard_gamedef("holdem.limit.2p.reverse_blinds"))
    assert limit.rules.street_bets == (10, 10, 20, 20)
    assert limit.rules.raise_caps == (3, 4, 4, 4)
    assert (limit.small_blind, limit.big_blind) == (5, 10)
    nolimit = parse_gamedef(standard_gamedef("holdem.nolimit.2p.reverse_blinds"))
    assert nolimit.no_limit
    assert nolimit.starting_stacks == (20000, 20000)


def test_kuhn_and_leduc_gamedefs_have_kuhns_and_leducs_values() -> None:
    for name, game in (("kuhn.limit.2p", kuhn()), ("leduc.limit.2p", leduc())):
        ours = solve_sequence_form(parse_gamedef(standard_gamedef(name))).value
        assert ours == pytest.approx(solve_sequence_form(game).value, abs=1e-9)


@pytest.mark.slow
@pytest.mark.parametrize(
    "name", ["holdem.limit.2p.reverse_blinds", "holdem.limit.3p", "kuhn.limit.2p", "leduc.limit.2p"]
)
def test_gamedef_walks_in_lockstep_with_universal_poker(name: str) -> None:
    text = standard_gamedef(name)
    game = parse_gamedef(text)
    os_game = pyspiel.universal_poker.load_universal_poker_from_acpc_gamedef(text)
    rng = random.Random(name)
    showdowns = sum(play_lockstep(game, os_game, rng) for _ in range(1000))
    assert showdowns > 50


def test_read_gamedef_reads_a_file(tmp_path: object) -> None:
    from pathlib import Path

    path = Path(str(tmp_path)) / "g.game"
    path.write_text(standard_gamedef("leduc.limit.2p"))
    assert read_gamedef(path) == parse_gamedef(standard_gamedef("leduc.limit.2p"))
    with pytest.raises(SpecError, match="cannot read gamedef"):
        read_gamedef(Path(str(tmp_path)) / "missing.game")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("limit\nEND GAMEDEF", "line 1: expected GAMEDEF first"),
        ("GAMEDEF\nlimit\nnumPlayerz = 2\nEND GAMEDEF", "line 3: unknown field 'numPlayerz'"),
        ("GAMEDEF\nlimit\nnumPlayers = two\nEND GAMEDEF", "line 3: numPlayers takes integers"),
        ("GAMEDEF\nlimit\nnumPlayers = 2\n", "END GAMEDEF"),
        ("GAMEDEF\nnumPlayers = 2\nEND GAMEDEF", "no betting line"),
        ("GAMEDEF\nlimit\nnumPlayers = 2\nEND GAMEDEF", "numRounds field is missing"),
    ],
)
def test_bad_gamedefs_name_the_line_or_field(text: str, words: str) -> None:
    with pytest.raises(SpecError, match=words):
        parse_gamedef(text)


def test_bad_round_counts_and_unknown_standard_names() -> None:
    text = standard_gamedef("leduc.limit.2p").replace("raiseSize = 2 4", "raiseSize = 2")
    with pytest.raises(SpecError, match="raiseSize needs one value per round"):
        parse_gamedef(text)
    with pytest.raises(SpecError, match=r"known: holdem\.limit"):
        standard_gamedef("poker")
