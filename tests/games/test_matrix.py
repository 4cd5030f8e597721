"""Matrix games: the presets' payoffs, bimatrix games, and reading them from CSV and JSON."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from pokerlab._types import TERMINAL
from pokerlab.errors import FileFormatError, IllegalActionError, SpecError
from pokerlab.games import MatrixGame, bimatrix, load, matrix_from_file, rps
from pokerlab.tree import compile


def _payoffs(game: MatrixGame) -> list[list[tuple[float, float]]]:
    """Play every (row, col) through the State API."""
    rows, cols = game.shape
    table = []
    for r in range(rows):
        state = game.initial_state().child(r)
        table.append([state.child(c).returns() for c in range(cols)])
    return table


def test_rps() -> None:
    game = rps()
    assert game == load("rps")
    assert game.shape == (3, 3)
    assert game.row_names == ("Rock", "Paper", "Scissors")
    assert game.is_zero_sum
    np.testing.assert_array_equal(game.A, [[0, -1, 1], [1, 0, -1], [-1, 1, 0]])
    np.testing.assert_array_equal(game.B, -game.A)
    assert _payoffs(game)[1][0] == (1.0, -1.0)  # paper covers rock
    assert game.action_name(2) == "Scissors"


def test_dominance() -> None:
    game = load("dominance")
    assert isinstance(game, MatrixGame)
    assert game.shape == (3, 3)
    assert not game.is_zero_sum
    assert _payoffs(game) == [
        [(10, 2), (8, 1), (3, -1)],
        [(5, 8), (4, 0), (-1, 1)],
        [(7, 3), (5, -1), (0, 3)],
    ]
    # The tutorial's chain: Action 1 strictly dominates Action 2 for P1 ...
    assert np.all(game.A[0] > game.A[1])


def test_battle_of_sexes() -> None:
    game = load("battle_of_sexes")
    assert isinstance(game, MatrixGame)
    assert game.row_names == ("Tennis", "Power Rangers")
    assert _payoffs(game) == [[(3, 2), (0, 0)], [(0, 0), (2, 3)]]
    assert not game.is_zero_sum


def test_extensive_form_of_a_matrix_game() -> None:
    game = bimatrix([[(1, 2), (3, 4), (5, 6)], [(7, 8), (9, 10), (11, 12)]])
    root = game.initial_state()
    assert root.player == 0
    assert root.legal_actions() == (0, 1)
    assert root.infoset_key() == "P1"
    after = root.child(1)
    assert after.player == 1
    assert after.legal_actions() == (0, 1, 2)
    assert after.infoset_key() == "P2"  # P2 does not see the row
    assert after.chance_outcomes() == ()
    end = after.child(2)
    assert end.player == TERMINAL
    assert end.returns() == (11.0, 12.0)
    with pytest.raises(IllegalActionError, match="legal"):
        root.child(2)
    assert game.max_actions == 3
    assert game.row_names == ("Row 1", "Row 2")
    assert game.col_names == ("Col 1", "Col 2", "Col 3")
    tree = compile(game)
    assert (tree.n_histories, tree.n_terminals, tree.n_infosets) == (1 + 2 + 6, 6, 2)
    assert tree.n_sequences == (3, 4)


def test_bimatrix_names_and_errors() -> None:
    game = bimatrix([[(1, -1)], [(2, -2)]], rows=["a", "b"], cols=["x"], title="t")
    assert game.row_names == ("a", "b")
    assert game.col_names == ("x",)
    assert game.title == "t"
    assert game.is_zero_sum
    with pytest.raises(SpecError, match="rows must be 2 names"):
        bimatrix([[(1, -1)], [(2, -2)]], rows=["a"])
    with pytest.raises(SpecError, match="row lengths"):
        bimatrix([[(1, -1), (0, 0)], [(2, -2)]])
    with pytest.raises(SpecError, match="pairs"):
        bimatrix([[(1, -1, 0)]])
    with pytest.raises(SpecError, match="pairs"):
        bimatrix([])
    with pytest.raises(SpecError, match="finite"):
        bimatrix([[(float("inf"), 0.0)]])
    with pytest.raises(SpecError, match="finite"):
        bimatrix([[(float("nan"), 0.0)]])


# -- files ----------------------------------------------------------------------------------

EXPECTED = [[(3.0, 2.0), (0.0, 0.0)], [(0.0, 0.0), (2.0, 3.0)]]


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_csv_bimatrix(tmp_path: Path) -> None:
    path = _write(
        tmp_path, "bos.csv", ",Tennis,Power Rangers\nTennis,3;2,0;0\nPower Rangers,0;0,2;3\n"
    )
    game = matrix_from_file(path)
    assert _payoffs(game) == EXPECTED
    assert game.row_names == ("Tennis", "Power Rangers")
    assert game.col_names == ("Tennis", "Power Rangers")
    assert game.title == "bos"
    assert load(str(game.spec)) == game
    assert matrix_from_file(str(path)) == game


def test_csv_zero_sum(tmp_path: Path) -> None:
    text = ", R , P , S \nR,0,-1,1\n\nP,1,0,-1\nS,-1,1,0\n"
    game = matrix_from_file(_write(tmp_path, "rps.csv", text))
    assert game.is_zero_sum
    np.testing.assert_array_equal(game.A, rps().A)
    np.testing.assert_array_equal(game.B, -rps().A)
    assert game.col_names == ("R", "P", "S")


def test_csv_mixed_cells(tmp_path: Path) -> None:
    game = matrix_from_file(_write(tmp_path, "m.csv", ",a,b\nx,1.5;-2,3\n"))
    assert _payoffs(game) == [[(1.5, -2.0), (3.0, -3.0)]]


def test_json_payoffs(tmp_path: Path) -> None:
    data = {
        "rows": ["Tennis", "Power Rangers"],
        "cols": ["Tennis", "Power Rangers"],
        "payoffs": [[[3, 2], [0, 0]], [[0, 0], [2, 3]]],
        "title": "bos",
    }
    game = matrix_from_file(_write(tmp_path, "bos.json", json.dumps(data)))
    assert _payoffs(game) == EXPECTED
    assert game.title == "bos"
    assert game == load(
        "matrix", payoffs=data["payoffs"], rows=data["rows"], cols=data["cols"], title="bos"
    )


def test_json_a_b(tmp_path: Path) -> None:
    data = {"A": [[3, 0], [0, 2]], "B": [[2, 0], [0, 3]]}
    game = matrix_from_file(_write(tmp_path, "ab.json", json.dumps(data)))
    assert _payoffs(game) == EXPECTED
    assert game.title == "ab"
    zero_sum = matrix_from_file(_write(tmp_path, "a.json", json.dumps({"A": [[0, -1], [1, 0]]})))
    assert zero_sum.is_zero_sum
    np.testing.assert_array_equal(zero_sum.B, [[0, 1], [-1, 0]])


@pytest.mark.parametrize(
    ("text", "where"),
    [
        (",a,b\nx,1;2,3;4\ny,1;2,oops\n", r"line 3, column 'b'.*'oops' is not a number"),
        (",a,b\nx,1;2,3;4\ny,1;2\n", r"line 3: expected 3 cells"),
        (",a,b\nx,1;2;3,3;4\n", r"line 2, column 'a'.*'a;b' or 'a'"),
        (",a,b\n\n\nx,1;2,3;4\n\ny,1;2,;4\n", r"line 6, column 'b'"),  # blank lines count
        (",a,b\nx,1;2,inf\n", r"line 2, column 'b'.*finite"),
        (",a,b\n", r"expected a header"),
        ("", r"expected a header"),
    ],
)
def test_malformed_csv(tmp_path: Path, text: str, where: str) -> None:
    path = _write(tmp_path, "bad.csv", text)
    with pytest.raises(FileFormatError, match=where):
        matrix_from_file(path)


@pytest.mark.parametrize(
    ("text", "what"),
    [
        ('{"payoffs": [[[1, 2]], [[1, 2], [3, 4]]]}', "row lengths"),
        ('{"payoffs": [[1, 2]]}', "malformed payoffs"),
        ('{"A": [[1, 2], [3]]}', "malformed payoffs"),
        ('{"A": [1, 2]}', "matrices of one shape"),
        ('{"A": [[1, 2]], "B": [[1, 2], [3, 4]]}', "matrices of one shape"),
        ('{"payoffs": [[[1, 2]]], "rows": ["a", "b"]}', "rows must be 1 names"),
        ('{"payoffs": [[[NaN, 2]]]}', "finite"),
        ('{"B": [[1]]}', "'payoffs' or 'A'"),
        ("[1, 2]", "JSON object"),
        ('{"A": [[1, 2]', "not valid JSON"),
    ],
)
def test_malformed_json(tmp_path: Path, text: str, what: str) -> None:
    path = _write(tmp_path, "bad.json", text)
    with pytest.raises(FileFormatError, match=what):
        matrix_from_file(path)


def test_missing_or_unknown_file(tmp_path: Path) -> None:
    with pytest.raises(FileFormatError, match="does not exist"):
        matrix_from_file(tmp_path / "nope.csv")
    with pytest.raises(FileFormatError, match=r"\.csv or \.json"):
        matrix_from_file(_write(tmp_path, "m.txt", ",a\nx,1\n"))
    binary = tmp_path / "bin.csv"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(FileFormatError):
        matrix_from_file(binary)
