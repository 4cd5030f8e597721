"""Limits over a match: a time budget for answering, a bounded log, bounded fault texts.

A bot that answers just under the decision limit every time would make a long match last
hours: after :attr:`SandboxLimits.match_budget` seconds of answering it plays the default
action without being asked (one ``budget`` fault, then ``disqualified``), so a match lasts
at most its entrants' budgets beyond the rest. Its output is kept up to ``log_bytes`` over
the whole match, whatever number of processes it goes through.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from pokerlab.agents import AlwaysCall
from pokerlab.arena import ArenaStore, builtin_entrants, run_tournament
from pokerlab.arena.store import MatchRow
from pokerlab.arena.tournament import MatchPlayer, file_entrant
from pokerlab.eval.matches import iter_hands, play_match
from pokerlab.games import kuhn
from pokerlab.play.records import FaultEvent, HandRecord
from pokerlab.play.sandbox import (
    BUDGET_DECISIONS,
    MAX_DETAIL,
    EntrantSource,
    SandboxedAgent,
    SandboxLimits,
)
from pokerlab.protocols.acpc_gamedef import load_acpc_game
from tests.arena.test_hostile import DEFAULT, PLAIN

pytestmark = pytest.mark.slow

SLOW = DEFAULT + '''
import time
class Agent:
    def act(self, observation):
        time.sleep(SECONDS)
        return default(observation)
'''


def test_the_default_budget_is_sixty_decision_limits() -> None:
    assert SandboxLimits().match_budget == BUDGET_DECISIONS * 10.0 == 600.0
    assert SandboxLimits(decision_seconds=2.0).match_budget == 120.0
    assert SandboxLimits(match_seconds=5.0).match_budget == 5.0


def test_a_slow_python_entrant_plays_defaults_once_its_budget_is_spent(tmp_path: Path) -> None:
    limits = SandboxLimits(decision_seconds=5.0, start_seconds=30.0, match_seconds=1.0)
    file = tmp_path / "slow.py"
    file.write_text(SLOW.replace("SECONDS", "0.3"))
    plain_file = tmp_path / "plain.py"
    plain_file.write_text(PLAIN)
    results = []
    for path in (plain_file, file):
        agent = SandboxedAgent(EntrantSource.read(path), kuhn(), limits=limits)
        agent.start()
        start = time.monotonic()
        try:
            result = play_match(kuhn(), agent, AlwaysCall(), hands=15, seed=4)
        finally:
            agent.close()
        results.append((result, time.monotonic() - start, agent))
    (plain, _, _), (slow, elapsed, agent) = results
    assert [r.agent_returns() for r in slow.hands] == [r.agent_returns() for r in plain.hands]
    kinds = [e.kind for e in slow.events if e.agent == 0]  # type: ignore[attr-defined]
    assert kinds[0] == "budget"
    assert set(kinds) == {"budget", "disqualified"}
    answered = sum(r.decisions[0] for r in slow.hands) - len(kinds)
    assert 2 <= answered <= 3  # 0.3 s each: the fourth at the latest is past 1 s
    # its thinking over the match is within the budget (plus one decision's overshoot)
    thinking = sum(r.seconds[0] for r in slow.hands)  # type: ignore[attr-defined]
    assert thinking <= limits.match_budget + 0.5
    assert elapsed < 30 * 0.3  # far less than answering every decision


def test_an_executable_entrant_has_a_budget_too(tmp_path: Path) -> None:
    game = load_acpc_game("holdem.limit.2p.reverse_blinds")
    script = (Path(__file__).parents[1] / "protocols" / "clients" / "always_call.sh").read_text()
    program = tmp_path / "slow.sh"
    program.write_text(script.replace("        printf '%s:c\\r\\n' \"$line\"",
                                      "        sleep 0.3\n        printf '%s:c\\r\\n' \"$line\""))
    program.chmod(0o755)
    assert "sleep 0.3" in program.read_text()
    limits = SandboxLimits(decision_seconds=5.0, start_seconds=30.0, match_seconds=1.0)
    from pokerlab.agents.resolve import resolve_agent

    agent = resolve_agent(str(program), game, limits=limits).build(game)
    try:
        played = list(iter_hands(game, [agent, AlwaysCall()], hands=6, seed=2,
                                 listeners=[agent.dealer_listener(0)]))  # type: ignore[attr-defined]
    finally:
        agent.close()  # type: ignore[attr-defined]
    kinds = [e.kind for r in played for e in r.events if e.agent == 0]
    assert kinds
    assert kinds[0] == "budget"
    assert set(kinds) == {"budget", "disqualified"}
    assert sum(r.seconds[0] for r in played) <= limits.match_budget + 0.5


def test_a_tournament_lasts_at_most_its_budgets(tmp_path: Path) -> None:
    # Two entrants that take 0.25 s a decision, 1 s of budget each per match: each stops
    # being asked once its second is spent, whatever the number of hands (unbounded, the
    # 40 hands of each match would cost them about 15 s each).
    limits = SandboxLimits(decision_seconds=5.0, start_seconds=30.0, match_seconds=1.0)
    folder = tmp_path / "entrants"
    folder.mkdir()
    for name in ("slow_a", "slow_b"):
        (folder / f"{name}.py").write_text(SLOW.replace("SECONDS", "0.25"))
    game = kuhn()
    entrants = [file_entrant(f, game, limits=limits) for f in sorted(folder.glob("*.py"))]
    db = tmp_path / "arena.db"
    start = time.monotonic()
    result = run_tournament(game, [*entrants, *builtin_entrants("random")], db=db, hands=20,
                            seed=1)
    elapsed = time.monotonic() - start
    with ArenaStore(db, readonly=True) as store:
        matches = store.matches(result.run_id)
        assert len(matches) == 3
        assert all(len(store.hands(m.id)) == 40 for m in matches)
        events = store.events(run_id=result.run_id)
    budgets = [e for e in events if e.kind == "budget"]
    # each slow entrant once in each of its matches: the budget is the match's, over both
    # legs (each leg is played by a fresh process, which carries the time already used)
    assert len(budgets) == 4
    assert all(e.hand < 20 for e in budgets)  # spent in the first leg (20 hands)
    for event in budgets:
        used = float(event.detail.split("(")[1].split(" s answering")[0])
        assert used <= limits.match_budget + 0.5
    assert {e.kind for e in events} == {"budget", "disqualified"}
    assert elapsed < 4 * limits.match_budget + 40  # the budgets, the starts, the rest


def test_the_budget_is_the_matchs_over_its_legs(tmp_path: Path) -> None:
    # One decision a hand against always-call (it checks), 0.1 s each: 1.2 s in each leg
    # of 12 hands, under the 1.8 s budget, but 2.4 s over the match. Each leg is played by
    # a fresh process; the time of the first counts against the second, so the budget is
    # spent once, in the second leg, after about 1.8 s in all (not 1.8 s a leg: no fault).
    limits = SandboxLimits(decision_seconds=5.0, start_seconds=30.0, match_seconds=1.8)
    file = tmp_path / "slow.py"
    file.write_text(SLOW.replace("SECONDS", "0.1"))
    game = kuhn()
    db = tmp_path / "arena.db"
    result = run_tournament(game, [file_entrant(file, game, limits=limits),
                                   *builtin_entrants("always-call")], db=db, hands=12, seed=3)
    with ArenaStore(db, readonly=True) as store:
        (match,) = store.matches(result.run_id)
        assert len(store.hands(match.id)) == 24
        events = store.events(run_id=result.run_id)
    budgets = [e for e in events if e.kind == "budget"]
    assert len(budgets) == 1
    assert 12 <= budgets[0].hand < 24  # in the second leg
    used = float(budgets[0].detail.split("(")[1].split(" s answering")[0])
    assert limits.match_budget - 0.3 <= used <= limits.match_budget + 0.5
    assert {e.kind for e in events} == {"budget", "disqualified"}


NOISY = DEFAULT + '''
import os, sys
class Agent:
    def act(self, observation):
        sys.stdout.write("x" * 50_000 + "\\n")
        sys.stdout.flush()
        os._exit(1)
'''


def test_the_log_is_bounded_over_the_whole_match(tmp_path: Path) -> None:
    # 50 KB printed by each of the processes it goes through (each exits, a fresh one
    # starts): the match keeps 20 KB in all, and says how much was dropped.
    limits = SandboxLimits(decision_seconds=5.0, start_seconds=30.0, log_bytes=20_000,
                           max_faults=4)
    file = tmp_path / "noisy.py"
    file.write_text(NOISY)
    agent = SandboxedAgent(EntrantSource.read(file), kuhn(), limits=limits)
    try:
        result = play_match(kuhn(), agent, AlwaysCall(), hands=4, seed=0)
    finally:
        agent.close()
    assert agent.starts >= 3
    kept = sum(len(line) for line in agent.log.splitlines() if set(line) == {"x"})
    assert kept <= limits.log_bytes
    assert "more bytes of output dropped" in agent.log
    assert len(agent.log) <= limits.log_bytes + agent.starts * (MAX_DETAIL + 200)
    assert {e.kind for e in result.events} <= {"crash", "disqualified"}  # type: ignore[attr-defined]


RAISER = DEFAULT + '''
class Loud(Exception):
    def __str__(self):
        return "\\ud800\\x1b]0;owned\\x07\\x1b[2J" + "y" * 400_000

class Agent:
    def observe(self, update):
        raise Loud()

    def act(self, observation):
        print("\\x1b[31mred\\x1b[0m \\x9b", flush=True)  # a terminal's escapes
        return default(observation)
'''


def test_fault_texts_and_logs_are_cut_storable_and_printable(tmp_path: Path) -> None:
    file = tmp_path / "raiser.py"
    file.write_text(RAISER)
    agent = SandboxedAgent(EntrantSource.read(file), kuhn(),
                           limits=SandboxLimits(decision_seconds=5.0, start_seconds=30.0))
    try:
        result = play_match(kuhn(), agent, AlwaysCall(), hands=2, seed=0)
    finally:
        agent.close()
    faults = [e for e in result.events if e.agent == 0]  # type: ignore[attr-defined]
    assert faults
    assert {e.kind for e in faults} == {"exception"}
    assert all(len(e.detail) <= MAX_DETAIL + 40 for e in faults)
    assert all(e.detail.encode("utf-8") for e in faults)
    assert not any("\x1b" in e.detail or "\x07" in e.detail for e in faults)
    assert "\\x1b[31mred" in agent.log  # shown escaped, never sent to a terminal
    assert "\x1b" not in agent.log
    assert "\x9b" not in agent.log


def test_a_resumed_match_keeps_a_budget_spent_in_an_earlier_leg(tmp_path: Path) -> None:
    # Resumed after its first leg (4 hands), whose hand 3 holds the entrant's budget
    # fault: the second leg's process is never started nor asked (no new budget).
    file = tmp_path / "slow.py"
    file.write_text(SLOW.replace("SECONDS", "0.1"))
    source = EntrantSource.read(file)
    limits = SandboxLimits(decision_seconds=5.0, start_seconds=30.0, match_seconds=1.0)
    built: list[SandboxedAgent] = []

    def build(game: object) -> object:
        built.append(SandboxedAgent(source, kuhn(), limits=limits, contain=False))
        return built[-1]

    spent = FaultEvent(hand=3, seat=1, agent=0, kind="budget", detail="spent", action=0)
    stored = [HandRecord(hand=i, deal=i, seats=(0, 1), returns=(0.0, 0.0), history=(),
                         events=(spent,) if i == 3 else ()) for i in range(4)]
    match = MatchRow(id=1, match_index=0, agents=(1, 2), seed=5, hands=8, finished=None)
    player = MatchPlayer(kuhn(), match, {1: build, 2: lambda game: AlwaysCall()},
                         hidden=(), batch_size=8, time_limit=None, stored=stored)
    try:
        batches = list(player.batches())
    finally:
        player.close()
    hands = [h for b in batches for h in b.hands]
    assert [h.hand for h in hands] == [4, 5, 6, 7]
    kinds = {e.kind for h in hands for e in h.events if e.agent == 0}
    assert kinds == {"disqualified"}
    assert [a.starts for a in built] == [0]
