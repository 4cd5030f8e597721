from __future__ import annotations

import json

import pytest

from pokerlab.cli import main


def test_arena_run_and_leaderboard(tmp_path, bot_cache, capsys) -> None:
    folder = tmp_path / "agents"
    folder.mkdir()
    (folder / "caller.py").write_text(
        "class Agent:\n    def act(self, observation):\n        return 1\n"
    )
    (folder / "broken.py").write_text("raise ImportError('missing dependency')\n")
    db = tmp_path / "arena.db"
    rc = main(["arena", "run", "kuhn", "--agents", str(folder), "--builtins",
               "random,cfr+100", "--hands", "100", "--db", str(db), "--cache-dir",
               str(bot_cache)])
    captured = capsys.readouterr()
    assert rc == 0
    assert "broken.py" in captured.err
    assert "missing dependency" in captured.err
    assert "cfr+100" in captured.out
    assert "head to head" in captured.out
    rc = main(["arena", "leaderboard", "--db", str(db), "--json"])
    data = json.loads(capsys.readouterr().out)
    assert rc == 0
    assert {s["name"] for s in data["standings"]} == {"caller", "random", "cfr+100"}
    assert data["failed"][0]["name"] == "broken"
    assert data["complete"]


def test_arena_errors_are_one_line(tmp_path, capsys) -> None:
    rc = main(["arena", "leaderboard", "--db", str(tmp_path / "empty.db")])
    assert rc == 1
    assert "does not exist" in capsys.readouterr().err
    assert not (tmp_path / "empty.db").exists()
    rc = main(["arena", "run", "kuhn", "--builtins", "nobody", "--db", str(tmp_path / "a.db")])
    assert rc == 1
    assert "unknown built-in agent 'nobody'" in capsys.readouterr().err


@pytest.mark.slow
def test_study_exploitation_json(bot_cache, capsys, monkeypatch) -> None:
    monkeypatch.setenv("POKERLAB_CACHE", str(bot_cache))
    rc = main(["study", "exploitation", "--hands", "400", "--json"])
    rows = json.loads(capsys.readouterr().out)
    assert rc == 0
    assert [(r["game"].split("(")[0], r["opponent"]) for r in rows] == [
        (g, o) for g in ("kuhn", "leduc") for o in ("always-call", "random", "cfr+10")
    ]
    for row in rows:
        assert row["best_response"] >= row["equilibrium"] - 1e-9
        assert row["equilibrium_exploitability"] < 0.01
        assert row["exploitative_exploitability"] > row["equilibrium_exploitability"]
