"""What each isolation mechanism of an entrant costs: hands per second and start time.

The same entrant file (it plays the last legal action) plays Leduc against the random
agent through its sandbox: with every mechanism (user and other namespaces, the pivoted
read-only root, seccomp, the cgroup with its CPU quota), then with one taken away at a
time: without the CPU quota (``cpus`` 64), and as a plain process (``contain=False``: no
namespace, no seccomp; the cgroup stays). The reader's bounded parse of a reply is timed
against ``json.loads`` (the reply as the entrant's process writes it: the plain path;
the note gives a spaced one's, every check then the decoder); the start of a contained
process against a plain one. Process start is excluded from the hands-per-second rows.
Needs a machine that can isolate entrants (Linux, root): elsewhere only the parse row
is measured.
"""

from __future__ import annotations

import json
import tempfile
import time
from pathlib import Path

from benchmarks._harness import Row, best_time
from pokerlab.agents import RandomAgent
from pokerlab.eval.matches import play_match
from pokerlab.games import leduc
from pokerlab.games.base import Game
from pokerlab.play.containment import containment_available, one_core
from pokerlab.play.entrant_protocol import frame_reply, parse_message
from pokerlab.play.sandbox import EntrantSource, SandboxedAgent, SandboxLimits

ENTRANT = """
class Agent:
    def act(self, observation):
        return observation.legal_actions[-1]
"""


def _hands_per_second(file: Path, hands: int, contain: bool, cpus: float) -> tuple[float, float]:
    """Hands/s of the entrant in its sandbox, and the seconds its start took."""
    game = leduc()
    agent = SandboxedAgent(EntrantSource.read(file), game,
                           limits=SandboxLimits(cpus=cpus), contain=contain)
    # started on the dealer's core, as in a match (iter_hands starts entrants in one_core)
    with one_core():
        return _timed(game, agent, hands)


def _timed(game: Game, agent: SandboxedAgent, hands: int) -> tuple[float, float]:
    try:
        tick = time.perf_counter()
        agent.start()
        started = time.perf_counter() - tick
        play_match(game, agent, RandomAgent(), hands=100, seed=0)  # type: ignore[arg-type]
        seconds = best_time(
            lambda: play_match(game, agent, RandomAgent(), hands=hands, seed=1),  # type: ignore[arg-type]
            repeat=3,
        )
    finally:
        agent.close()
    return 2 * hands / seconds, started


def run(quick: bool) -> list[Row]:
    reply = frame_reply(12345, 2)[4:]  # as the entrant's process writes it: the plain path
    spaced = json.dumps({"id": 12345, "ok": True, "value": 2}).encode()  # the checked path
    count = 20_000 if quick else 100_000
    parse = best_time(lambda: [parse_message(reply) for _ in range(count)], repeat=3) / count
    plain = best_time(lambda: [json.loads(reply) for _ in range(count)], repeat=3) / count
    checked = best_time(lambda: [parse_message(spaced) for _ in range(count)], repeat=3) / count
    rows = [Row(name="entrant reply, bounded parse", unit="us", ours=parse * 1e6,
                peer_name="json.loads", peer=plain * 1e6, higher_is_better=False,
                note=f"a {len(reply)}-byte reply as the entrant writes it (the plain path); "
                     f"with spaces (every check, then the decoder): {checked * 1e6:.2f} us")]
    if not containment_available():
        return rows
    folder = Path(tempfile.mkdtemp())
    file = folder / "entrant.py"
    file.write_text(ENTRANT)
    hands = 1_000 if quick else 5_000
    # interleaved, twice: the machine's load moves less between neighbours
    figures: dict[str, list[tuple[float, float]]] = {"all": [], "no-quota": [], "process": []}
    for _ in range(2):
        figures["all"].append(_hands_per_second(file, hands, True, 1.0))
        figures["no-quota"].append(_hands_per_second(file, hands, True, 64.0))
        figures["process"].append(_hands_per_second(file, hands, False, 1.0))
    best = {k: max(h for h, _ in v) for k, v in figures.items()}
    start = {k: min(s for _, s in v) for k, v in figures.items()}
    rows += [
        Row(name="Leduc match, isolated entrant (every mechanism) vs built-in", unit="hands/s",
            ours=best["all"], peer_name="the same without the CPU quota",
            peer=best["no-quota"], higher_is_better=True, target=">= 2,000 hands/s",
            note=f"{hands:,} hands a seat, best of 3, twice; process start excluded"),
        Row(name="Leduc match, isolated entrant vs a plain process", unit="hands/s",
            ours=best["all"], peer_name="contain=False (no namespace, no seccomp)",
            peer=best["process"], higher_is_better=True,
            note="the cost of the namespaces, the pivoted root and the seccomp filter"),
        Row(name="entrant start, contained", unit="s", ours=start["all"],
            peer_name="a plain process", peer=start["process"], higher_is_better=False,
            note="launch, namespaces, view, import of the entrant, its Agent built"),
    ]
    return rows
