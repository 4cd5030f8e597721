"""The CFR family against OpenSpiel's C++ solvers (``pyspiel.CFRPlusSolver``).

Rows: CFR+ per-iteration time on Leduc; wall time to exploitability 1e-3 on Leduc (both
sides measure every 10 iterations, measurements included); Kuhn iterations per second;
kuhn(cards=100) to 1e-4 and leduc(stack=50, raise_cap=None) to 1e-3 (ours only: OpenSpiel's
kuhn_poker takes no card count and its leduc_poker no stack). Trees are compiled before
timing (compilation is cached per game and reported in the notes).
"""

from __future__ import annotations

import resource
import time
import tracemalloc

import pyspiel

from benchmarks._harness import Row, best_time
from pokerlab.games import Game, kuhn, leduc, load
from pokerlab.solvers import CFRPlus
from pokerlab.tree import compile

CHECK_EVERY = 10


def _compile_seconds(game: Game) -> float:
    start = time.perf_counter()
    compile(game)
    return time.perf_counter() - start


def _ours_per_iteration(game: Game, iterations: int, repeat: int) -> float:
    solver = CFRPlus(game)
    solver.run(iterations=2, check_every=2)  # compile the kernels, warm the caches

    def step() -> None:
        for _ in range(iterations):
            solver._iterate()

    return best_time(step, repeat=repeat) / iterations


def _peer_per_iteration(name: str, iterations: int, repeat: int) -> float:
    solver = pyspiel.CFRPlusSolver(pyspiel.load_game(name))
    solver.evaluate_and_update_policy()

    def step() -> None:
        for _ in range(iterations):
            solver.evaluate_and_update_policy()

    return best_time(step, repeat=repeat) / iterations


def _ours_to_target(game: Game, target: float) -> tuple[float, CFRPlus]:
    compile(game)
    CFRPlus(kuhn()).run(iterations=CHECK_EVERY, check_every=CHECK_EVERY)  # warm the kernels
    solver = CFRPlus(game)
    start = time.perf_counter()
    solver.run(target_exploitability=target, check_every=CHECK_EVERY)
    return time.perf_counter() - start, solver


def _peer_to_target(name: str, target: float, cap_seconds: float) -> tuple[float, int, float]:
    game = pyspiel.load_game(name)
    solver = pyspiel.CFRPlusSolver(game)
    start = time.perf_counter()
    iterations = 0
    value = float("inf")
    while time.perf_counter() - start < cap_seconds:
        solver.evaluate_and_update_policy()
        iterations += 1
        if iterations % CHECK_EVERY == 0:
            value = pyspiel.exploitability(game, solver.average_policy())
            if value <= target:
                break
    return time.perf_counter() - start, iterations, value


def _checks_note(wall: float, solver: CFRPlus) -> str:
    checks = len(solver.history)
    measuring = wall - solver.seconds
    return (
        f"{solver.iterations} its, final {solver.history[-1].exploitability:.2g}; "
        f"{checks} checks took {measuring:.3f} s ({100 * measuring / wall:.0f}% of wall)"
    )


def run(quick: bool) -> list[Row]:
    """Time pokerlab's CFR+ and OpenSpiel's side by side; return the rows."""
    repeat = 2 if quick else 5
    rows: list[Row] = []

    # -- Leduc: per-iteration time
    game = leduc()
    compile_s = _compile_seconds(game)
    ours = _ours_per_iteration(game, 50, repeat)
    peer = _peer_per_iteration("leduc_poker", 3 if quick else 10, 2 if quick else 3)
    rows.append(Row("CFR+ leduc iteration", "ms", ours * 1e3, "pyspiel.CFRPlusSolver",
                    peer * 1e3, target=">= 50x",
                    note=f"9,457 histories; tree compiled once in {compile_s:.2f} s"))

    # -- Leduc: wall time to exploitability 1e-3
    wall, solver = _ours_to_target(game, 1e-3)
    cap = 60.0 if quick else 180.0
    peer_wall, peer_its, peer_value = _peer_to_target("leduc_poker", 1e-3, cap)
    reached = "" if peer_value <= 1e-3 else f" (cap hit at {peer_value:.2g})"
    rows.append(Row("CFR+ leduc to 1e-3", "s", wall, "pyspiel.CFRPlusSolver", peer_wall,
                    target=">= 50x",
                    note=_checks_note(wall, solver) + f"; peer {peer_its} its{reached}"))

    # -- Kuhn: iterations per second
    game = kuhn()
    compile(game)
    ours = _ours_per_iteration(game, 2000, repeat)
    solver = CFRPlus(game)
    solver.run(iterations=10, check_every=10)
    loop_iterations = 20000
    start = time.perf_counter()
    solver.run(iterations=loop_iterations, check_every=loop_iterations)
    through_run = (time.perf_counter() - start) / loop_iterations
    peer = _peer_per_iteration("kuhn_poker", 2000, repeat)
    rows.append(Row("CFR+ kuhn iterations/s", "it/s", 1.0 / ours, "pyspiel.CFRPlusSolver",
                    1.0 / peer, higher_is_better=True, target=">= 1x",
                    note=f"through Solver.run(): {1.0 / through_run:,.0f} it/s"))

    # -- kuhn(cards=100) to 1e-4
    game = kuhn(cards=100)
    compile_s = _compile_seconds(game)
    wall, solver = _ours_to_target(game, 1e-4)
    rows.append(Row("CFR+ kuhn(cards=100) to 1e-4", "s", wall, target="< 0.5 s",
                    note=f"{compile(game).n_histories:,} histories (compiled in "
                    f"{compile_s:.2f} s); " + _checks_note(wall, solver)))

    # -- leduc(stack=50, raise_cap=None) to 1e-3, with memory
    if not quick:
        game = load("leduc(stack=50, raise_cap=None)")
        compile_s = _compile_seconds(game)
        tree = compile(game)
        tracemalloc.start()
        wall, solver = _ours_to_target(game, 1e-3)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        rows.append(Row("CFR+ leduc(stack=50, raise_cap=None) to 1e-3", "s", wall,
                        target="< 30 s",
                        note=f"{tree.n_histories:,} histories (compiled in {compile_s:.1f} s, "
                        f"{tree.nbytes / 1e6:.0f} MB); solver peak {peak / 1e6:.0f} MB "
                        f"(tracemalloc), process max RSS {rss:.0f} MB; "
                        + _checks_note(wall, solver)))
    return rows
