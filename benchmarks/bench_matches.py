"""Matches: strategy bot against strategy bot on standard Leduc, hands per second, one core.

pokerlab: ``play_match`` between two :class:`PolicyAgent` (uniform strategies), which
samples whole hands on the compiled tree (the ``play_strategies`` fast path), duplicate
dealing and the statistics included; and the same match on the generic path (State
objects, one observation per decision). Peer: OpenSpiel's python
``evaluate_bots.evaluate_bots`` with two ``PolicyBot``s playing the uniform random
policy, one hand per call, as OpenSpiel's examples play matches. Same game, same run.
"""

from __future__ import annotations

import numpy as np

from benchmarks._harness import Row, best_time
from pokerlab.agents import PolicyAgent
from pokerlab.eval.matches import play_match
from pokerlab.games import leduc
from pokerlab.strategy import Strategy


def run(quick: bool) -> list[Row]:
    game = leduc()
    uniform = Strategy.uniform(game)
    a, b = PolicyAgent(uniform), PolicyAgent(uniform)
    n_fast = 100_000 if quick else 1_000_000
    n_slow = 1_000 if quick else 5_000
    n_peer = 2_000 if quick else 20_000
    play_match(game, a, b, hands=1000, seed=0)  # compile the tree before timing
    fast = n_fast / best_time(lambda: play_match(game, a, b, hands=n_fast, seed=1), repeat=3)
    slow = n_slow / best_time(
        lambda: play_match(game, a, b, hands=n_slow, seed=1, fast=False), repeat=1
    )

    import pyspiel
    from open_spiel.python import policy as os_policy
    from open_spiel.python.algorithms.evaluate_bots import evaluate_bots
    from open_spiel.python.bots.policy import PolicyBot

    os_game = pyspiel.load_game("leduc_poker")
    rng = np.random.RandomState(0)
    random_policy = os_policy.UniformRandomPolicy(os_game)
    bots = [PolicyBot(0, rng, random_policy), PolicyBot(1, rng, random_policy)]

    def run_peer() -> None:
        for _ in range(n_peer):
            evaluate_bots(os_game.new_initial_state(), bots, rng)

    peer = n_peer / best_time(run_peer, repeat=1)
    peer_name = "open_spiel evaluate_bots (PolicyBot, uniform)"
    isolated, in_process = _isolated_entrant(game, 1_000 if quick else 5_000)
    return [
        Row(
            name="Leduc strategy vs strategy match",
            unit="hands/s",
            ours=fast,
            peer_name=peer_name,
            peer=peer,
            higher_is_better=True,
            target=">= 20,000 hands/s",
            note=f"play_match fast path, {n_fast:,} duplicate hands, 1 thread",
        ),
        Row(
            name="Leduc match, generic path",
            unit="hands/s",
            ours=slow,
            peer_name=peer_name,
            peer=peer,
            higher_is_better=True,
            note=f"play_match(fast=False): State objects, observations, {n_slow:,} hands",
        ),
        Row(
            name="Leduc match, isolated entrant vs built-in",
            unit="hands/s",
            ours=isolated,
            peer_name="the same entrant in process",
            peer=in_process,
            higher_is_better=True,
            target=">= 2,000 hands/s",
            note="an entrant file in its sandboxed process (protocol over a socket pair) "
            "against the random agent; process start excluded",
        ),
    ]


ENTRANT = """
class Agent:
    def act(self, observation):
        return observation.legal_actions[-1]
"""


def _isolated_entrant(game: object, hands: int) -> tuple[float, float]:
    """Hands/s of an entrant file in its sandbox, and of the same agent in process."""
    import tempfile
    from pathlib import Path

    from pokerlab.agents import RandomAgent, load_agent
    from pokerlab.play.sandbox import EntrantSource, SandboxedAgent

    folder = Path(tempfile.mkdtemp())
    file = folder / "entrant.py"
    file.write_text(ENTRANT)
    sandboxed = SandboxedAgent(EntrantSource.read(file), game)  # type: ignore[arg-type]
    try:
        sandboxed.start()
        play_match(game, sandboxed, RandomAgent(), hands=100, seed=0)  # type: ignore[arg-type]
        isolated = 2 * hands / best_time(
            lambda: play_match(game, sandboxed, RandomAgent(), hands=hands, seed=1),  # type: ignore[arg-type]
            repeat=3,
        )
    finally:
        sandboxed.close()
    local = load_agent(file, game)  # type: ignore[arg-type]
    in_process = 2 * hands / best_time(
        lambda: play_match(game, local, RandomAgent(), hands=hands, seed=1),  # type: ignore[arg-type]
        repeat=3,
    )
    return isolated, in_process
