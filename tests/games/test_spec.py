"""GameSpec: strings and dicts round-trip, defaults are filled in and hidden."""

from __future__ import annotations

import json

import pytest

from pokerlab.errors import SpecError
from pokerlab.games import Game, GameSpec, bimatrix, kuhn, leduc, load, load_dict, registered

KUHN_PARAMS = [
    {},
    {"cards": 3},
    {"cards": 4},
    {"cards": 10},
    {"cards": 100},
    {"players": 3},
    {"players": 3, "cards": 4},
    {"players": 3, "cards": 7},
    {"players": 5},
]

LEDUC_PARAMS = [
    {},
    {"stack": 50, "raise_cap": None},
    {"stack": 4},
    {"stack": 6, "raise_cap": 3},
    {"raise_cap": 0},
    {"raise_cap": 5},
    {"ranks": 13},
    {"ranks": 4, "pair_counts": False},
    {"players": 3},
    {"players": 3, "ranks": 5},
    {"ante": 2, "bets": (3, 6)},
    {"bets": [2, 4]},
]

MATRIX_PRESETS = ["rps", "dominance", "battle_of_sexes"]


def _games() -> list[Game]:
    games: list[Game] = [load("kuhn", **p) for p in KUHN_PARAMS]
    games += [load("leduc", **p) for p in LEDUC_PARAMS]
    games += [load(name) for name in MATRIX_PRESETS]
    games.append(
        bimatrix(
            [[(3, 2), (0, 0), (1.5, -2)], [(0, 0), (2, 3), (-1, 0.25)]],
            rows=("Up", "Down"),
            cols=("L", "C", "R"),
            title="my game",
        )
    )
    games.append(bimatrix([[(1, -1), (-1, 1)], [(-1, 1), (1, -1)]]))
    return games


GAMES = _games()


@pytest.mark.parametrize("game", GAMES, ids=lambda g: str(g.spec))
def test_string_round_trip(game: Game) -> None:
    text = str(game.spec)
    again = load(text)
    assert again == game
    assert again.spec.params == game.spec.params
    assert str(again.spec) == text
    name, params = GameSpec.parse(text)
    assert load(name, **params) == game


@pytest.mark.parametrize("game", GAMES, ids=lambda g: str(g.spec))
def test_dict_round_trip(game: Game) -> None:
    data = game.spec.to_dict()
    # The dict is JSON-ready, and survives JSON.
    data = json.loads(json.dumps(data))
    assert GameSpec.from_dict(data) == game.spec
    assert load(GameSpec.from_dict(data)) == game
    assert load_dict(data) == game
    assert hash(GameSpec.from_dict(data)) == hash(game.spec)


def test_str_omits_defaults() -> None:
    assert str(kuhn().spec) == "kuhn"
    assert str(kuhn(cards=3).spec) == "kuhn"
    assert str(kuhn(cards=100).spec) == "kuhn(cards=100)"
    assert str(kuhn(players=3).spec) == "kuhn(players=3)"  # cards=4 is the derived default
    assert str(kuhn(cards=4, players=3).spec) == "kuhn(players=3)"
    assert str(kuhn(cards=7, players=3).spec) == "kuhn(cards=7, players=3)"
    assert str(leduc().spec) == "leduc"
    assert str(leduc(stack=50, raise_cap=None).spec) == "leduc(stack=50, raise_cap=None)"
    assert str(load("leduc", raise_cap=None, stack=50).spec) == "leduc(stack=50, raise_cap=None)"
    assert str(leduc(ranks=3, raise_cap=2).spec) == "leduc"
    assert str(leduc(players=3).spec) == "leduc(players=3)"
    assert str(load("rps").spec) == "rps"


def test_defaults_are_filled_in() -> None:
    spec = leduc().spec
    assert spec.param_names == [
        "stack",
        "raise_cap",
        "ranks",
        "pair_counts",
        "players",
        "ante",
        "bets",
    ]
    assert spec.as_kwargs() == {
        "stack": None,
        "raise_cap": 2,
        "ranks": 3,
        "pair_counts": True,
        "players": 2,
        "ante": 1,
        "bets": (2, 4),
    }
    assert leduc(players=3).spec.get("ranks") == 4
    assert kuhn(players=3).spec.get("cards") == 4
    with pytest.raises(SpecError, match="no parameter 'nope'"):
        spec.get("nope")


def test_equal_rules_equal_games() -> None:
    assert kuhn(cards=3) == kuhn()
    assert hash(kuhn(cards=3)) == hash(kuhn())
    assert load("kuhn(cards=3)") == load("kuhn") == load("kuhn", cards=3)
    assert load("kuhn()") == kuhn()
    assert load("  leduc( stack = 50 ,raise_cap=None ) ") == leduc(stack=50, raise_cap=None)
    assert load("leduc", stack=50, raise_cap=None) == leduc(stack=50, raise_cap=None)
    assert load(leduc(stack=50, raise_cap=None).spec) == leduc(stack=50, raise_cap=None)
    assert load("leduc(bets=[2, 4])") == leduc()  # a list is a tuple
    assert kuhn(cards=4) != kuhn()
    assert leduc() != leduc(stack=50)
    assert kuhn() != leduc()
    assert load("rps") != load("dominance")


def test_load_overrides_spec_params() -> None:
    assert load("kuhn(cards=10)", cards=4) == kuhn(cards=4)
    assert load(kuhn(cards=10).spec, players=3) == kuhn(cards=10, players=3)


def test_spec_repr_of_values() -> None:
    game = bimatrix([[(0.1, -0.1)]], rows=("it's",), cols=('say "hi"',), title="a, b")
    assert load(str(game.spec)) == game
    assert game.row_names == ("it's",)


def test_registered_games_all_load() -> None:
    names = [entry.name for entry in registered()]
    assert names == sorted(names)
    for name in ("kuhn", "leduc", "rps", "dominance", "battle_of_sexes", "matrix"):
        assert name in names
    for entry in registered():
        if entry.name in ("matrix", "holdem"):
            continue
        game = load(entry.name)
        assert game.spec.name == entry.name
        assert load(str(game.spec)) == game


def test_parse() -> None:
    assert GameSpec.parse("kuhn") == ("kuhn", {})
    assert GameSpec.parse("leduc(stack=50, raise_cap=None)") == (
        "leduc",
        {"stack": 50, "raise_cap": None},
    )
    assert GameSpec.parse("matrix(payoffs=[[(1, -1)]])") == ("matrix", {"payoffs": [[(1, -1)]]})
