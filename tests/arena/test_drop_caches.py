"""``--drop-caches``: nothing an ended leg read stays in the host's page cache for the next.

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
from pokerlab.arena import builtin_entrants, run_tournament
from pokerlab.errors import PokerlabError
from pokerlab.games import kuhn
from pokerlab.play import containment


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


def test_the_arena_drops_the_caches_before_each_leg_but_the_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    legs: list[int] = []
    monkeypatch.setattr(tournament, "check_drop_caches", lambda: None)
    monkeypatch.setattr(tournament, "drop_host_caches", lambda: legs.append(1))
    entrants = [*builtin_entrants("random"), *builtin_entrants("always-call"),
                *builtin_entrants("always-raise")]
    run_tournament(kuhn(), entrants, db=tmp_path / "run.db", hands=4, drop_caches=True)
    assert len(legs) == 3  # three heads-up matches, two legs each: one drop a match
    legs.clear()
    run_tournament(kuhn(), entrants, db=tmp_path / "plain.db", hands=4)
    assert legs == []


def test_a_machine_that_cannot_drop_them_is_refused_before_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(containment, "DROP_CACHES", tmp_path / "missing" / "drop_caches")
    with pytest.raises(PokerlabError, match="needs root in the host's namespaces"):
        run_tournament(kuhn(), [*builtin_entrants("random"), *builtin_entrants("always-call")],
                       db=tmp_path / "run.db", hands=4, drop_caches=True)
    assert not (tmp_path / "run.db").exists()
