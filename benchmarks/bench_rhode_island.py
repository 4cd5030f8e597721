"""Rhode Island Hold'em: the range solver on its public tree against compiled-tree CFR+.

Rows: a reduced deck (``rhode_island(ranks=3, suits=2, raises=1)``, 144,457 histories,
small enough to compile) solved to exploitability 1e-3 chips by Discounted CFR on the
suit-isomorphic public tree and by :class:`pokerlab.solvers.CFRPlus` on the compiled tree,
side by side in the same run (each checks its exploitability every 10 iterations, checks
counted; the trees are built and the kernels compiled before timing); and, without
``--quick``, the full game's time per iteration on its public tree (713,961 nodes x 52
cards, no peer: nothing else runs the game here). The full solve to 1e-3 takes about an
hour and a half on the project's machine: its command and figures are in
docs/benchmarks.md (``pokerlab solve rhode_island --target 1e-3``).

Times are the solving thread's CPU time (``time.thread_time``), single thread: the
machine is shared, and wall time there measures the other jobs as much as the solver
(the wall time of the same run is in the note, with the load average).
"""

from __future__ import annotations

import os
import time

from benchmarks._harness import Row
from pokerlab.games import rhode_island
from pokerlab.solvers import CFRPlus
from pokerlab.subgame.range_solver import RangeSolver
from pokerlab.subgame.rhode_island import rhode_island_public_game
from pokerlab.tree import compile

CHECK_EVERY = 10
TARGET = 1e-3


def _thread_timed(run: object) -> tuple[float, float, object]:
    cpu, wall = time.thread_time(), time.perf_counter()
    result = run()  # type: ignore[operator]
    return time.thread_time() - cpu, time.perf_counter() - wall, result


def run(quick: bool) -> list[Row]:
    """The rows (see the module docstring)."""
    game = rhode_island(ranks=3, suits=2, raises=1)
    built = rhode_island_public_game(game)
    public = built.public
    RangeSolver(public).run(iterations=CHECK_EVERY, check_every=CHECK_EVERY)  # compile kernels
    cpu, wall, ours = _thread_timed(lambda: RangeSolver(public).run(
        target_exploitability=TARGET, check_every=CHECK_EVERY))
    assert isinstance(ours, RangeSolver)
    tree = compile(game)
    CFRPlus(game).run(iterations=CHECK_EVERY, check_every=CHECK_EVERY)
    peer_cpu, peer_wall, peer = _thread_timed(lambda: CFRPlus(game).run(
        target_exploitability=TARGET, check_every=CHECK_EVERY))
    assert isinstance(peer, CFRPlus)
    load = os.getloadavg()[0]
    rows = [Row(
        f"range DCFR {game.spec} to {TARGET:g} chips", "s", cpu,
        "pokerlab CFRPlus (compiled tree)", peer_cpu, target=">= 1x",
        note=(f"{ours.iterations} its (final {ours.last_exploitability:.2g}), wall "
              f"{wall:.2f} s; peer {peer.iterations} its, wall {peer_wall:.2f} s; "
              f"{public.tree.n_nodes:,} public nodes x {public.n_hands[0]} cards against "
              f"{tree.n_histories:,} histories; load {load:.1f}"),
    )]
    if not quick:
        full = rhode_island_public_game(rhode_island()).public
        solver = RangeSolver(full)
        solver.run(iterations=1, check_every=1)
        iterations = 3
        cpu, wall, _ = _thread_timed(lambda: solver._advance(iterations))
        rows.append(Row(
            "range DCFR rhode_island (full game), time per iteration", "s", cpu / iterations,
            "no peer (nothing else here runs the game)", None,
            note=(f"wall {wall / iterations:.2f} s; load {os.getloadavg()[0]:.1f}; "
                  f"{full.tree.n_nodes:,} public nodes x 52 cards, "
                  f"{full.memory_bytes() / 1e9:.2f} GB of solver arrays"),
        ))
    return rows
