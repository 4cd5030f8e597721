"""Why re-solving a subgame must be safe: Rock-Paper-Scissors, the smallest illustration.

Play Rock-Paper-Scissors in turns: P1 picks, then P2 picks without seeing P1's choice.
The blueprint is the equilibrium, both players uniform. Now "re-solve" P2's decision, the
subgame after P1's move, on its own:

- **unsafe**: assume P1 reaches the subgame as the blueprint says (each action a third of
  the time) and find P2's best strategy there. Against that range every P2 strategy earns
  0, so every one is a solution of the subgame; a linear-programming solver returns a
  vertex, a pure strategy (always Rock, say), and P1 exploits it at once by always playing
  Paper: the full game's exploitability jumps from 0 to 0.5 (NashConv 1).
- **safe** (the re-solving gadget): P1 may instead *terminate* each of its actions with
  the value it had against the blueprint, 0 for each. P2 must then keep every P1 action
  at most at 0, which only the uniform strategy does: exploitability stays 0.

Run ``python -m pokerlab.subgame.rps`` to print the numbers; :func:`rock_paper_scissors`
returns them, measured exactly with :func:`pokerlab.eval.exploitability`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import linprog

from pokerlab._types import FloatArray
from pokerlab.errors import SolverError
from pokerlab.eval import exploitability
from pokerlab.games import MatrixGame, rps
from pokerlab.strategy import Strategy
from pokerlab.tree import compile


@dataclass(frozen=True)
class SecondMoverResolving:
    """A matrix game's second mover re-solved, unsafely and safely.

    Attributes:
        actions: the second mover's action names.
        blueprint: ``(P1, P2)`` strategies of the blueprint.
        unsafe: P2's strategy from the subgame alone (P1's blueprint range assumed).
        safe: P2's strategy from the re-solving gadget.
        blueprint_exploitability: of the blueprint, chips per hand (NashConv / 2).
        unsafe_exploitability: of (P1's blueprint, the unsafe P2).
        safe_exploitability: of (P1's blueprint, the safe P2).
    """

    actions: tuple[str, ...]
    blueprint: tuple[FloatArray, FloatArray]
    unsafe: FloatArray
    safe: FloatArray
    blueprint_exploitability: float
    unsafe_exploitability: float
    safe_exploitability: float


def resolve_second_mover(game: MatrixGame, first: FloatArray,
                         second: FloatArray) -> SecondMoverResolving:
    """Re-solve the second mover's decision of a zero-sum matrix game, both ways.

    Args:
        game: a two-player zero-sum matrix game (P1 rows, P2 columns).
        first: P1's blueprint strategy over the rows.
        second: P2's blueprint strategy over the columns.

    Raises:
        SolverError: if the game is not zero-sum, or HiGHS fails.
    """
    if not game.is_zero_sum:
        raise SolverError(f"{game.spec} is not zero-sum; re-solving needs a zero-sum game")
    payoff = np.asarray(game.A, dtype=np.float64)  # P1's payoff; P2's is its negative
    n_rows, n_cols = payoff.shape
    # Unsafe: P2's best strategy against P1's blueprint range, min_y first @ A @ y.
    unsafe = linprog(first @ payoff, A_eq=np.ones((1, n_cols)), b_eq=[1.0],
                     bounds=[(0, None)] * n_cols, method="highs")
    # Safe: the gadget. P1 takes max(v_a, (A y)_a) per action a, v = A @ blueprint y; P2
    # minimizes the sum: variables (y, t), min sum t, t_a >= v_a, t_a >= (A y)_a.
    values = payoff @ second
    cost = np.concatenate([np.zeros(n_cols), np.ones(n_rows)])
    upper = np.hstack([payoff, -np.eye(n_rows)])
    gadget = linprog(cost, A_ub=upper, b_ub=np.zeros(n_rows),
                     A_eq=np.concatenate([np.ones((1, n_cols)), np.zeros((1, n_rows))], axis=1),
                     b_eq=[1.0], bounds=[(0, None)] * n_cols + [(v, None) for v in values],
                     method="highs")
    if unsafe.status != 0 or gadget.status != 0:
        raise SolverError(f"HiGHS failed: {unsafe.message} / {gadget.message}")
    unsafe_y = np.clip(unsafe.x, 0.0, None)
    safe_y = np.clip(gadget.x[:n_cols], 0.0, None)

    def measure(y: FloatArray) -> float:
        tree = compile(game)
        rows = {tree.infoset_keys[0]: list(first / first.sum()),
                tree.infoset_keys[1]: list(y / y.sum())}
        return exploitability(game, Strategy.from_dict(game, rows))

    names = tuple(game.action_name(a) for a in range(n_cols))
    return SecondMoverResolving(
        actions=names, blueprint=(first, second), unsafe=unsafe_y / unsafe_y.sum(),
        safe=safe_y / safe_y.sum(), blueprint_exploitability=measure(second),
        unsafe_exploitability=measure(unsafe_y), safe_exploitability=measure(safe_y),
    )


def rock_paper_scissors() -> SecondMoverResolving:
    """The module docstring's example: RPS, uniform blueprint, P2's move re-solved.

    Example:
        >>> result = rock_paper_scissors()
        >>> result.blueprint_exploitability, result.unsafe_exploitability > 0
        (0.0, True)
        >>> round(result.safe_exploitability, 9), [round(float(p), 6) for p in result.safe]
        (0.0, [0.333333, 0.333333, 0.333333])
    """
    uniform = np.full(3, 1.0 / 3.0)
    return resolve_second_mover(rps(), uniform, uniform.copy())


def main() -> None:
    """Print the example (``python -m pokerlab.subgame.rps``)."""
    result = rock_paper_scissors()
    def show(y: FloatArray) -> str:
        return ", ".join(f"{name} {p:.3f}" for name, p in zip(result.actions, y, strict=True))

    print("Rock-Paper-Scissors in turns; blueprint: both uniform "
          f"(exploitability {result.blueprint_exploitability:.3f})")
    print(f"unsafe re-solving of P2's move: {show(result.unsafe)}; "
          f"exploitability {result.unsafe_exploitability:.3f}")
    print(f"safe re-solving (gadget):       {show(result.safe)}; "
          f"exploitability {result.safe_exploitability:.3f}")


if __name__ == "__main__":
    main()


__all__ = ["SecondMoverResolving", "resolve_second_mover", "rock_paper_scissors"]
