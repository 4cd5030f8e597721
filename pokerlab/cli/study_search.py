"""``pokerlab study search | determinized-mcts``: search solves tic-tac-toe, not poker.

The tutorial's section 5.

Tic-tac-toe by minimax (plain and alpha-beta, with node counts) and by MCTS self-play;
then determinized search (exact PIMC) on Kuhn and Leduc, its exploitability beside
CFR+'s; ``determinized-mcts``: the sampled algorithm (UCT on sampled deals) on Kuhn at
growing budgets. See :mod:`pokerlab.studies.tictactoe`, :mod:`pokerlab.studies.pimc` and
:mod:`pokerlab.studies.determinized_mcts`.
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table

from pokerlab.cli._common import JsonOption, console, print_json


def search_command(
    mcts_iterations: Annotated[
        int, typer.Option("--mcts-iterations", min=1, help="MCTS playouts per tic-tac-toe move.")
    ] = 1500,
    cfr_iterations: Annotated[
        int, typer.Option("--cfr-iterations", min=1, help="CFR+ iterations to compare with.")
    ] = 200,
    seed: Annotated[int, typer.Option("--seed", min=0, help="The MCTS seed.")] = 0,
    json: JsonOption = False,
) -> None:
    """Solve tic-tac-toe by search, then show determinized search failing on poker."""
    from pokerlab.games import kuhn, leduc
    from pokerlab.studies import tictactoe as ttt
    from pokerlab.studies.pimc import compare_with_cfr

    plain, pruned = ttt.SearchStats(), ttt.SearchStats()
    value = ttt.minimax(ttt.EMPTY, alpha_beta=False, stats=plain)
    ttt.minimax(ttt.EMPTY, alpha_beta=True, stats=pruned)
    _, winner = ttt.mcts_self_play(mcts_iterations, seed=seed)
    poker = {name: compare_with_cfr(game, cfr_iterations) for name, game in
             (("kuhn", kuhn()), ("leduc", leduc()))}  # fmt: skip
    result = {
        "tictactoe": {"minimax_value": value, "minimax_nodes": plain.nodes,
                      "alpha_beta_nodes": pruned.nodes, "mcts_self_play_winner": winner},
        "poker": {name: {"pimc_exploitability": r.pimc_exploitability,
                         "cfr_plus_iterations": r.cfr_iterations,
                         "cfr_plus_exploitability": r.cfr_exploitability}
                  for name, r in poker.items()},
    }  # fmt: skip
    if json:
        print_json(result)
        return
    outcome = {0: "a draw", 1: "X wins", -1: "O wins"}
    console.print(
        f"tic-tac-toe: minimax value {outcome[value]} ({plain.nodes} nodes; alpha-beta "
        f"{pruned.nodes}); MCTS self-play ({mcts_iterations} playouts a move): {outcome[winner]}"
    )
    table = Table(title="Determinized search (PIMC) vs CFR+: exploitability, chips per hand")
    for column in ("game", "PIMC", f"CFR+ ({cfr_iterations} iterations)"):
        table.add_column(column, justify="left" if column == "game" else "right")
    for name, r in poker.items():
        table.add_row(name, f"{r.pimc_exploitability:.4f}", f"{r.cfr_exploitability:.4f}")
    console.print(table)


def determinized_mcts_command(
    simulations: Annotated[
        list[int] | None,
        typer.Option("--simulations", min=1, help="UCT iterations per deal (repeatable)."),
    ] = None,
    determinizations: Annotated[
        int, typer.Option("--determinizations", min=1, help="Deals sampled per infoset.")
    ] = 20,
    cfr_iterations: Annotated[
        int, typer.Option("--cfr-iterations", min=1, help="CFR+ iterations to compare with.")
    ] = 200,
    seed: Annotated[int, typer.Option("--seed", min=0, help="The sampling seed.")] = 0,
    json: JsonOption = False,
) -> None:
    """Sampled determinized MCTS on Kuhn: exploitable at every budget, beside PIMC and CFR+."""
    from pokerlab.games import kuhn
    from pokerlab.studies.determinized_mcts import compare_mcts

    budgets = simulations or [10, 50, 200, 1000]
    results = [
        compare_mcts(kuhn(), determinizations=determinizations, simulations=n, seed=seed,
                     cfr_iterations=cfr_iterations)
        for n in budgets
    ]  # fmt: skip
    if json:
        print_json([r.__dict__ for r in results])
        return
    table = Table(
        title=f"Kuhn: determinized MCTS ({determinizations} sampled deals an infoset) against "
        "exact PIMC and CFR+, exploitability in chips per hand"
    )
    for column in ("UCT iterations a deal", "MCTS", "agrees with PIMC", "exact PIMC",
                   f"CFR+ ({cfr_iterations} iterations)"):  # fmt: skip
        table.add_column(column, justify="right")
    for r in results:
        table.add_row(str(r.simulations), f"{r.mcts_exploitability:.4f}",
                      f"{r.agreement_with_pimc:.0%}", f"{r.pimc_exploitability:.4f}",
                      f"{r.cfr_exploitability:.4f}")  # fmt: skip
    console.print(table)


def add_command(group: typer.Typer) -> None:
    """Add ``search`` and ``determinized-mcts`` to the ``study`` command group."""
    group.command("search")(search_command)
    group.command("determinized-mcts")(determinized_mcts_command)
