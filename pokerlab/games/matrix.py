"""Normal-form (matrix) games: Rock-Paper-Scissors, the tutorial's examples, any bimatrix.

A matrix game is played as a two-step extensive game so that every tree algorithm
applies: P1 picks a row (infoset ``"P1"``), then P2 picks a column without seeing it
(infoset ``"P2"``). Payoffs ``payoffs[row][col] = (P1 payoff, P2 payoff)``.

Presets: ``rps`` (win 1, tie 0, lose -1), ``dominance`` (the tutorial's 3x3 example of
iterated elimination of dominated strategies), ``battle_of_sexes`` (Tennis / Power
Rangers). ``matrix_from_file`` reads any bimatrix from a CSV or JSON file.
"""

from __future__ import annotations

import csv
import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from pokerlab._types import CHANCE, TERMINAL, Action, FloatArray, Player
from pokerlab.errors import FileFormatError, SpecError
from pokerlab.games.base import Game, State
from pokerlab.games.registry import load
from pokerlab.games.spec import GameSpec

PRESETS: dict[str, str] = {
    "rps": "Rock-Paper-Scissors: win 1, tie 0, lose -1",
    "dominance": "the tutorial's 3x3 example solved by eliminating dominated strategies",
    "battle_of_sexes": "Tennis or Power Rangers: agree and both gain, disagree and get 0",
}

_PRESET_TABLES: dict[
    str, tuple[tuple[str, ...], tuple[str, ...], list[list[tuple[float, float]]]]
] = {
    "rps": (
        ("Rock", "Paper", "Scissors"),
        ("Rock", "Paper", "Scissors"),
        [
            [(0, 0), (-1, 1), (1, -1)],
            [(1, -1), (0, 0), (-1, 1)],
            [(-1, 1), (1, -1), (0, 0)],
        ],
    ),
    "dominance": (
        ("Action 1", "Action 2", "Action 3"),
        ("Action 1", "Action 2", "Action 3"),
        [
            [(10, 2), (8, 1), (3, -1)],
            [(5, 8), (4, 0), (-1, 1)],
            [(7, 3), (5, -1), (0, 3)],
        ],
    ),
    "battle_of_sexes": (
        ("Tennis", "Power Rangers"),
        ("Tennis", "Power Rangers"),
        [
            [(3, 2), (0, 0)],
            [(0, 0), (2, 3)],
        ],
    ),
}


class MatrixGame(Game):
    """A two-player normal-form game with payoff matrices ``A`` (P1) and ``B`` (P2)."""

    def __init__(self, spec: GameSpec) -> None:
        self.spec = spec
        self.n_players = 2
        params = spec.as_kwargs()
        if spec.name in _PRESET_TABLES:
            rows, cols, table = _PRESET_TABLES[spec.name]
            self.title = spec.name
        else:
            table = _payoff_table(params["payoffs"])
            n_rows, n_cols = len(table), len(table[0])
            rows = _names(params["rows"], n_rows, "rows", "Row")
            cols = _names(params["cols"], n_cols, "cols", "Col")
            self.title = str(params["title"] or "matrix")
        self.row_names: tuple[str, ...] = tuple(rows)
        self.col_names: tuple[str, ...] = tuple(cols)
        array = np.array(table, dtype=np.float64)  # [rows, cols, 2]
        self.A: FloatArray = array[:, :, 0]
        self.B: FloatArray = array[:, :, 1]

    @property
    def shape(self) -> tuple[int, int]:
        """(number of rows, number of columns)."""
        return (len(self.row_names), len(self.col_names))

    @property
    def max_actions(self) -> int:
        """The larger of the two players' action counts."""
        return max(self.shape)

    @property
    def is_zero_sum(self) -> bool:
        """True when ``A + B == 0`` everywhere."""
        return bool(np.all(self.A + self.B == 0))

    def action_name(self, action: Action) -> str:
        """P1's name for ``action`` when both players share names, else ``row/col``."""
        rows, cols = self.row_names, self.col_names
        if rows == cols or action >= len(cols):
            return rows[action]
        if action >= len(rows):
            return cols[action]
        return f"{rows[action]}/{cols[action]}"

    def initial_state(self) -> MatrixState:
        """P1 to choose a row."""
        return MatrixState(self, ())

    def describe(self) -> str:
        """One line: the title and the shape."""
        return f"{self.title}: {self.shape[0]}x{self.shape[1]} bimatrix game"


@dataclass(frozen=True, slots=True)
class MatrixState(State):
    """P1's row (once chosen) and P2's column (once chosen)."""

    matrix: MatrixGame
    choices: tuple[Action, ...]

    @property
    def game(self) -> MatrixGame:
        """The game."""
        return self.matrix

    @property
    def player(self) -> Player:
        """P1 (0), then P2 (1), then TERMINAL."""
        return len(self.choices) if len(self.choices) < 2 else TERMINAL

    @property
    def history(self) -> tuple[Action, ...]:
        """The row, then the column."""
        return self.choices

    def legal_actions(self) -> tuple[Action, ...]:
        """Every row for P1, every column for P2."""
        if len(self.choices) >= 2:
            return ()
        return tuple(range(self.matrix.shape[len(self.choices)]))

    def chance_outcomes(self) -> tuple[tuple[Action, float], ...]:
        """A matrix game has no chance node."""
        return ()

    def _apply(self, action: Action) -> MatrixState:
        return MatrixState(self.matrix, (*self.choices, action))

    def infoset_key(self, player: Player | None = None) -> str:
        """``"P1"`` or ``"P2"``: neither player sees the other's choice."""
        if player is None:
            player = self.player
        return f"P{player + 1}"

    def action_name(self, action: Action) -> str:
        """The row's or the column's name."""
        names = self.matrix.row_names if len(self.choices) == 0 else self.matrix.col_names
        return names[action]

    def _terminal_returns(self) -> tuple[float, ...]:
        row, col = self.choices
        return (float(self.matrix.A[row, col]), float(self.matrix.B[row, col]))

    def __str__(self) -> str:
        return f"matrix{self.choices}"


assert CHANCE != TERMINAL


def _names(value: object, count: int, what: str, prefix: str) -> tuple[str, ...]:
    if value is None:
        return tuple(f"{prefix} {i + 1}" for i in range(count))
    if (
        not isinstance(value, tuple)
        or len(value) != count
        or not all(isinstance(v, str) for v in value)
    ):
        raise SpecError(
            f"matrix: {what} must be {count} names (one per {what[:-1]}); got {value!r}"
        )
    return value


def _payoff_table(value: object) -> list[list[tuple[float, float]]]:
    allowed = (
        "payoffs must be rows of (P1, P2) finite number pairs, every row the same length"
    )
    if not isinstance(value, tuple) or not value:
        raise SpecError(f"matrix: {allowed}; got {value!r}")
    table: list[list[tuple[float, float]]] = []
    for row in value:
        if not isinstance(row, tuple) or not row:
            raise SpecError(f"matrix: {allowed}; got row {row!r}")
        cells = []
        for cell in row:
            if (
                not isinstance(cell, tuple)
                or len(cell) != 2
                or not all(
                    isinstance(x, int | float) and not isinstance(x, bool) and math.isfinite(x)
                    for x in cell
                )
            ):
                raise SpecError(f"matrix: {allowed}; got cell {cell!r}")
            cells.append((float(cell[0]), float(cell[1])))
        table.append(cells)
    if len({len(r) for r in table}) != 1:
        raise SpecError(f"matrix: {allowed}; row lengths are {[len(r) for r in table]}")
    return table


def preset_builder(name: str) -> Callable[[GameSpec], Game]:
    """The factory of a preset matrix game."""

    def build(spec: GameSpec) -> Game:
        return MatrixGame(spec)

    build.__name__ = f"build_{name}"
    return build


def rps() -> MatrixGame:
    """Rock-Paper-Scissors."""
    game = load("rps")
    assert isinstance(game, MatrixGame)
    return game


def bimatrix(
    payoffs: Sequence[Sequence[tuple[float, float]]],
    *,
    rows: Sequence[str] | None = None,
    cols: Sequence[str] | None = None,
    title: str = "",
) -> MatrixGame:
    """Return the bimatrix game with ``payoffs[row][col] = (P1 payoff, P2 payoff)``."""
    game = load(
        "matrix",
        payoffs=tuple(tuple(tuple(c) for c in r) for r in payoffs),
        rows=None if rows is None else tuple(rows),
        cols=None if cols is None else tuple(cols),
        title=title,
    )
    assert isinstance(game, MatrixGame)
    return game


def matrix_from_file(path: str | Path) -> MatrixGame:
    """Read a bimatrix game from a CSV or JSON file.

    CSV: a header row ``,col1,col2,...``, then one row per P1 action: its name, then one
    cell per column written ``a;b`` (P1 payoff; P2 payoff), or a single number for a
    zero-sum game (P2 gets its negative). JSON: ``{"rows": [...], "cols": [...],
    "payoffs": [[[a, b], ...], ...]}`` (or ``"A"`` and optional ``"B"`` matrices).

    Raises:
        FileFormatError: if the file is missing or malformed; the message says where.
    """
    path = Path(path)
    if not path.is_file():
        raise FileFormatError(f"matrix file {str(path)!r} does not exist")
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise FileFormatError(f"cannot read matrix file {str(path)!r}: {exc}") from None
    if path.suffix.lower() == ".json":
        return _from_json(text, path)
    if path.suffix.lower() == ".csv":
        return _from_csv(text, path)
    raise FileFormatError(f"matrix file {str(path)!r} must end in .csv or .json")


def _number(text: str, where: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise FileFormatError(f"{where}: {text!r} is not a number") from None
    if not math.isfinite(value):
        raise FileFormatError(f"{where}: {text!r} is not a finite number")
    return value


def _from_csv(text: str, path: Path) -> MatrixGame:
    reader = csv.reader(text.splitlines())
    numbered = [(reader.line_num, r) for r in reader if any(cell.strip() for cell in r)]
    rows = [r for _, r in numbered]
    if len(rows) < 2 or len(rows[0]) < 2:
        raise FileFormatError(
            f"{path}: expected a header ',col1,col2,...' and at least one row 'name,a;b,...'"
        )
    cols = tuple(c.strip() for c in rows[0][1:])
    names, table = [], []
    for i, row in numbered[1:]:  # i: the line number in the file, blank lines counted
        if len(row) != len(cols) + 1:
            raise FileFormatError(
                f"{path}, line {i}: expected {len(cols) + 1} cells (a name and one per column), "
                f"got {len(row)}"
            )
        names.append(row[0].strip())
        cells = []
        for j, cell in enumerate(row[1:]):
            where = f"{path}, line {i}, column {cols[j]!r}"
            parts = cell.split(";")
            if len(parts) == 1:
                a = _number(parts[0].strip(), where)
                cells.append((a, -a))
            elif len(parts) == 2:
                cells.append((_number(parts[0].strip(), where), _number(parts[1].strip(), where)))
            else:
                raise FileFormatError(f"{where}: write a cell as 'a;b' or 'a', got {cell!r}")
        table.append(cells)
    return bimatrix(table, rows=names, cols=cols, title=path.stem)


def _from_json(text: str, path: Path) -> MatrixGame:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise FileFormatError(f"{path}: not valid JSON ({exc})") from None
    if not isinstance(data, dict):
        raise FileFormatError(f"{path}: expected a JSON object with 'payoffs' or 'A'")
    try:
        if "payoffs" in data:
            table = [[(float(c[0]), float(c[1])) for c in row] for row in data["payoffs"]]
        elif "A" in data:
            a = np.asarray(data["A"], dtype=np.float64)
            b = -a if "B" not in data else np.asarray(data["B"], dtype=np.float64)
            if a.ndim != 2 or a.shape != b.shape:
                raise FileFormatError(f"{path}: 'A' and 'B' must be matrices of one shape")
            table = [
                [(float(a[i, j]), float(b[i, j])) for j in range(a.shape[1])]
                for i in range(a.shape[0])
            ]
        else:
            raise FileFormatError(f"{path}: expected a key 'payoffs' or 'A'")
    except (TypeError, ValueError, IndexError, KeyError) as exc:
        if isinstance(exc, FileFormatError):
            raise
        raise FileFormatError(f"{path}: malformed payoffs ({exc})") from None
    try:
        return bimatrix(
            table,
            rows=data.get("rows"),
            cols=data.get("cols"),
            title=str(data.get("title", path.stem)),
        )
    except SpecError as exc:
        raise FileFormatError(f"{path}: {exc}") from None
