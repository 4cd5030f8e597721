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

Times are the solving thread's CPU time (``time.thread_time``), single thread
(``threads=1``): the project's machine is shared, and wall time there measures the other
jobs as much as the solver (the wall time of the same run is in the note). Without
``--quick``, the turn spot is also solved to 0.5% on one and on two threads, timed by the
wall clock (the CPU time of one thread does not count the other), against the Rust
solver's one- and two-thread times measured side by side in issue 27 (1.73 s and 0.88 s).

The turn is timed with float64 and with float32 storage (``RangeSolver(precision=)``);
without ``--quick``, the flop spot ``Td9d6h`` (about 1.07 million public nodes, which fits
the default memory limit only in float32) is built and one iteration timed. Its solve to
0.5% of the pot takes long: :func:`flop_solve` runs it with a progress line per check.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Any, TypeVar

import numba
import numpy as np

from benchmarks._harness import Row, command_peak
from pokerlab.games import Game, kuhn, leduc
from pokerlab.solvers import CFRPlus
from pokerlab.solvers.run_loop import Progress
from pokerlab.subgame import PublicTreeCFR, RangeSolver, Spot
from pokerlab.subgame import _kernels as kernels
from pokerlab.subgame.public_tree import PublicGame
from pokerlab.subgame.units import work_arrays
from pokerlab.tree import compile

CHECK_EVERY = 10
OOP = "66+,A8s+,A5s-A4s,AJo+,K9s+,KQo,QTs+,JTs,96s+,85s+,75s+,65s,54s"
IP = "QQ-22,AQs-A2s,ATo+,K5s+,KJo+,Q8s+,J8s+,T7s+,96s+,86s+,75s+,64s+,53s+"
RIVER = "Td9d6hQc2s"
TURN = "Td9d6hQc"
FLOP = "Td9d6h"

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


def _issue_spot(board: str) -> Spot:
    return Spot(board=board, oop=OOP, ip=IP, pot=200, stack=900, bets="50%,100%",
                raises="2.5x")


def _spot_rows(board: str, targets: list[tuple[float, float]], repeat: int,
               per_iteration_peer: float | None, precisions: tuple[str, ...] = ("float64",),
               iterations: int = 3) -> list[Row]:
    spot = _issue_spot(board)
    start = time.perf_counter()
    built = spot.build()
    build_seconds = time.perf_counter() - start
    public = built.public
    street = {5: "river", 4: "turn", 3: "flop"}[len(spot.board_cards)]
    size = (f"{public.tree.n_nodes:,} nodes, {public.n_hands[0]} x {public.n_hands[1]} hands, "
            f"built in {build_seconds:.2f} s")
    rows = []
    for precision in precisions:
        RangeSolver(public, precision=precision, threads=1).run(iterations=1, check_every=1)
        tag = "" if precision == "float64" else f" ({precision})"
        for percent, peer in targets:
            target = percent / 100 * spot.pot
            def solve(target: float = target, precision: str = precision) -> RangeSolver:
                return RangeSolver(public, precision=precision, threads=1).run(
                    target_exploitability=target, check_every=CHECK_EVERY)

            cpu, wall, solver = _timed(solve, repeat)
            rows.append(Row(f"range DCFR {street} spot {board} to {percent:g}% of the pot{tag}",
                            "s", cpu, "Rust postflop-solver (published)", peer,
                            target="<= 1.5x peer",
                            note=f"{solver.iterations} its, final "
                            f"{100 * _final(solver) / spot.pot:.3f}%; wall {wall:.3f} s; {size}"))
        if per_iteration_peer is not None or street == "flop":
            rows.append(_per_iteration_row(public, f"{street} spot {board}", tag, precision,
                                           per_iteration_peer, size, iterations))
    return rows


def _per_iteration_row(public: PublicGame, what: str, tag: str, precision: str,
                       peer: float | None, size: str, iterations: int) -> Row:
    solver = RangeSolver(public, precision=precision, threads=1)

    def advance() -> int:
        solver._advance(iterations)
        return iterations

    cpu, wall, _ = _timed(advance, 2)
    load = os.getloadavg()[0]
    return Row(f"range DCFR {what}, time per iteration{tag}", "s", cpu / iterations,
               "Rust postflop-solver (published)" if peer is not None
               else "no published figure for this spot", peer,
               target="<= 1.5x peer" if peer is not None else "",
               note=f"wall {wall / iterations:.3f} s; load {load:.1f}; {size}")


def _threads_rows(board: str, percent: float, peers: dict[int, float], repeat: int,
                  precision: str = "auto") -> list[Row]:
    """Wall time to ``percent`` of the pot on 1 and 2 threads, against the Rust solver's."""
    spot = _issue_spot(board)
    public = spot.build().public
    target = percent / 100 * spot.pot
    tag = "" if precision == "auto" else f", {precision}"
    rows = []
    for threads, peer in peers.items():
        RangeSolver(public, threads=threads, precision=precision).run(iterations=1)  # compile

        def solve(threads: int = threads) -> RangeSolver:
            return RangeSolver(public, threads=threads, precision=precision).run(
                target_exploitability=target, check_every=CHECK_EVERY)

        walls = []
        for _ in range(repeat):
            start = time.perf_counter()
            solver = solve()
            walls.append(time.perf_counter() - start)
        rows.append(Row(f"range DCFR turn spot {board} to {percent:g}% of the pot, "
                        f"{threads} thread{'s' * (threads > 1)}{tag} (wall)", "s", min(walls),
                        f"Rust postflop-solver, {threads} thread{'s' * (threads > 1)} "
                        "(issue 27, quiet machine)", peer, target="<= 1x peer",
                        note=f"{solver.iterations} its, final "
                        f"{100 * _final(solver) / spot.pot:.3f}%; best of {repeat}; load "
                        f"{os.getloadavg()[0]:.1f}"))
    return rows


def flop_solve(seconds: float = 3600.0, target_percent: float = 0.5,
               precision: str = "float32", threads: int | None = None) -> RangeSolver:
    """Solve the issue's flop spot to ``target_percent`` of the pot.

    float32 storage by default (the Rust solver's 32-bit figures are the peer); every
    core by default. Prints one line per check (iterations, the process's CPU seconds, wall
    seconds, % of the pot, load average) and returns the solver; stops after ``seconds``
    of solving time if the target is not met.
    """
    spot = _issue_spot(FLOP)
    print(spot.size().describe(), flush=True)
    built = spot.build()
    solver = RangeSolver(built.public, precision=precision, threads=threads)
    cpu, wall = time.process_time(), time.perf_counter()

    def show(progress: Progress) -> None:
        print(f"{progress.iteration} its, {time.process_time() - cpu:.1f} s CPU, "
              f"{time.perf_counter() - wall:.1f} s wall, "
              f"{progress.percent_of_pot or 0.0:.3f}% of the pot, load "
              f"{os.getloadavg()[0]:.1f}", flush=True)

    return solver.run(target_exploitability=target_percent / 100 * spot.pot,
                      check_every=CHECK_EVERY, seconds=seconds, callback=show)


RUST_FLOP_PEAK_MB = {"float32": 1840, "16-bit": 950}
"""The Rust postflop solver's peak on the issue's flop spot (32-bit and compressed)."""

def flop_memory(iterations: int = 2) -> None:
    """Print the issue's flop spot's estimated and measured peak, fresh process each.

    ``pokerlab spot solve`` runs ``iterations`` iterations and its report in a new
    process (the kernels' cache warm), with ``--compress``, with float32 storage
    (``--memory-limit 3000``) and with the default (float64 fits 8,000 MB); the peak is
    the process's ``VmHWM`` (its resident high-water mark).
    """
    import json

    for extra, precision, rust_key in ((["--compress"], "compressed", "16-bit"),
                                       (["--memory-limit", "3000"], "float32", "float32"),
                                       ([], "float64", "float32")):
        args = ["spot", "solve", "--board", FLOP, "--oop", OOP, "--ip", IP, "--pot", "200",
                "--stack", "900", "--bets", "50%,100%", "--raises", "2.5x", "--iterations",
                str(iterations), "--check-every", str(iterations), *extra, "--json"]
        start = time.perf_counter()
        out, peak = command_peak(args)
        peak_mb = peak / 1e6
        data = json.loads(out)
        assert data["precision"] == precision, data["precision"]
        rust = RUST_FLOP_PEAK_MB[rust_key]
        print(f"{precision}: estimate {data['memory_mb']:,.0f} MB, peak {peak_mb:,.0f} MB "
              f"(estimate/peak {data['memory_mb'] / peak_mb:.3f}; Rust {rust_key} {rust:,} MB: "
              f"{peak_mb / rust:.2f}x), wall {time.perf_counter() - start:.0f} s, load "
              f"{os.getloadavg()[0]:.1f}", flush=True)


@numba.njit(cache=False, nogil=True)
def _only_kind(kind: int, repeat: int, p: int, nodes: Any, amounts: Any, isomorphic: Any,
               mine: Any, theirs: Any, cfreach: Any, source: Any, cfv: Any,
               scratch: Any, slot: Any) -> None:  # pragma: no cover - compiled
    for _ in range(repeat):
        for n in range(nodes.shape[0] - 1, -1, -1):
            if nodes[n, 0] == kind:
                kernels._terminal_or_chance(n, p, nodes, amounts, isomorphic, mine, theirs,
                                            cfreach, source, cfv, scratch, slot, 0)


@numba.njit(cache=False, nogil=True)
def _only_reach(repeat: int, p: int, nodes: Any, amounts: Any, cards_o: Any, weights_o: Any,
                regrets_o: Any, sums_o: Any, cfreach: Any, source: Any,
                sigma: Any, lock_at: Any, locks_o: Any,
                slot: Any) -> None:  # pragma: no cover - compiled
    order = np.arange(nodes.shape[0])
    for _ in range(repeat):
        kernels._reach_root(weights_o, cfreach, source, slot)
        kernels._reach_nodes(order, 0, nodes.shape[0], p, nodes, amounts, cards_o, regrets_o,
                             regrets_o, True, sums_o, np.zeros(0, np.float32), 1.0, cfreach,
                             source, sigma, lock_at, locks_o, slot, 0, False, 1)


def pass_breakdown(board: str = TURN, repeat: int = 20, precision: str = "float64") -> None:
    """Print the CPU time of each part of player 0's pass on the issue's spot at ``board``.

    Each part (folds, showdowns, chance nodes, the top-down reach) runs alone over the
    whole tree ``repeat`` times after a few iterations; the pass's decision nodes are the
    rest of :func:`pokerlab.subgame._kernels.cfr_pass`'s time.
    """
    public = _issue_spot(board).build().public
    tree = public.tree
    solver = RangeSolver(public, precision=precision, threads=1).run(iterations=3,
                                                                     check_every=3)
    # every node its own rows: the parts run over the whole tree at once
    work = work_arrays(public, solver.dtype)
    cfreach, source, cfv, sigma, scratch = work.arrays()
    mine, theirs = public.tables[0].as_tuple(), public.tables[1].as_tuple()
    sums = solver._sums[1].copy()
    counts = np.bincount(tree.nodes[:, 0], minlength=4)

    def terminal(kind: int) -> Callable[[int], None]:
        def part(r: int) -> None:
            _only_kind(kind, r, 0, tree.nodes, tree.amounts, tree.isomorphic, mine, theirs,
                       cfreach, source, cfv, scratch, work.slot)
        return part

    def reach(r: int) -> None:
        _only_reach(r, 0, tree.nodes, tree.amounts, theirs[0], theirs[1], solver._regrets[1],
                    sums, cfreach, source, sigma, solver.locks.lock_at, solver.locks.probs[1],
                    work.slot)

    def iterations(r: int) -> None:
        solver._advance(r)

    reach(1)  # the reach rows the terminal parts read

    parts = [(f"{name} ({counts[kind]:,} nodes)", terminal(kind))
             for name, kind in (("folds", 2), ("showdowns", 3), ("chance", 1))]
    parts += [("reach, top-down", reach), ("one iteration (both players' passes)", iterations)]
    print(f"{board}, {precision}, load {os.getloadavg()[0]:.1f}")
    for name, part in parts:
        part(1)
        start = time.thread_time()
        part(repeat)
        print(f"  {name}: {1000 * (time.thread_time() - start) / repeat:.2f} ms")


_FIRST_SOLVE = """
import sys, time
from benchmarks.bench_spot import _issue_spot
from pokerlab.subgame import RangeSolver
public = _issue_spot(sys.argv[1]).build().public
start = time.perf_counter()
for threads in sys.argv[3:] or ["1"]:
    RangeSolver(public, precision=sys.argv[2], threads=int(threads)).run(iterations=2,
                                                                         check_every=2)
print(time.perf_counter() - start)
"""


def first_solve_rows(precisions: tuple[str, ...] = ("float64", "float32", "compressed"),
                     ) -> list[Row]:
    """A first solve's seconds with the kernels' disk cache empty, per storage.

    What a user's first ``spot solve`` of a storage pays once (numba compiles the
    kernels; later processes load them from the cache): the river spot, two iterations
    and a check, in a new process whose ``NUMBA_CACHE_DIR`` is an empty folder; the peer
    is the same process once that folder holds the kernels. A last row (whatever
    ``precisions``) solves the turn in float32 on one thread, then on two, in one process:
    the threaded passes must find their kernels compiled by the serial one.
    """
    import subprocess
    import sys
    from tempfile import TemporaryDirectory

    cases = [(f"river solve, {precision}", RIVER, precision, ["1"], "one thread")
             for precision in precisions]
    # A turn solved on one thread, then on two (the threaded passes call the unit kernels
    # the serial pass compiled: nothing more to compile).
    cases.append(("turn solves on one thread then two, float32", TURN, "float32", ["1", "2"],
                  "one thread, then two"))
    rows = []
    for name, board, precision, threads, how in cases:
        with TemporaryDirectory() as folder:
            env = {**os.environ, "NUMBA_CACHE_DIR": folder}
            seconds = []
            for _ in range(2):  # compiling into the empty folder, then loading from it
                done = subprocess.run([sys.executable, "-c", _FIRST_SOLVE, board, precision,
                                       *threads], capture_output=True, text=True, env=env,
                                      check=True, timeout=1800)
                seconds.append(float(done.stdout.split()[-1]))
        rows.append(Row(f"range solver's first {name}, kernels not cached", "s", seconds[0],
                        "the same, kernels cached", seconds[1],
                        note=f"2 iterations and a check each, new process, {how}; load "
                        f"{os.getloadavg()[0]:.1f}"))
    return rows


def run(quick: bool) -> list[Row]:
    """Time the range solver side by side with its peers; return the rows."""
    repeat = 3 if quick else 7
    rows: list[Row] = []

    game: Game = kuhn(cards=100)
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
    rows += _spot_rows(TURN, [] if quick else [(0.5, 2.5)], 1, 0.025,
                       precisions=("float64", "float32"))
    if not quick:
        rows += _threads_rows(TURN, 0.5, {1: 1.73, 2: 0.88}, 3)
        rows += _threads_rows(TURN, 0.5, {1: 1.73, 2: 0.88}, 3, precision="compressed")
    if not quick:
        rows += _spot_rows(FLOP, [], 1, None, precisions=("float32",), iterations=1)
        rows += first_solve_rows()
    return rows
