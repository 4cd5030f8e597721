"""What ``show`` and ``exploit`` do with policy files that are not a plain strategy.

Every file a pokerlab command saves a strategy to is read by the one reader
(:func:`pokerlab.agents.policy_files.read_policy_file`). A policy of a game that compiles
is tabulated (asked once per infoset) and then shown and measured exactly like a strategy
file; Rhode Island checkpoints are measured exactly on their public tree, whatever their
size. Otherwise ``show`` lists an infoset table's own rows, or says what the file holds and
which commands read it; ``exploit`` says in one line why it cannot measure and what does
(``pokerlab lbr`` on heads-up Hold'em).
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pokerlab.cli._common import check_input_file, console
from pokerlab.errors import GameTooLargeError, PokerlabError

if TYPE_CHECKING:
    from pokerlab.agents.policy_files import PolicyFile
    from pokerlab.games.base import State
    from pokerlab.games.holdem import HoldemGame
    from pokerlab.strategy import InfosetTable, Strategy

MAX_ROWS = 200
"""The most table rows ``show`` prints without --json/--csv (a Hold'em table has thousands)."""

LBR_GAME = 'holdem(betting="limit")'
"""The game ``pokerlab lbr`` measures when given no --game."""


def read_file(file: Path) -> PolicyFile:
    """The policy file ``file``: any kind pokerlab writes (:mod:`pokerlab.agents.policy_files`)."""
    from pokerlab.agents.policy_files import read_policy_file

    check_input_file(file)
    return read_policy_file(file)


def as_strategy(found: PolicyFile, purpose: str) -> Strategy:
    """The file's policy as a strategy on its compiled game (tabulated if need be).

    Raises:
        GameTooLargeError: the game does not compile.
    """
    from pokerlab.strategy import Strategy, tabulate

    if isinstance(found.policy, Strategy):
        return found.policy
    return tabulate(found.policy, purpose=purpose)


def measure_command(found: PolicyFile) -> str:
    """The command that measures the file's policy when exploit cannot (one line)."""
    from pokerlab.games.holdem import HoldemGame

    game = found.policy.game
    path = shlex.quote(str(found.path))
    if isinstance(game, HoldemGame) and game.n_players == 2:
        option = "" if str(game.spec) == str(_lbr_game().spec) else (
            f" --game {shlex.quote(str(game.spec))}")
        return f"measure it with local best response instead: pokerlab lbr {path}{option}"
    seats = " ".join([path, *["random"] * (game.n_players - 1)])
    return (f"measure it in a match instead: pokerlab match {shlex.quote(str(game.spec))} "
            f"{seats}")


def _lbr_game() -> Any:
    from pokerlab.games import load

    return load(LBR_GAME)


def too_large(found: PolicyFile, error: GameTooLargeError) -> PokerlabError:
    """The one-line refusal of ``exploit`` on a game too big to compile."""
    game = found.policy.game
    del error  # its text is a paragraph; the refusal is one line
    return PokerlabError(f"{found.path}: no exact exploitability: {game.spec} is too big to "
                         f"compile; {measure_command(found)}")


def range_evaluation(found: PolicyFile) -> tuple[float, list[float]]:
    """Exploitability and best-response values of a Rhode Island checkpoint (exact)."""
    from pokerlab.subgame.range_solver import evaluate_profile
    from pokerlab.subgame.rhode_island import RhodeIslandStrategy, symmetric_arrays

    policy = found.policy
    assert isinstance(policy, RhodeIslandStrategy)
    built = policy.built
    evaluation = evaluate_profile(built.public, symmetric_arrays(built, policy.probs))
    return evaluation.exploitability, list(evaluation.best_response_values)


def table_rows(table: InfosetTable, prefix: str) -> Rows:
    """An infoset table's rows whose key starts with ``prefix``: key, (action name, prob).

    Actions are named as play names them (``check``/``bet`` where no bet is faced), read
    from a state at the row's betting; Hold'em's betting is rebuilt from the key's letters
    (:func:`_holdem_betting_state`), other games keep the game's names.
    """
    from pokerlab.games.holdem import HoldemGame

    game = table.game
    states: dict[str, State | None] = {}
    rows: Rows = []
    for key, row in table.items():
        if not key.startswith(prefix):
            continue
        state = None
        if isinstance(game, HoldemGame):
            betting = key.partition("|")[2]
            if betting not in states:
                states[betting] = _holdem_betting_state(game, key)
            state = states[betting]
        namer = game.action_name if state is None else state.action_name
        rows.append((key, tuple((namer(a), p) for a, p in row.items())))
    return rows


def _holdem_betting_state(game: HoldemGame, key: str) -> State | None:
    """A state of ``game`` with the betting of infoset ``key`` (None if it cannot be rebuilt).

    The key is ``hole|letters`` preflop, ``hole|board|letters|...`` after (one letters
    group per street: ``f`` fold, ``c`` check or call, ``r`` or ``r6`` raise). Cards are
    stand-ins (the first undealt each time): the names of the actions depend on the
    betting only. The rebuilt state's own key must show the same betting, or None.
    """
    import re

    from pokerlab.games.holdem_rules import CALL, FOLD, RAISE

    parts = key.split("|")
    streets = parts[1:] if len(parts) <= 2 else parts[2:]
    state: State = game.initial_state()
    try:
        for letters in streets:
            while state.is_chance:
                state = state.child(state.legal_actions()[0])
            for token in re.findall(r"f|c|r\d*|.", letters):
                if token in ("f", "c"):
                    state = state.child(FOLD if token == "f" else CALL)
                elif token.startswith("r"):
                    state = state.child(RAISE + int(token[1:]) if token[1:] else RAISE)
                else:
                    return None
    except PokerlabError:
        return None
    if state.player < 0:
        return None
    rebuilt = state.infoset_key(state.player).split("|")
    return state if rebuilt[len(rebuilt) - len(streets):] == streets else None


Rows = list[tuple[str, tuple[tuple[str, float], ...]]]
"""Keyed rows: an infoset key and each legal action's name and probability."""


def range_rows(found: PolicyFile, prefix: str, *, limit: int | None = None) -> tuple[Rows, int]:
    """A Rhode Island checkpoint's rows whose key starts with ``prefix``, and how many match.

    One row per decision of the public tree and card held (boards up to suit isomorphism,
    as the tree stores them); ``limit`` stops collecting (not counting) after that many.
    """
    from pokerlab.cards import card_str, parse_card
    from pokerlab.subgame.rhode_island import RhodeIslandStrategy, state_of_key

    policy = found.policy
    assert isinstance(policy, RhodeIslandStrategy)
    built, game = policy.built, policy.game
    tree = built.public.tree
    rows: Rows = []
    total = 0
    for p in (0, 1):
        for node in tree.decision_nodes(p):
            row, parts = tree.row(int(node)), tree.keys[int(node)].split("|")
            board = tuple(parse_card(text) for text in parts[1::2])
            history = ["".join(parts[1::2])] if board else []
            names: tuple[str, ...] = ()
            for h, card in enumerate(game.deck):
                if card in board:
                    continue
                key = "|".join([card_str(card), *history, *parts[0::2]])
                if not key.startswith(prefix):
                    continue
                total += 1
                if limit is not None and len(rows) >= limit:
                    continue
                if not names:
                    state = state_of_key(game, key, p)
                    names = tuple(state.action_name(a) for a in state.legal_actions())
                column = policy.probs[p][row : row + len(names), h]
                rows.append((key, tuple(zip(names, map(float, column), strict=True))))
    return rows, total


def print_rows(title: str, rows: Rows, *, prefix: str, total: int | None = None) -> None:
    """Keyed rows as a rich table (at most :data:`MAX_ROWS`; the rest counted)."""
    from rich.table import Table

    if not rows:
        console.print(f"no infoset matches prefix {prefix!r}")
        return
    total = len(rows) if total is None else total
    shown = rows[:MAX_ROWS]
    names: list[str] = []
    for _, actions in shown:
        for name, _ in actions:
            if name not in names:
                names.append(name)
    view = Table(title=title)
    view.add_column("infoset", style="bold")
    for name in names:
        view.add_column(name, justify="right")
    for key, actions in shown:
        probs = dict(actions)
        view.add_row(key, *(f"{probs[n]:.4f}" if n in probs else "" for n in names))
    console.print(view)
    if total > len(shown):
        example = shown[0][0].split("|")[0] + "|"
        console.print(f"... {total - len(shown):,} more rows; narrow them with --prefix "
                      f"(e.g. the hand {example!r}), or print all with --json or --csv",
                      highlight=False, markup=False)


def describe(found: PolicyFile) -> list[str]:
    """What a file holds, in lines (for policies of games too big to list by infoset)."""
    game = found.policy.game
    words = {"blueprint": "a blueprint (pokerlab blueprint train)",
             "deep": "a Deep CFR network", "range": "a range-solver checkpoint",
             "checkpoint": "a solver checkpoint", "table": "an infoset table",
             "strategy": "a strategy"}
    lines = [f"{found.path}: {words[found.kind]} for {game.spec}"]
    if found.kind == "blueprint":
        from pokerlab.blueprint.store import read_header

        header = read_header(found.path)
        lines += [f"{key}: {header.get(key)}" for key in
                  ("cards_name", "bucket_counts", "bet_menu", "iterations", "seconds", "rows")]
    else:
        metadata = getattr(found.policy, "metadata", None) or {}
        lines += [f"{key}: {value}" for key, value in metadata.items()
                  if key in ("algorithm", "iterations", "seconds")]
    from pokerlab.games.holdem import HoldemGame

    path = shlex.quote(str(found.path))
    other = "easy" if isinstance(game, HoldemGame) else "random"
    lines.append(f"{game.spec} is too big to list by infoset (it does not compile); play it "
                 f"with pokerlab match {shlex.quote(str(game.spec))} {path} "
                 + " ".join([other] * (game.n_players - 1))
                 + (f", or read its header with pokerlab blueprint info {path}"
                    if found.kind == "blueprint" else ""))
    return lines


__all__ = ["MAX_ROWS", "Rows", "as_strategy", "describe", "measure_command", "print_rows",
           "range_evaluation", "range_rows", "read_file", "table_rows", "too_large"]
