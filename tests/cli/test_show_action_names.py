"""``pokerlab show`` and ``lp`` name each row's actions as play does (issue 26, item 6).

Leduc's opening was ``call``/``raise`` in tables and ``check``/``bet`` in play; the table,
``--json`` and ``--csv`` now say ``check``/``bet`` where no bet is faced and
``fold``/``call``/``raise`` where one is, and what they print reads back as the strategy.
The same holds for Rhode Island's range rows and for the rows of a Hold'em infoset table
(a game too big to compile), whose betting is rebuilt from each key.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import numpy as np
import pytest

from pokerlab.cli import main
from pokerlab.strategy import Strategy


@pytest.fixture(scope="module")
def leduc_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("names") / "leduc.npz"
    assert main(["solve", "leduc", "--algorithm", "cfr+", "--iterations", "5",
                 "--out", str(path)]) == 0
    return path


def _out(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    capsys.readouterr()
    assert main(argv) == 0
    return capsys.readouterr().out


def test_show_json_names_the_opening_check_and_bet(
        capsys: pytest.CaptureFixture[str], leduc_file: Path) -> None:
    infosets = json.loads(_out(capsys, ["show", str(leduc_file), "--json"]))["infosets"]
    assert list(infosets["A|"]["actions"]) == ["check", "bet"]
    assert list(infosets["A|c"]["actions"]) == ["check", "bet"]
    assert list(infosets["A|r"]["actions"]) == ["fold", "call", "raise"]
    assert list(infosets["A|rr"]["actions"]) == ["fold", "call"]
    assert list(infosets["A|K|cc|"]["actions"]) == ["check", "bet"]


def test_show_csv_names_rows_as_the_json_does(
        capsys: pytest.CaptureFixture[str], leduc_file: Path) -> None:
    infosets = json.loads(_out(capsys, ["show", str(leduc_file), "--json"]))["infosets"]
    lines = list(csv.reader(io.StringIO(_out(capsys, ["show", str(leduc_file), "--csv"]))))
    assert lines[0] == ["infoset", "player", "action", "probability"]
    assert lines[1][:3] == ["A|", "1", "check"]
    assert lines[2][:3] == ["A|", "1", "bet"]
    from_csv: dict[str, list[str]] = {}
    for key, _, name, _ in lines[1:]:
        from_csv.setdefault(key, []).append(name)
    assert from_csv == {key: list(value["actions"]) for key, value in infosets.items()}


def test_show_table_has_check_and_bet_columns_filled_at_the_opening(
        capsys: pytest.CaptureFixture[str], leduc_file: Path) -> None:
    text = _out(capsys, ["show", str(leduc_file), "--prefix", "A|"])
    header = next(line for line in text.splitlines() if "infoset" in line)
    columns = [cell.strip() for cell in header.split("┃")[1:-1]]
    assert columns == ["infoset", "player", "check", "bet", "fold", "call", "raise"]
    rows = {cells[0]: cells for line in text.splitlines() if line.startswith("│")
            for cells in [[cell.strip() for cell in line.split("│")[1:-1]]]}
    opening = dict(zip(columns, rows["A|"], strict=True))
    assert float(opening["check"]) + float(opening["bet"]) == pytest.approx(1, abs=1e-3)
    assert opening["fold"] == opening["call"] == opening["raise"] == ""
    facing = dict(zip(columns, rows["A|r"], strict=True))
    assert facing["check"] == facing["bet"] == ""
    assert sum(float(facing[name]) for name in ("fold", "call", "raise")) == pytest.approx(
        1, abs=1e-3)


def test_what_show_prints_reads_back_as_the_strategy(
        capsys: pytest.CaptureFixture[str], leduc_file: Path) -> None:
    strategy = Strategy.load(leduc_file)
    infosets = json.loads(_out(capsys, ["show", str(leduc_file), "--json"]))["infosets"]
    again = Strategy.from_dict(strategy.game, {k: v["actions"] for k, v in infosets.items()},
                               default="error")
    np.testing.assert_array_equal(again.probs, strategy.probs)
    rows: dict[str, dict[str, float]] = {}
    text = _out(capsys, ["show", str(leduc_file), "--csv"])
    for key, _, name, prob in list(csv.reader(io.StringIO(text)))[1:]:
        rows.setdefault(key, {})[name] = float(prob)
    np.testing.assert_allclose(Strategy.from_dict(strategy.game, rows, default="error").probs,
                               strategy.probs, atol=1e-9)


def test_lp_names_kuhn_rows_as_play(capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(_out(capsys, ["lp", "kuhn", "--json"]))["strategy"]
    assert list(data["K|"]["actions"]) == ["check", "bet"]
    assert list(data["K|b"]["actions"]) == ["fold", "call"]
    assert data["A|b"]["actions"]["call"] == pytest.approx(1.0)  # the ace always calls
    assert data["K|b"]["actions"]["call"] == pytest.approx(1 / 3)  # the middle card: 1/3
    table = _out(capsys, ["lp", "kuhn"])
    header = next(line for line in table.splitlines() if "infoset" in line)
    assert [cell.strip() for cell in header.split("┃")[1:-1]] == [
        "infoset", "player", "check", "bet", "fold", "call"]


def test_rhode_island_rows_are_named_as_play(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "ri.npz"
    assert main(["solve", "rhode_island(ranks=2, suits=2)", "--iterations", "3",
                 "--out", str(path)]) == 0
    infosets = json.loads(_out(capsys, ["show", str(path), "--prefix", "Kc|", "--json"]))[
        "infosets"]
    assert list(infosets["Kc|"]["actions"]) == ["check", "bet"]
    assert list(infosets["Kc|cr"]["actions"]) == ["fold", "call", "raise"]


@pytest.mark.parametrize("spec", ['holdem(betting="limit")', "holdem", "holdem(players=3)"])
def test_holdem_rows_are_named_from_their_keys_as_play_names_them(spec: str) -> None:
    """At every decision of random hands, the betting rebuilt from the key names the legal
    actions as the hand's own state does (the key's cards are mixed in too)."""
    from pokerlab.cli._policy_view import _holdem_betting_state
    from pokerlab.games import load
    from pokerlab.games.holdem import HoldemGame

    game = load(spec)
    assert isinstance(game, HoldemGame)
    rng = np.random.default_rng(7)
    seen: set[str] = set()
    for _ in range(60):
        state = game.initial_state()
        while not state.is_terminal:
            legal = state.legal_actions()
            if state.player >= 0:
                key = state.infoset_key(state.player)
                rebuilt = _holdem_betting_state(game, key)
                assert rebuilt is not None, key
                assert [rebuilt.action_name(a) for a in legal] == [
                    state.action_name(a) for a in legal], key
                seen.update(state.action_name(a).split(" ")[0] for a in legal)
            weights = None
            if state.is_chance:
                outcomes = state.chance_outcomes()
                legal = tuple(a for a, _ in outcomes)
                weights = [p for _, p in outcomes]
            state = state.child(int(rng.choice(legal, p=weights)))
    assert {"check", "bet", "fold", "call", "raise"} <= seen
    assert _holdem_betting_state(game, "AsKd|x") is None  # not betting letters


def test_show_names_a_holdem_tables_rows_as_play(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "holdem.npz"
    assert main(["solve", 'holdem(betting="limit")', "--algorithm", "es-mccfr",
                 "--iterations", "20", "--seed", "1", "--out", str(path)]) == 0
    infosets = json.loads(_out(capsys, ["show", str(path), "--json"]))["infosets"]
    openings = [value["actions"] for key, value in infosets.items()
                if key.count("|") >= 3 and key.endswith("|")]  # a postflop street opens
    assert openings
    assert all(list(actions) == ["check", "bet"] for actions in openings)
    facing = [value["actions"] for key, value in infosets.items() if key.endswith("cr")]
    assert facing
    assert all(list(actions) == ["fold", "call", "raise"] for actions in facing)
