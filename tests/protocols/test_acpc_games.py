"""GAMEDEFs as the ACPC commands take them, and Kuhn and Leduc played over the protocol."""

from __future__ import annotations

from pathlib import Path

import pytest

from pokerlab.errors import SpecError
from pokerlab.eval.matches import iter_hands
from pokerlab.games.holdem_state import HoldemGame
from pokerlab.protocols.acpc_gamedef import load_acpc_game, parse_gamedef, standard_gamedef
from tests.protocols.test_acpc_dealer import HashAgent, _pokerlab_client, _serve


def test_a_gamedef_file_a_standard_name_and_a_spec_all_load(tmp_path: Path) -> None:
    leduc = parse_gamedef(standard_gamedef("leduc.limit.2p"))
    path = tmp_path / "my.game"
    path.write_text(standard_gamedef("leduc.limit.2p"))
    assert load_acpc_game(str(path)) == leduc
    assert load_acpc_game("leduc.limit.2p") == leduc
    assert load_acpc_game("leduc.limit.2p.game") == leduc
    spec = load_acpc_game("holdem(betting='limit')")
    assert isinstance(spec, HoldemGame)
    assert not spec.no_limit


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("kuhn(cards=4)", "kuhn.limit.2p"),  # a Kuhn variant is no gamedef: name the one that is
        ("no-such-game(", "GAMEDEF file"),
        ("missing.game", "no file 'missing.game'"),
    ],
)
def test_what_is_not_a_gamedef_is_refused_with_what_is_allowed(text: str, says: str) -> None:
    with pytest.raises(SpecError, match="GAMEDEF file") as error:
        load_acpc_game(text)
    assert says in str(error.value)


def test_a_malformed_gamedef_file_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.game"
    path.write_text("GAMEDEF\nlimit\nnumPlayers = two\nEND GAMEDEF\n")
    with pytest.raises(SpecError, match="line 3"):
        load_acpc_game(str(path))


@pytest.mark.parametrize("name", ["kuhn.limit.2p", "leduc.limit.2p"])
def test_kuhn_and_leduc_play_over_acpc_as_in_process(name: str) -> None:
    game = parse_gamedef(standard_gamedef(name))
    hands, seed = 60, 5
    result = _serve(
        game,
        [_pokerlab_client(game, HashAgent(1)), _pokerlab_client(game, HashAgent(2))],
        hands=hands,
        seed=seed,
    )
    local = list(
        iter_hands(
            game,
            [HashAgent(1), HashAgent(2)],
            hands=hands,
            seats="rotate",
            duplicate=False,
            seed=seed,
        )
    )
    assert result.faults == ()
    assert [r.history for r in result.records] == [r.history for r in local]
    assert result.chips[0] == sum(r.agent_returns()[0] for r in local)
    assert any(r.agent_returns()[0] != 0 for r in local)
