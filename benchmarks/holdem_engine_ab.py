"""Hold'em engine vs universal_poker in CPU time: random heads-up limit hands, alternated.

``python -m benchmarks holdem`` times wall clock (best of 3), which the other jobs of a
shared machine disturb; this script times both engines on the same seeded hands with
``time.process_time``, alternating them, after a warm-up that builds the betting tree,
and also times ``random.choice`` alone on the hands' legal actions (both engines' loops
pay for it), so the engines' own costs can be compared:

    PYTHONPATH=. python -m benchmarks.holdem_engine_ab [hands] [rounds]
"""

from __future__ import annotations

import random
import sys
import time

from benchmarks.bench_holdem import LIMIT_SPEC, _ours_limit, _universal_poker
from pokerlab._types import TERMINAL
from pokerlab.games import load


def _legal_lists(hands: int, seed: int) -> list[tuple[int, ...]]:
    """The legal actions met in ``_ours_limit(hands, seed)``, in order."""
    game = load(LIMIT_SPEC)
    rng = random.Random(seed)
    lists = []
    initial = game.initial_state()
    for _ in range(hands):
        state = initial
        while state.player != TERMINAL:
            legal = state.legal_actions()
            lists.append(legal)
            state = state.child(rng.choice(legal))
    return lists


def main(hands: int = 20_000, rounds: int = 3) -> None:
    """Print, per round: the steps, ``random.choice`` alone, each engine, and the ratio."""
    _ours_limit(hands, 1)  # warm-up: the betting tree and the showdown tables
    _universal_poker(200, 1)
    lists = _legal_lists(hands, 2)
    for _ in range(rounds):
        rng = random.Random(2)
        start = time.process_time()
        for legal in lists:
            rng.choice(legal)
        choice = time.process_time() - start
        start = time.process_time()
        _ours_limit(hands, 2)
        ours = time.process_time() - start
        start = time.process_time()
        _universal_poker(hands, 2)
        peer = time.process_time() - start
        print(
            f"steps {len(lists)}  random.choice alone {choice:.3f} s  pokerlab {ours:.3f} s  "
            f"universal_poker {peer:.3f} s  ratio {peer / ours:.2f}x  "
            f"(without random.choice: {ours - choice:.3f} s vs {peer - choice:.3f} s)"
        )


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
