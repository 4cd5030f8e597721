"""The range solver (public tree, vectors over hands) against pokerlab's compiled CFR+
and the published figures of the Rust postflop solver.

Rows: ``kuhn(cards=100)`` to exploitability 1e-4 (target < 0.02 s); standard Leduc to
1e-3, side by side with :class:`pokerlab.solvers.CFRPlus` in the same run (target: at
least as fast); Hold'em river and turn spots from issue 13 (added with the spots).
Both sides measure exploitability every 10 iterations, measurements included in the wall
time; kernels are compiled (and trees built) before timing.
"""

from __future__ import annotations

import time

from benchmarks._harness import Row
from pokerlab.games import Game, kuhn, leduc
from pokerlab.solvers import CFRPlus
from pokerlab.subgame import PublicTreeCFR
from pokerlab.tree import compile

CHECK_EVERY = 10


def _best_of(repeat: int, run: object) -> tuple[float, object]:
    best = float("inf")
    result = None
    for _ in range(repeat):
        start = time.perf_counter()
        result = run()  # type: ignore[operator]
        best = min(best, time.perf_counter() - start)
    return best, result


def _range_to_target(game: Game, target: float, repeat: int) -> tuple[float, PublicTreeCFR]:
    PublicTreeCFR(game).run(iterations=CHECK_EVERY, check_every=CHECK_EVERY)  # warm up
    wall, solver = _best_of(repeat, lambda: PublicTreeCFR(game).run(
        target_exploitability=target, check_every=CHECK_EVERY))
    assert isinstance(solver, PublicTreeCFR)
    return wall, solver


def _cfr_plus_to_target(game: Game, target: float, repeat: int) -> tuple[float, CFRPlus]:
    compile(game)
    CFRPlus(game).run(iterations=CHECK_EVERY, check_every=CHECK_EVERY)
    wall, solver = _best_of(repeat, lambda: CFRPlus(game).run(
        target_exploitability=target, check_every=CHECK_EVERY))
    assert isinstance(solver, CFRPlus)
    return wall, solver


def _final(solver: PublicTreeCFR) -> float:
    return solver.history[-1].exploitability


def run(quick: bool) -> list[Row]:
    """Time the range solver side by side with its peers; return the rows."""
    repeat = 3 if quick else 7
    rows: list[Row] = []

    game = kuhn(cards=100)
    wall, solver = _range_to_target(game, 1e-4, repeat)
    peer_wall, peer = _cfr_plus_to_target(game, 1e-4, repeat)
    rows.append(Row("range DCFR kuhn(cards=100) to 1e-4", "s", wall,
                    "pokerlab CFRPlus (compiled tree)", peer_wall, target="< 0.02 s",
                    note=f"{solver.iterations} its (final {_final(solver):.2g}); "
                    f"peer {peer.iterations} its; tree building excluded"))

    game = leduc()
    wall, solver = _range_to_target(game, 1e-3, repeat)
    peer_wall, peer = _cfr_plus_to_target(game, 1e-3, repeat)
    rows.append(Row("range DCFR leduc to 1e-3", "s", wall, "pokerlab CFRPlus (compiled tree)",
                    peer_wall, target=">= 1x",
                    note=f"{solver.iterations} its (final {_final(solver):.2g}); "
                    f"peer {peer.iterations} its"))
    return rows
