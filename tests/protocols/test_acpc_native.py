"""ACPC's Kuhn and Leduc gamedefs played by strategies of pokerlab's ``kuhn`` and ``leduc``.

Issue 26 item 5: ``solve kuhn`` / ``solve leduc`` files play over ACPC as docs/acpc.md
says; examples/entrants/strength.py plays Hold'em; a client whose agent fails on most
decisions says so and exits non-zero.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from pokerlab.eval import expected_value, exploitability
from pokerlab.games import kuhn, leduc
from pokerlab.protocols.acpc_gamedef import load_acpc_game
from pokerlab.protocols.acpc_native import NativePolicy, native_game
from pokerlab.solvers import CFRPlus
from pokerlab.strategy import tabulate

ROOT = Path(__file__).resolve().parents[2]
STRENGTH = ROOT / "examples" / "entrants" / "strength.py"


@pytest.mark.parametrize(("gamedef", "native"), [("kuhn.limit.2p", kuhn()),
                                                 ("leduc.limit.2p", leduc())])
def test_a_native_strategy_plays_its_gamedef_as_its_own_game(gamedef: str, native) -> None:  # type: ignore[no-untyped-def]
    acpc = load_acpc_game(gamedef)
    assert native_game(acpc) == native
    assert load_acpc_game(str(native.spec)) == acpc  # `kuhn` and `leduc` name their gamedefs
    strategy = CFRPlus(native).run(iterations=30).average_strategy()  # far from exact: it shows
    played = tabulate(NativePolicy(strategy, acpc))  # every infoset of the ACPC game asked
    for mine, theirs in zip(expected_value(native, strategy), expected_value(acpc, played),
                            strict=True):
        assert mine == pytest.approx(theirs, abs=1e-12)
    assert exploitability(native, strategy) == pytest.approx(exploitability(acpc, played),
                                                             abs=1e-12)


def test_strength_plays_holdem_without_a_fault() -> None:
    from pokerlab._types import CHANCE, TERMINAL
    from pokerlab.games import load
    from pokerlab.play.entrant_loader import load_agent

    for spec in ('holdem(betting="limit")', "holdem(stack=200)"):
        game = load(spec)
        agent = load_agent(STRENGTH, game)
        actions = set()
        deals = random.Random(7)
        for hand in range(40):  # the agent's own act, at every decision of random hands
            state = game.initial_state()
            agent.reset()
            agent.seed(hand)
            while state.player != TERMINAL:
                if state.player == CHANCE:
                    state = state.child(deals.choice(state.chance_outcomes())[0])
                    continue
                action = agent.act(state.observation(state.player))
                assert action in state.legal_actions()
                actions.add(game.action_name(action).split()[0])  # "raise to 6": "raise"
                state = state.child(action)
        assert {"call", "raise"} <= actions  # it plays by its cards, not one answer


def _acpc(*args: str) -> list[str]:
    return [sys.executable, "-m", "pokerlab.cli", "acpc", *args]


def _match(gamedef: str, agents: list[str], hands: int, log: Path
           ) -> tuple[subprocess.CompletedProcess[str], list[tuple[int, str]]]:
    """A dealer and one client per agent; the dealer's result and each client's (rc, err)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    dealer = subprocess.Popen(
        _acpc("dealer", gamedef, *[f"seat{i}" for i in range(len(agents))], "--hands",
              str(hands), "--port-base", "0", "--log", str(log), "--seed", "5",
              "--start-timeout", "300"),  # clients start slowly on a loaded machine
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )  # fmt: skip
    assert dealer.stdout is not None
    ports = dealer.stdout.readline().split()
    clients = [
        subprocess.Popen(_acpc("client", gamedef, "127.0.0.1", port, "--agent", agent),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        for port, agent in zip(ports, agents, strict=True)
    ]
    out, err = dealer.communicate(timeout=300)
    ends = [(c.wait(timeout=120), c.communicate()[1]) for c in clients]
    return subprocess.CompletedProcess(dealer.args, dealer.returncode, out, err), ends


@pytest.mark.slow
def test_solve_leduc_plays_leduc_limit_2p_over_acpc_as_the_doc_says(tmp_path: Path) -> None:
    from pokerlab.cli import main

    strategy = tmp_path / "leduc_cfr.npz"
    assert main(["solve", "leduc", "--algorithm", "cfr+", "--iterations", "50", "--out",
                 str(strategy)]) == 0
    log = tmp_path / "match.log"
    dealer, clients = _match("leduc.limit.2p", [str(strategy), str(STRENGTH)], 30, log)
    assert dealer.returncode == 0, (dealer.stderr, clients)
    assert "seat0:" in dealer.stderr  # the per-seat summary; stdout is ports and SCORE:
    assert "connects with: pokerlab acpc client leduc.limit.2p 127.0.0.1 " in dealer.stderr
    for code, err in clients:
        assert code == 0, err
        assert "played 30 hands" in err
        assert "fault" not in err
    lines = log.read_text().splitlines()
    assert sum(line.startswith("STATE:") for line in lines) == 30
    assert not any(line.startswith("# hand") for line in lines)  # no seat ever faulted
    assert lines[-1].startswith("SCORE:")  # the reference dealer's last line


@pytest.mark.slow
def test_strength_plays_limit_holdem_over_acpc(tmp_path: Path) -> None:
    dealer, clients = _match("holdem.limit.2p.reverse_blinds", [str(STRENGTH), "always-call"],
                             20, tmp_path / "match.log")
    assert dealer.returncode == 0, dealer.stderr
    for code, err in clients:
        assert code == 0, err
        assert "played 20 hands" in err
        assert "fault" not in err


FAILING = '''
class Agent:
    def __init__(self, game):
        pass

    def act(self, observation):
        raise ValueError("never plays")
'''


@pytest.mark.slow
def test_a_client_whose_agent_fails_says_so_and_exits_non_zero(tmp_path: Path) -> None:
    broken = tmp_path / "broken.py"
    broken.write_text(FAILING)
    dealer, clients = _match("kuhn.limit.2p", [str(broken), "always-call"], 10,
                             tmp_path / "match.log")
    assert dealer.returncode == 0, dealer.stderr
    (code, err), (other, _) = clients
    assert other == 0
    assert code == 1
    assert "played 10 hands" in err
    assert "failed on" in err
    assert "decisions" in err
