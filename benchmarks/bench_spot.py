"""The range solver (public tree, vectors over hands) against pokerlab's compiled CFR+
and the published figures of the Rust postflop solver.

Rows: ``kuhn(cards=100)`` to exploitability 1e-4 (target < 0.02 s); standard Leduc to
1e-3, side by side with :class:`pokerlab.solvers.CFRPlus` in the same run (target: at
least as fast); the Hold'em river and turn spots of issue 13 (pot 200, stack 900, bets
50% and 100%, raises 2.5x, no automatic all-in) to 0.5% and 0.1% of the pot, against the
Rust postflop solver's published figures for the same spot and tree (3 ms and 7 ms on the
river; 2-3 s and about 25 ms per iteration on the turn). Every solver checks its
exploitability every 10 iterations, checks included in the time; kernels are compiled
and trees built before timing.

Times are the solving thread's CPU time (``time.thread_time``), single thread: the
project's machine is shared, and wall time there measures the other jobs as much as the
solver (the wall time of the same run is in the note).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

from benchmarks._harness import Row
from pokerlab.games import Game, kuhn, leduc
from pokerlab.solvers import CFRPlus
from pokerlab.subgame import PublicTreeCFR, RangeSolver, Spot
from pokerlab.tree import compile

CHECK_EVERY = 10
OOP = "66+,A8s+,A5s-A4s,AJo+,K9s+,KQo,QTs+,JTs,96s+,85s+,75s+,65s,54s"
IP = "QQ-22,AQs-A2s,ATo+,K5s+,KJo+,Q8s+,J8s+,T7s+,96s+,86s+,75s+,64s+,53s+"
RIVER = "Td9d6hQc2s"
TURN = "Td9d6hQc"

T = TypeVar("T")


def _timed(run: Callable[[], T], repeat: int) -> tuple[float, float, T]:
    """Best thread CPU time and the wall time of that run, and the last result."""
    best_cpu, best_wall = float("inf"), float("inf")
    result: T | None = None
    for _ in range(repeat):
        cpu, wall = time.thread_time(), time.perf_counter()
        result = run()
        cpu, wall = time.thread_time() - cpu, time.perf_counter() - wall
        if cpu < best_cpu:
            best_cpu, best_wall = cpu, wall
    assert result is not None
    return best_cpu, best_wall, result


def _range_to_target(game: Game, target: float, repeat: int) -> tuple[float, float, PublicTreeCFR]:
    PublicTreeCFR(game).run(iterations=CHECK_EVERY, check_every=CHECK_EVERY)  # warm up
    return _timed(lambda: PublicTreeCFR(game).run(target_exploitability=target,
                                                  check_every=CHECK_EVERY), repeat)


def _cfr_plus_to_target(game: Game, target: float, repeat: int) -> tuple[float, float, CFRPlus]:
    compile(game)
    CFRPlus(game).run(iterations=CHECK_EVERY, check_every=CHECK_EVERY)
    return _timed(lambda: CFRPlus(game).run(target_exploitability=target,
                                            check_every=CHECK_EVERY), repeat)


def _final(history_owner: PublicTreeCFR | CFRPlus | RangeSolver) -> float:
    value = history_owner.history[-1].exploitability
    assert value is not None
    return value


def _spot_rows(board: str, targets: list[tuple[float, float]], repeat: int,
               per_iteration_peer: float | None) -> list[Row]:
    spot = Spot(board=board, oop=OOP, ip=IP, pot=200, stack=900, bets="50%,100%",
                raises="2.5x")
    start = time.perf_counter()
    built = spot.build()
    build_seconds = time.perf_counter() - start
    public = built.public
    RangeSolver(public).run(iterations=1, check_every=1)  # compile the kernels
    street = "river" if len(spot.board_cards) == 5 else "turn"
    size = (f"{public.tree.n_nodes:,} nodes, {public.n_hands[0]} x {public.n_hands[1]} hands, "
            f"built in {build_seconds:.2f} s")
    rows = []
    for percent, peer in targets:
        target = percent / 100 * spot.pot
        cpu, wall, solver = _timed(lambda target=target: RangeSolver(public).run(
            target_exploitability=target, check_every=CHECK_EVERY), repeat)
        rows.append(Row(f"range DCFR {street} spot {board} to {percent:g}% of the pot", "s",
                        cpu, "Rust postflop-solver (published)", peer, target="<= 1.5x peer",
                        note=f"{solver.iterations} its, final "
                        f"{100 * _final(solver) / spot.pot:.3f}%; wall {wall:.3f} s; {size}"))
    if per_iteration_peer is not None:
        solver = RangeSolver(public)
        iterations = 3
        def advance() -> int:
            solver._advance(iterations)
            return iterations

        cpu, wall, _ = _timed(advance, 2)
        rows.append(Row(f"range DCFR {street} spot {board}, time per iteration", "s",
                        cpu / iterations, "Rust postflop-solver (published)", per_iteration_peer,
                        target="<= 1.5x peer", note=f"wall {wall / iterations:.3f} s; {size}"))
    return rows


def run(quick: bool) -> list[Row]:
    """Time the range solver side by side with its peers; return the rows."""
    repeat = 3 if quick else 7
    rows: list[Row] = []

    game = kuhn(cards=100)
    cpu, wall, solver = _range_to_target(game, 1e-4, repeat)
    peer_cpu, _, peer = _cfr_plus_to_target(game, 1e-4, repeat)
    rows.append(Row("range DCFR kuhn(cards=100) to 1e-4", "s", cpu,
                    "pokerlab CFRPlus (compiled tree)", peer_cpu, target="< 0.02 s",
                    note=f"{solver.iterations} its (final {_final(solver):.2g}), wall "
                    f"{wall:.4f} s; peer {peer.iterations} its; tree building excluded"))

    game = leduc()
    cpu, wall, solver = _range_to_target(game, 1e-3, repeat)
    peer_cpu, _, peer = _cfr_plus_to_target(game, 1e-3, repeat)
    rows.append(Row("range DCFR leduc to 1e-3", "s", cpu, "pokerlab CFRPlus (compiled tree)",
                    peer_cpu, target=">= 1x",
                    note=f"{solver.iterations} its (final {_final(solver):.2g}), wall "
                    f"{wall:.3f} s; peer {peer.iterations} its"))

    rows += _spot_rows(RIVER, [(0.5, 0.003), (0.1, 0.007)], repeat, None)
    rows += _spot_rows(TURN, [] if quick else [(0.5, 2.5)], 1, 0.025)
    return rows
