"""Exact exploitability: pokerlab's compiled pass against OpenSpiel's C++ ``exploitability``.

Both sides evaluate the same strategy (uniform, and a random one) on standard Leduc and on
Kuhn. OpenSpiel gets its fastest path: ``pyspiel.exploitability(game, policy)`` on a C++
``pyspiel.TabularPolicy`` built beforehand (the conversion is not timed). pokerlab is timed
through the public ``exploitability(game, strategy)``; the note gives the array-level
``exploitability_array(tree, probs)`` that solvers call. The first call's cost (importing
numba and loading the compiled kernel from numba's disk cache, or compiling it when the
cache is cold) is kept out of the timed region and reported in a note.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time

import numpy as np

from benchmarks._harness import Row, best_time
from pokerlab.games import Game, kuhn, leduc
from pokerlab.strategy import Strategy
from pokerlab.tree import compile

_COLD_SCRIPT = """
import time
from pokerlab.games import kuhn
from pokerlab.strategy import Strategy
from pokerlab.eval import exploitability
game = kuhn(); strategy = Strategy.uniform(game)
start = time.perf_counter(); exploitability(game, strategy)
print(time.perf_counter() - start)
"""


def _cold_compile_seconds() -> float:
    """Time the first call in a fresh process whose numba cache is empty (compiles)."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        command = [sys.executable, "-c", _COLD_SCRIPT]
        out = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def run(quick: bool) -> list[Row]:
    import pyspiel

    from pokerlab.eval import exploitability, exploitability_array
    from pokerlab.interop.openspiel import openspiel_game, to_tabular_policy
    from tests.differential.lockstep import random_strategy

    start = time.perf_counter()
    exploitability(kuhn(), Strategy.uniform(kuhn()))  # numba import + cached kernel load
    first_call = time.perf_counter() - start
    jit_note = f"first call {first_call:.2f} s (numba import + cache load), not timed"
    if not quick:
        jit_note += f"; {_cold_compile_seconds():.1f} s with a cold numba cache"

    repeat = 5 if quick else 20
    rows: list[Row] = []
    cases: list[tuple[str, Game, str]] = [
        ("leduc", leduc(), "uniform"),
        ("leduc", leduc(), "random"),
        ("kuhn", kuhn(), "uniform"),
    ]
    for label, game, which in cases:
        os_game = openspiel_game(game)
        strategy = (
            Strategy.uniform(game)
            if which == "uniform"
            else random_strategy(game, np.random.default_rng(0))
        )
        table = to_tabular_policy(strategy).to_dict()
        policy = pyspiel.TabularPolicy(table)
        theirs = pyspiel.exploitability(os_game, policy)
        ours_value = exploitability(game, strategy)
        assert abs(theirs - ours_value) < 1e-9, (label, which, theirs, ours_value)

        tree = compile(game)
        probs = np.array(strategy.probs)
        exploitability_array(tree, probs)
        ours = best_time(lambda g=game, s=strategy: exploitability(g, s), repeat=repeat)
        array = best_time(lambda t=tree, p=probs: exploitability_array(t, p), repeat=repeat)
        peer = best_time(
            lambda g=os_game, p=policy: pyspiel.exploitability(g, p), repeat=max(3, repeat // 4)
        )
        rows.append(
            Row(
                name=f"exploitability {label} ({which} strategy)",
                unit="s",
                ours=ours,
                peer_name="pyspiel.exploitability (C++)",
                peer=peer,
                target=">= 20x" if label == "leduc" else "",
                note=(
                    f"exploitability_array {array * 1e6:.0f} us; value {ours_value:.6f}"
                    + (f"; {jit_note}" if not rows else "")
                ),
            )
        )
    return rows
