"""Dropping the caches: nothing an ended leg read stays in the host's page cache for the next.

An attack review passed the opponent's card from the first leg of a duplicate match to
the second (60 of 60 hands in Leduc): the first leg read one of a few cold system files
chosen by its card, the second timed its reads of them. Between legs, the arena can drop
the machine's caches (root): the second leg then finds every such file cold.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

import pokerlab.arena.tournament as tournament
import pokerlab.eval.matches as matches
from pokerlab.agents import RandomAgent
from pokerlab.agents.resolve import Entrant
from pokerlab.arena import ArenaStore, builtin_entrants, file_entrants, run_tournament
from pokerlab.arena.tournament import MatchPlayer
from pokerlab.cli import main
from pokerlab.errors import PokerlabError
from pokerlab.eval import play_match
from pokerlab.games import kuhn
from pokerlab.play import containment
from pokerlab.play.sandbox import SandboxLimits


def _resident_bytes(path: Path) -> int:
    """Bytes of ``path`` in the page cache (util-linux's ``fincore``)."""
    done = subprocess.run(["fincore", "--bytes", "--noheadings", "--output", "RES", str(path)],
                          capture_output=True, text=True, check=True)
    return int(done.stdout.split()[0])


@pytest.mark.skipif(shutil.which("fincore") is None, reason="util-linux's fincore is missing")
@pytest.mark.skipif(not os.access(containment.DROP_CACHES, os.W_OK), reason="needs root")
def test_a_file_an_ended_leg_read_is_cold_after_the_drop(tmp_path: Path) -> None:
    file = tmp_path / "zoneinfo-like.bin"
    file.write_bytes(os.urandom(1 << 20))
    file.read_bytes()  # what a first leg's process would read, by its card
    assert _resident_bytes(file) == 1 << 20
    containment.drop_host_caches()
    assert _resident_bytes(file) == 0


ENTRANT = """
class Agent:
    def act(self, observation):
        return observation.legal_actions[0]
"""


@pytest.fixture
def entrant_folder(tmp_path: Path) -> Path:
    """A folder holding one entrant file (it plays from a process of its own)."""
    folder = tmp_path / "entrants"
    folder.mkdir()
    (folder / "first.py").write_text(ENTRANT)
    return folder


@pytest.fixture
def drops(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The drops asked for, recorded instead of done, on a machine that allows them."""
    asked: list[str] = []
    monkeypatch.delenv(containment.DROP_CACHES_VARIABLE)  # the suite's "no": the default here
    monkeypatch.setattr(containment, "can_drop_host_caches", lambda: True)
    monkeypatch.setattr(tournament, "drop_host_caches", lambda: asked.append("arena"))
    monkeypatch.setattr(matches, "drop_host_caches", lambda: asked.append("match"))
    return asked


def _entrants(folder: Path) -> list[Entrant]:
    limits = SandboxLimits(trusted=True)  # a process of its own wherever the suite runs
    return [*file_entrants(folder, kuhn(), limits=limits), *builtin_entrants("random"),
            *builtin_entrants("always-call")]


def test_by_default_the_arena_drops_them_between_the_legs_of_an_entrants_matches(
    tmp_path: Path, entrant_folder: Path, drops: list[str]
) -> None:
    run_tournament(kuhn(), _entrants(entrant_folder), db=tmp_path / "run.db", hands=4)
    # three heads-up matches of two legs; the two the entrant plays drop between their legs
    assert drops == ["arena", "arena"]
    drops.clear()
    run_tournament(kuhn(), [*builtin_entrants("random"), *builtin_entrants("always-call")],
                   db=tmp_path / "builtins.db", hands=4, drop_caches=True)
    assert drops == []  # built-in agents leave nothing of their own in the caches


def test_no_drop_caches_keeps_them(
    tmp_path: Path, entrant_folder: Path, drops: list[str]
) -> None:
    run_tournament(kuhn(), _entrants(entrant_folder), db=tmp_path / "run.db", hands=4,
                   drop_caches=False)
    assert drops == []


def test_a_match_with_an_entrant_drops_them_between_its_legs(
    entrant_folder: Path, drops: list[str]
) -> None:
    (entrant,) = file_entrants(entrant_folder, kuhn(), limits=SandboxLimits(trusted=True))
    game = kuhn()
    agents = [entrant.build(game), RandomAgent(game, seed=1)]
    try:
        play_match(game, *agents, hands=3, seed=1, fresh=[entrant.factory, None])
    finally:
        for agent in agents:
            close = getattr(agent, "close", None)
            if callable(close):
                close()
    assert drops == ["match"]


def test_where_they_cannot_be_dropped_the_default_plays_and_the_cli_says_so(
    tmp_path: Path, entrant_folder: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.delenv(containment.DROP_CACHES_VARIABLE)
    monkeypatch.setattr(containment, "DROP_CACHES", tmp_path / "missing" / "drop_caches")
    result = run_tournament(kuhn(), _entrants(entrant_folder), db=tmp_path / "run.db",
                            hands=4)
    assert result.hands_played == 3 * 2 * 4
    capsys.readouterr()
    arena = ["arena", "run", "kuhn", "--agents", str(entrant_folder), "--builtins", "random",
             "--hands", "2", "--trust-entrants"]
    assert main([*arena, "--db", str(tmp_path / "cli.db")]) == 0
    assert "caches cannot be dropped between legs here" in capsys.readouterr().err
    assert main([*arena, "--no-drop-caches", "--db", str(tmp_path / "quiet.db")]) == 0
    assert "cannot be dropped" not in capsys.readouterr().err
    assert main([*arena, "--drop-caches", "--db", str(tmp_path / "refused.db")]) != 0
    assert "needs root in the host's namespaces" in capsys.readouterr().err
    assert main(["match", "kuhn", "random", "always-call", "--hands", "3", "--drop-caches",
                 "--no-drop-caches"]) != 0
    assert "exclude each other" in capsys.readouterr().err


def test_a_machine_that_cannot_drop_them_is_refused_before_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(containment, "DROP_CACHES", tmp_path / "missing" / "drop_caches")
    with pytest.raises(PokerlabError, match="needs root in the host's namespaces"):
        run_tournament(kuhn(), [*builtin_entrants("random"), *builtin_entrants("always-call")],
                       db=tmp_path / "run.db", hands=4, drop_caches=True)
    assert not (tmp_path / "run.db").exists()


def test_a_resumed_match_drops_them_before_its_first_leg_here(
    tmp_path: Path, drops: list[str]
) -> None:
    # Its earlier leg was played by another process, maybe by an entrant: drop, to be safe.
    game = kuhn()
    entrants = [*builtin_entrants("random"), *builtin_entrants("always-call")]
    db = tmp_path / "run.db"
    run_tournament(game, entrants, db=db, hands=4, seed=2, drop_caches=False)
    with ArenaStore(db) as store:
        (match,) = store.matches(store.run().id)
        stored = store.hands(match.id)
        factories = {row.id: entrants[row.position].factory for row in store.agents(1)}
    player = MatchPlayer(game, match, factories, hidden=(), batch_size=2, time_limit=None,
                         stored=stored[:4], drop_caches=True)
    assert sum(len(batch.hands) for batch in player.batches()) == 4  # the second leg
    assert drops == ["arena"]
    drops.clear()
    player = MatchPlayer(game, match, factories, hidden=(), batch_size=2, time_limit=None,
                         drop_caches=True)
    assert sum(len(batch.hands) for batch in player.batches()) == 8
    assert drops == []  # both legs here, built-in agents only


def test_the_environment_sets_the_default(
    tmp_path: Path, entrant_folder: Path, drops: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(containment.DROP_CACHES_VARIABLE, "no")
    run_tournament(kuhn(), _entrants(entrant_folder)[:2], db=tmp_path / "no.db", hands=2)
    assert drops == []
    monkeypatch.setenv(containment.DROP_CACHES_VARIABLE, "yes")
    run_tournament(kuhn(), _entrants(entrant_folder)[:2], db=tmp_path / "yes.db", hands=2)
    assert drops == ["arena"]
    monkeypatch.setenv(containment.DROP_CACHES_VARIABLE, "sometimes")
    with pytest.raises(PokerlabError, match="must be yes, no or auto; got 'sometimes'"):
        run_tournament(kuhn(), _entrants(entrant_folder)[:2], db=tmp_path / "bad.db", hands=2)
    assert not (tmp_path / "bad.db").exists()
