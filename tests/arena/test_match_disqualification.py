"""Three faults that end an entrant's process cost it the rest of the match, every leg.

An attack review: the fault count lived on each leg's agent, so an entrant disqualified
in the first leg of a match came back in the second and crashed three more times.
"""

from __future__ import annotations

from pathlib import Path

from pokerlab.arena import ArenaStore, builtin_entrants, file_entrants, run_tournament
from pokerlab.games import kuhn
from pokerlab.play.sandbox import SandboxLimits

CRASHER = """
import os
class Agent:
    def act(self, observation):
        os._exit(3)
"""


def test_a_disqualified_entrant_stays_out_of_the_later_legs(tmp_path: Path) -> None:
    folder = tmp_path / "agents"
    folder.mkdir()
    (folder / "crasher.py").write_text(CRASHER)
    limits = SandboxLimits(decision_seconds=5.0, start_seconds=20.0, trusted=True)
    entrants = [*file_entrants(folder, kuhn(), limits=limits), *builtin_entrants("always-call")]
    db = tmp_path / "run.db"
    run_tournament(kuhn(), entrants, db=db, hands=12)
    with ArenaStore(db, readonly=True) as store:
        events = store.events(run_id=store.run().id)
    crashes = [e for e in events if e.kind == "crash"]
    assert len(crashes) == limits.max_faults  # three in the whole match, not three a leg
    assert max(e.hand for e in crashes) < 12  # all in the first leg (hands 0-11)
    disqualified = [e for e in events if e.kind == "disqualified"]
    assert disqualified
    assert {e.hand for e in disqualified} >= {12, 23}  # the second leg plays by default


def test_pokerlab_match_keeps_it_out_of_the_later_legs_too(tmp_path: Path) -> None:
    from pokerlab.agents import AlwaysCall
    from pokerlab.eval.matches import play_match
    from pokerlab.play.sandbox import EntrantSource, SandboxedAgent

    file = tmp_path / "crasher.py"
    file.write_text(CRASHER)
    limits = SandboxLimits(decision_seconds=5.0, start_seconds=20.0, trusted=True)

    def build(game: object) -> SandboxedAgent:
        return SandboxedAgent(EntrantSource.read(file), kuhn(), limits=limits)

    first = build(kuhn())
    try:
        result = play_match(kuhn(), first, AlwaysCall(), hands=12, seed=1, fresh=[build, None])
    finally:
        first.close()
    crashes = [e for r in result.hands for e in r.events if e.agent == 0 and e.kind == "crash"]
    assert len(crashes) == limits.max_faults
