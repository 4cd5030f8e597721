from __future__ import annotations

import sqlite3

import pytest

from pokerlab.arena import (
    ArenaStore,
    builtin_entrants,
    file_entrants,
    leaderboard,
    run_tournament,
)
from pokerlab.errors import PokerlabError
from pokerlab.games import kuhn, leduc
from pokerlab.play.sandbox import SandboxLimits

GOOD = """
class Agent:
    def act(self, observation):
        return observation.legal_actions[-1]
"""

FLAKY = """
import time

class Agent:
    def __init__(self):
        self.calls = 0

    def act(self, observation):
        self.calls += 1
        if self.calls % 7 == 0:
            raise RuntimeError("flaky")
        if self.calls % 11 == 0:
            return 99
        if self.calls % 13 == 0:
            time.sleep(3)
        return observation.legal_actions[0]
"""


def _entrants(names, cache):
    return [e for n in names for e in builtin_entrants(n, cache_dir=cache)]


@pytest.mark.slow
def test_solver_bots_rank_by_strength_on_leduc(tmp_path, bot_cache) -> None:
    game = leduc()
    entrants = _entrants(["cfr+10", "cfr+100", "cfr+10000"], bot_cache)
    result = run_tournament(game, entrants, db=tmp_path / "a.db", hands=3000, seed=0,
                            batch_size=1000)
    assert result.matches == 3
    assert result.hands_played == 3 * 6000
    board = leaderboard(tmp_path / "a.db")
    assert board.complete
    assert board.place_of("cfr+10000") < board.place_of("cfr+10")
    i, j = board.names.index("cfr+10000"), board.names.index("cfr+10")
    assert board.head_to_head[i, j] > 0
    assert board.head_to_head[j, i] == -board.head_to_head[i, j]


def test_faults_are_stored_and_broken_files_reported(tmp_path, bot_cache) -> None:
    folder = tmp_path / "agents"
    folder.mkdir()
    (folder / "good.py").write_text(GOOD)
    (folder / "flaky.py").write_text(FLAKY)
    (folder / "broken.py").write_text("def oops(:\n")
    (folder / "_helper.py").write_text("raise SystemExit\n")
    limits = SandboxLimits(decision_seconds=1.0)
    entrants = file_entrants(folder, kuhn(), limits=limits) + _entrants(["random"], bot_cache)
    failed = [e for e in entrants if e.error]
    assert [e.name for e in failed] == ["broken"]
    assert str(folder / "broken.py") in failed[0].error
    assert "SyntaxError" in failed[0].error
    db = tmp_path / "arena.db"
    result = run_tournament(kuhn(), entrants, db=db, hands=60, seed=1, batch_size=20,
                            time_limit=1.0)
    assert result.failed == (("broken", failed[0].error),)
    assert result.matches == 3  # good, flaky, random: every pair
    with sqlite3.connect(db) as conn:
        kinds = {k for (k,) in conn.execute("SELECT DISTINCT kind FROM event")}
        # every third process of the flaky bot times out: after three it is disqualified
        assert kinds == {"exception", "illegal", "timeout", "disqualified"}
        (hands,) = conn.execute("SELECT COUNT(*) FROM hand").fetchone()
        assert hands == 3 * 120
        (journal,) = conn.execute("PRAGMA journal_mode").fetchone()
        assert journal == "wal"
        error = conn.execute("SELECT error FROM agent WHERE name = 'broken'").fetchone()[0]
        assert "SyntaxError" in error
    board = leaderboard(db)
    flaky = next(s for s in board.standings if s.name == "flaky")
    assert flaky.faults > 0
    assert board.failed[0][0] == "broken"
    assert "broken" not in board.names


def test_the_store_refuses_a_duplicated_hand(tmp_path, bot_cache) -> None:
    db = tmp_path / "a.db"
    run_tournament(kuhn(), _entrants(["random", "always-call"], bot_cache), db=db, hands=10)
    with ArenaStore(db) as store:
        match = store.matches(store.run().id)[0]
        hands = store.hands(match.id)
        with pytest.raises(sqlite3.IntegrityError):
            store.write_hands(match.id, hands[:2])
        assert store.hands_done(match.id) == 20


def test_a_finished_run_resumes_to_nothing(tmp_path, bot_cache) -> None:
    db = tmp_path / "a.db"
    entrants = _entrants(["random", "always-call"], bot_cache)
    run_tournament(kuhn(), entrants, db=db, hands=10)
    again = run_tournament(kuhn(), entrants, db=db, hands=10, resume=True)
    assert again.hands_played == 0
    assert again.run_id == 1
    with pytest.raises(PokerlabError, match="not leduc"):
        run_tournament(leduc(), entrants, db=db, hands=10, resume=True)
    with pytest.raises(PokerlabError, match="hands 10 \\(asked 50\\)"):
        run_tournament(kuhn(), entrants, db=db, hands=50, resume=True)
    with pytest.raises(PokerlabError, match="no run to resume"):
        run_tournament(kuhn(), entrants, db=tmp_path / "new.db", hands=10, resume=True)


def test_bad_database_paths_are_clear_errors(tmp_path, bot_cache) -> None:
    from pokerlab.arena import leaderboard

    text = tmp_path / "notes.txt"
    text.write_text("not a database\n" * 100)
    entrants = _entrants(["random", "always-call"], bot_cache)
    with pytest.raises(PokerlabError, match="not a pokerlab arena database"):
        run_tournament(kuhn(), entrants, db=text, hands=2)
    with pytest.raises(PokerlabError, match="is a folder"):
        run_tournament(kuhn(), entrants, db=tmp_path, hands=2)
    with pytest.raises(PokerlabError, match="does not exist"):
        leaderboard(tmp_path / "missing.db")
    assert not (tmp_path / "missing.db").exists()


def test_too_few_agents(tmp_path, bot_cache) -> None:
    with pytest.raises(PokerlabError, match="at least 2 agents"):
        run_tournament(kuhn(), _entrants(["random"], bot_cache), db=tmp_path / "a.db")
    with pytest.raises(PokerlabError, match="unknown built-in"):
        builtin_entrants("nobody")


def test_shared_places(tmp_path, bot_cache) -> None:
    # two copies of the same equilibrium bot cannot be told apart: they share a place
    db = tmp_path / "a.db"
    entrants = _entrants(["cfr+1000", "cfr+1000", "random"], bot_cache)
    run_tournament(kuhn(), entrants, db=db, hands=500, seed=2)
    board = leaderboard(db)
    places = {s.name: s.place for s in board.standings}
    assert places["cfr+1000"] == places["cfr+1000#2"] == 1
    assert places["random"] == 3
    data = board.to_dict()
    assert data["standings"][0]["place"] == 1
    assert data["head_to_head"]["names"] == list(board.names)


def test_a_foreign_sqlite_file_is_refused_untouched(tmp_path, bot_cache) -> None:
    foreign = tmp_path / "accounts.db"
    with sqlite3.connect(foreign) as conn:
        conn.execute("CREATE TABLE account (id INTEGER PRIMARY KEY, owner TEXT)")
        conn.execute("INSERT INTO account (owner) VALUES ('alice')")
    conn.close()
    before = foreign.read_bytes()
    entrants = _entrants(["random", "always-call"], bot_cache)
    with pytest.raises(PokerlabError, match=r"not a pokerlab arena database .*account"):
        run_tournament(kuhn(), entrants, db=foreign, hands=2)
    with pytest.raises(PokerlabError, match="not a pokerlab arena database"):
        leaderboard(foreign)
    assert foreign.read_bytes() == before  # no tables added, not switched to WAL
    assert not (tmp_path / "accounts.db-wal").exists()


def test_an_empty_run_says_so(tmp_path, bot_cache, capsys) -> None:
    from pokerlab.cli import main

    db = tmp_path / "empty.db"
    with ArenaStore(db) as store:
        store.create_run(game="kuhn", players=2, hands=10, seed=0, batch_size=10,
                         time_limit=None, config={},
                         agents=[("a", "builtin:random", None), ("b", "builtin:random", None)],
                         matches=[((0, 1), 1, 20)])
    board = leaderboard(db)
    assert board.empty
    assert not board.complete
    assert main(["arena", "leaderboard", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "no hand has been played yet" in out
    assert "nan" not in out
    assert "inf" not in out
    data = board.to_dict()
    assert data["standings"][0]["mean"] is None  # JSON null, not NaN
