"""Spot output a poker player can read (issue 26 item 4).

The summary of `spot solve` (the root's action frequencies and 13x13 grid), `spot show` by
hand class and by combo sorted by class, range weights below chance nodes, both spellings of
a card in node keys, one EV convention in text and JSON, the memory line, and the colours
(one per bet size) that the PNG and the web page share.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import numpy as np
import pytest

from pokerlab.cards import cards_str, parse_cards
from pokerlab.cli import main
from pokerlab.subgame import RangeSolver, Spot
from pokerlab.subgame.range_table import (
    CLASS_ORDER,
    action_colours,
    class_of,
    class_rows,
    combo_order,
    range_frequencies,
)
from pokerlab.subgame.result import SpotSolution

README = Path(__file__).resolve().parents[2] / "README.md"
RIVER = ["--board", "Td9d6hQc2s", "--oop", "AA, JJ, T9s, 87s, K8s, AKo",
         "--ip", "KK, QQ, A9s, J8s, A2s", "--pot", "100", "--stack", "150",
         "--bets", "50%, 100%", "--raises", "a"]


@pytest.fixture(scope="module")
def river(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("river") / "river.npz"
    assert main(["spot", "solve", *RIVER, "--iterations", "100", "--out", str(out),
                 "--json"]) == 0
    return out


@pytest.fixture(scope="module")
def turn() -> SpotSolution:
    spot = Spot(board="AsKd7s2d", oop="AA, T9s, 33", ip="KK, 98s, QJs", pot=60, stack=60,
                bets="100%", raises="")
    built = spot.build()
    return SpotSolution.from_solver(RangeSolver(built.public).run(iterations=30), built)


def test_the_solve_summary_shows_the_roots_strategy(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r.npz"
    assert main(["spot", "solve", *RIVER, "--iterations", "60", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    solution = SpotSolution.load(out)
    root = solution.node("")
    frequencies = range_frequencies(root)
    assert frequencies.sum() == pytest.approx(1.0)
    expected = ", ".join(f"{name} {100 * f:.1f}%"
                         for name, f in zip(root.actions, frequencies, strict=True))
    combos = int((root.weights > 0).sum())
    assert f"OOP's whole range at the root ({combos} combos, weight {combos:.2f}): " \
           f"{expected}" in text
    assert "13x13 grid (% bet or raise" in text
    # The grid's AA cell is the bet-or-raise frequency of OOP's aces.
    aces = [h for h, name in enumerate(root.hands) if class_of(name) == "AA"]
    bets = root.strategy[1:, aces].sum(axis=0).mean()
    assert f"\n    A{100 * bets:5.0f}" in text
    assert f"pokerlab spot show {out}" in text

    assert main(["spot", "solve", *RIVER, "--iterations", "60"]) == 0
    assert "add --out FILE" in capsys.readouterr().out


def test_the_solve_json_has_the_roots_strategy_and_one_ev(
    river: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["spot", "solve", *RIVER, "--iterations", "100", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    solution = SpotSolution.load(river)
    assert data["root"]["actions"] == list(solution.node("").actions)
    assert data["root"]["frequencies"] == pytest.approx(
        list(range_frequencies(solution.node(""))), abs=1e-12)
    assert len(data["root"]["grid"]["values"]) == 13
    ev = data["ev"]
    assert "oop_value" not in data
    assert ev["oop"] + ev["ip"] == pytest.approx(100.0, abs=1e-9)
    assert ev["oop"] == pytest.approx(solution.ev[0], abs=1e-9)
    assert ev["oop_percent_of_pot"] == pytest.approx(ev["oop"], abs=1e-9)  # a pot of 100
    assert "share of the pot" in ev["convention"]


def test_the_ev_is_the_same_figure_in_text_and_json(
    river: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    solution = SpotSolution.load(river)
    oop, ip = solution.ev
    assert main(["spot", "show", str(river)]) == 0
    text = capsys.readouterr().out
    assert (f"EV (share of the pot of 100): OOP {oop:.2f} chips ({oop:.1f}%), IP {ip:.2f} "
            f"chips ({ip:.1f}%)") in text
    # The root's range EV (each hand's EV, weighted by how often it is dealt) is OOP's EV.
    assert f"OOP's range EV (share of the pot of 100): {oop:.2f} chips" in text
    assert main(["spot", "show", str(river), "--json"]) == 0
    node = json.loads(capsys.readouterr().out)
    assert node["ev"]["oop"] == pytest.approx(oop, abs=1e-12)
    assert node["range"]["ev"] == pytest.approx(oop, abs=1e-9)
    assert "share of the pot" in node["ev_convention"]


def test_show_lists_hand_classes_in_order(river: Path, capsys: pytest.CaptureFixture[str]
                                          ) -> None:
    assert main(["spot", "show", str(river)]) == 0
    text = capsys.readouterr().out
    listed = re.findall(r"^│\s+(\w{2,3}) │", text, flags=re.MULTILINE)
    assert listed == ["AA", "AKo", "K8s", "JJ", "T9s", "87s"]
    solution = SpotSolution.load(river)
    rows = {row.label: row for row in class_rows(solution.node(""))}
    assert rows["AKo"].combos == 12  # no ace or king on the board
    assert rows["T9s"].combos == 3  # Td9d is on it
    aks = [h for h, n in enumerate(solution.node("").hands) if class_of(n) == "AKo"]
    root = solution.node("")
    assert rows["AKo"].strategy == pytest.approx(root.strategy[:, aks].mean(axis=1))
    assert rows["AKo"].weight == pytest.approx(len(aks))


def test_show_by_combo_sorts_by_class_not_by_weight(
    river: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["spot", "show", str(river), "--by", "combo", "--hands", "8"]) == 0
    text = capsys.readouterr().out
    listed = re.findall(r"^│\s+(\w{4}) │\s+(\w{2,3}) │", text, flags=re.MULTILINE)
    assert [cls for _, cls in listed] == ["AA"] * 6 + ["AKo"] * 2
    assert all(class_of(hand) == cls for hand, cls in listed)
    assert main(["spot", "show", str(river), "--by", "colour"]) == 1
    assert "--by must be class or combo" in capsys.readouterr().err


def test_class_and_combo_order() -> None:
    assert CLASS_ORDER[:5] == ("AA", "AKs", "AKo", "AQs", "AQo")
    assert CLASS_ORDER[24:27] == ("A2o", "KK", "KQs")
    assert CLASS_ORDER[-1] == "22"
    assert len(set(CLASS_ORDER)) == 169


def test_weights_below_a_chance_node_are_range_weights(turn: SpotSolution) -> None:
    before = turn.node("x-x", player=0)
    after = turn.node("x-x/3c/", player=0)
    holds = np.array(["3c" in name for name in after.hands])
    assert holds.any()
    assert np.all(after.weights[holds] == 0)
    assert after.weights[~holds] == pytest.approx(before.weights[~holds], abs=1e-12)
    assert after.weights.max() > 0.3  # not the chance of the card (1/44 = 0.023)
    # EV and equity are ratios: the same whether the card's chance is in the weights or not.
    assert np.isfinite(after.ev[~holds]).all()
    # The class table sums the range weights: 33 has three combos left after the 3c.
    rows = {row.label: row for row in class_rows(after)}
    assert rows["33"].combos == 3


def test_node_keys_take_a_card_with_or_without_its_slash(
    turn: SpotSolution, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = turn.save(tmp_path / "turn.npz")
    answers = []
    for key in ("x-x/3c", "x-x/3c/"):
        assert main(["spot", "show", str(path), "--node", key, "--json"]) == 0
        answers.append(json.loads(capsys.readouterr().out))
    assert answers[0]["node"] == answers[1]["node"] == "x-x/3c/"
    assert answers[0]["hands"] == answers[1]["hands"]
    assert turn.node("x-x/3c/x").key == turn.node("x-x/3c/x/").key == "x-x/3c/x"
    assert main(["spot", "show", str(path), "--node", "x-x/3z"]) == 1
    assert "no node 'x-x/3z'" in capsys.readouterr().err


def test_the_memory_line_compares_like_with_like() -> None:
    for board in ("Td9d6hQc2s", "Td9d6hQc"):
        size = Spot(board=board, oop="66+, A8s+, AJo+", ip="QQ-22, AQs-A2s, ATo+", pot=200,
                    stack=900, bets="50%, 100%", raises="2.5x").size()
        line = size.describe()
        found = re.search(r"memory about ([\d.,]+) MB with float64 storage, ([\d.,]+) MB with "
                          r"float32 storage, ([\d.,]+) MB compressed to 16 bits \(of which "
                          r"solver arrays ([\d.,]+) MB, ([\d.,]+) MB and ([\d.,]+) MB\)", line)
        assert found, line
        wide, narrow, small, wide_arrays, narrow_arrays, small_arrays = (
            float(g.replace(",", "")) for g in found.groups())
        assert small <= narrow <= wide  # on a river the process itself is nearly all of it
        assert small_arrays < narrow_arrays < wide_arrays <= wide
        assert wide == pytest.approx(size.peak_in(8) / 1e6, rel=0.05)
        assert small == pytest.approx(size.peak_in(2) / 1e6, rel=0.05)


def test_each_bet_size_has_its_own_colour() -> None:
    actions = ["check", "bet 33", "bet 50", "bet 75", "bet 100", "bet 150", "all-in 900"]
    colours = action_colours(actions)
    assert len(set(colours)) == len(actions)
    assert all(re.fullmatch(r"#[0-9a-f]{6}", c) for c in colours)
    facing = action_colours(["fold", "call", "raise 250", "raise 400", "all-in 900"])
    assert len(set(facing)) == 5
    many = action_colours(["check", *(f"bet {k}" for k in range(1, 30))])
    assert len(set(many)) == 30


def test_the_png_uses_the_shared_colours(
    river: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pokerlab.subgame import range_table

    asked: list[tuple[str, ...]] = []

    def spy(actions: tuple[str, ...]) -> tuple[str, ...]:
        asked.append(tuple(actions))
        return action_colours(actions)

    monkeypatch.setattr(range_table, "action_colours", spy)
    png = tmp_path / "grid.png"
    assert main(["spot", "show", str(river), "--png", str(png)]) == 0
    assert asked == [tuple(SpotSolution.load(river).node("").actions)]
    assert png.read_bytes()[:4] == b"\x89PNG"


def test_combo_order_lists_every_combo_with_weight(river: Path) -> None:
    root = SpotSolution.load(river).node("x", player=0)
    order = combo_order(root)
    assert sorted(order.tolist()) == [h for h in range(len(root.hands)) if root.weights[h] > 0]
    ranks = [CLASS_ORDER.index(class_of(root.hands[h])) for h in order]
    assert ranks == sorted(ranks)


def _readme_spot_commands() -> list[str]:
    """The README's ``spot solve`` and ``spot show`` lines (its ``spot report`` over 25
    flops takes minutes: tests/test_readme_commands.py parses it, tests/studies run it
    small)."""
    text = README.read_text().replace("\\\n", " ")
    return [line.split("  #")[0].strip() for line in text.splitlines()
            if line.strip().startswith(("pokerlab spot solve", "pokerlab spot show"))]


def test_the_readme_solves_a_spot_and_shows_its_strategy(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    commands = _readme_spot_commands()
    assert any(c.startswith("pokerlab spot solve") and "--out" in c for c in commands)
    assert any(c.startswith("pokerlab spot show") for c in commands)
    monkeypatch.chdir(tmp_path)
    outputs = []
    for command in commands:
        assert main(shlex.split(command)[1:]) == 0, command
        outputs.append(capsys.readouterr().out)
    assert "whole range at the root" in outputs[0]
    assert "13x13 grid" in outputs[0]
    assert any("by class" in out for out in outputs[1:])


def test_a_card_that_shares_a_subtree_is_shown_in_its_own_suits(turn: SpotSolution) -> None:
    # On AsKd7s2d hearts reuse the clubs' subtrees: 3h is shown as the 3c node, suits swapped.
    assert "x-x/3h/" not in turn.built.node_of_key
    clubs, hearts = turn.node("x-x/3c", player=0), turn.node("x-x/3h", player=0)
    assert hearts.key == "x-x/3h/"
    assert hearts.board == "AsKd7s2d3h"
    assert hearts.children == ("x-x/3h/x", "x-x/3h/b60")
    swapped = {name: name.translate(str.maketrans("ch", "hc")) for name in clubs.hands}
    by_name = dict(zip(hearts.hands, hearts.weights, strict=True))
    for h, name in enumerate(clubs.hands):
        cards = parse_cards(swapped[name])
        real = cards_str(sorted(cards, reverse=True))
        assert by_name[real] == clubs.weights[h]
    assert all(by_name[name] == 0 for name in hearts.hands if "3h" in name)
    below = turn.node("x-x/3h/x")
    for h, name in enumerate(below.hands):
        assert list(below.strategy[:, h]) == pytest.approx(
            turn.probabilities(1, name, "x-x/3h/x"), abs=1e-12)
