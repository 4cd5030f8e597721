"""``pokerlab hands``: arena runs, matches, ACPC logs and web sessions to PHH; PHH back in."""

from __future__ import annotations

import json
import sqlite3
import warnings
from pathlib import Path

import pytest

from pokerlab.agents.registry import make_agent
from pokerlab.cli import main
from pokerlab.eval import play_match
from pokerlab.eval.aivat import match_aivat
from pokerlab.eval.matches import iter_hands
from pokerlab.games import holdem
from pokerlab.interop.phh import loads_phh
from pokerlab.interop.phh_analysis import aivat_results
from pokerlab.interop.phh_sources import (
    acpc_log_batch,
    arena_batches,
    assign_agents,
    match_batch,
    read_phh_paths,
    write_batches,
)
from pokerlab.play.acpc_seat import AcpcTable

NO_LIMIT_3 = "holdem(players=3, stack=(40, 100, 200))"


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture(scope="module")
def arena_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("arena") / "run.db"
    status = main(["arena", "run", NO_LIMIT_3, "--builtins", "random,always-raise,easy",
                   "--hands", "4", "--db", str(path), "--json"])
    assert status == 0
    return path


def test_an_arena_run_exports_one_phhs_file_per_match_and_imports_back(
    arena_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "hands"
    status, _, err = _cli(capsys, "hands", "export", "--db", str(arena_db), "--format", "phh",
                          "--out", str(out))
    assert status == 0, err
    assert "wrote 12 hands in 1 file" in err
    (file,) = sorted(out.iterdir())
    assert file.name == "arena-run1-match0.phhs"
    hands = loads_phh(file.read_text())
    (batch,) = arena_batches(arena_db)
    assert [h.record for h in hands] == [h.record for h in batch.hands()]
    assert {h.players for h in hands} >= {("random", "always-raise", "easy")}
    assert hands[0].event == "pokerlab arena run 1, match 0"
    status, text, err = _cli(capsys, "hands", "import", str(out), "--json")
    assert status == 0, err
    summary = json.loads(text)
    assert summary["hands"] == 12
    assert summary["games"] == [NO_LIMIT_3]
    assert sum(p["chips"] for p in summary["players"]) == 0
    assert {p["player"] for p in summary["players"]} == {"random", "always-raise", "easy"}


def test_per_hand_export_writes_a_folder_of_phh_files(
    arena_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = _cli(capsys, "hands", "export", "--db", str(arena_db), "--out",
                          str(tmp_path), "--per-hand")
    assert status == 0, err
    files = sorted((tmp_path / "arena-run1-match0").glob("*.phh"))
    assert len(files) == 12
    assert files[0].name == "hand000000.phh"
    (read,) = read_phh_paths([tmp_path / "arena-run1-match0" / "hand000003.phh"])
    assert read[0].record.hand == 3


def test_bad_sources_get_one_line_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kuhn_db = tmp_path / "kuhn.db"
    assert main(["arena", "run", "kuhn", "--builtins", "random,always-call", "--hands", "2",
                 "--db", str(kuhn_db), "--json"]) == 0
    capsys.readouterr()
    other = tmp_path / "other.db"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.close()
    log = tmp_path / "bad.log"
    log.write_text("STATE:0:cc/:AsKs|AhKh/2c3d4h:0|0:a|b\n")
    phh = tmp_path / "bad.phh"
    phh.write_text("variant = 'NT'\n")
    cases = [
        (["--db", str(tmp_path / "none.db")], "arena database", "does not exist"),
        (["--db", str(kuhn_db)], "PHH has no variant for kuhn", "run 1 of"),
        (["--db", str(other)], "is not a pokerlab arena database", "other.db"),
        ([], "give one source", "--acpc-log"),
        (["--db", "a.db", "--acpc-log", "b.log"], "give one source", "--db"),
        (["--db", "a.db", "--format", "csv"], "--format csv is not a format", "phh"),
        (["--acpc-log", str(log)], "needs --game", "GAMEDEF"),
        (["--acpc-log", str(tmp_path / "no.log"), "--game", "holdem"], "does not exist", "no.log"),
        (["--acpc-log", str(log), "--game", "holdem"], "bad.log:1", "the hand stops before"),
        (["--acpc-log", str(phh), "--game", "holdem"], "not an ACPC log line", "bad.phh:1"),
        (["--acpc-log", str(log), "--game", "leduc.limit.2p"], "PHH has no variant", "52 cards"),
    ]
    for argv, *words in cases:
        status, _, err = _cli(capsys, "hands", "export", "--out", str(tmp_path / "x"), *argv)
        assert status == 1, (argv, err)
        assert err.startswith("error: "), err
        assert err.count("\n") == 1, err
        assert all(w in err for w in words), (argv, err)
    for argv, *words in [
        ([str(tmp_path / "none.phh")], "PHH file", "does not exist"),
        ([str(log)], "is not a PHH file", ".phhs"),
        ([str(phh)], "bad.phh is not a PHH hand: it lacks antes"),
        ([str(tmp_path / "x")], "x' does not exist"),
    ]:
        status, _, err = _cli(capsys, "hands", "import", *argv)
        assert status == 1, err
        assert err.count("\n") == 1, err
        assert all(w in err for w in words), (argv, err)


def _acpc_log(path: Path, hands: int) -> list[object]:
    """An ACPC log of the pokerlab dealer (its STATE: lines), with the reference's extras."""
    game = holdem(players=3, stack=(40, 100, 200))
    lines: list[str] = ["# name/game/hands/seed p0 p1 p2 holdem 5 0"]
    table = AcpcTable([None, None, None], lines.append)
    agents = [make_agent("random", game, seed=k) for k in range(3)]
    records = list(iter_hands(game, agents, hands=hands, seats="rotate", duplicate=False,
                              seed=1, listeners=[table]))
    path.write_text("\n".join([*lines, "SCORE:0|0|0:agent0|agent1|agent2"]) + "\n")
    return records


def test_an_acpc_log_exports_to_the_hands_the_dealer_played(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "match.log"
    records = _acpc_log(log, hands=9)
    status, _, err = _cli(capsys, "hands", "export", "--acpc-log", str(log), "--game",
                          NO_LIMIT_3, "--out", str(tmp_path / "out"))
    assert status == 0, err
    hands = loads_phh((tmp_path / "out" / "match.phhs").read_text())
    assert [h.record.history for h in hands] == [r.history for r in records]  # type: ignore[attr-defined]
    assert [h.record.returns for h in hands] == [r.returns for r in records]  # type: ignore[attr-defined]
    assert hands[1].players == ("agent2", "agent0", "agent1")  # seats rotate every hand
    assert acpc_log_batch(log, holdem(players=3, stack=(40, 100, 200))).count == 9


@pytest.mark.slow
def test_a_match_writes_its_hands_and_aivat_on_them_is_the_match_s(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = holdem(betting="limit")
    status, _, err = _cli(capsys, "match", "holdem(betting='limit')", "easy", "always-call",
                          "--hands", "5", "--hands-out", str(tmp_path), "--no-aivat",
                          "--seed", "0")
    assert status == 0, err
    hands = loads_phh((tmp_path / "match.phhs").read_text())
    agents = [make_agent("easy", game, seed=0), make_agent("always-call", game, seed=1)]
    result = play_match(game, *agents, hands=5, seed=0)
    assert [(h.record.history, h.record.returns, h.record.seats) for h in hands] == [
        (r.history, r.returns, r.seats) for r in result.hands]
    # AIVAT on the imported hands is the match's own AIVAT, to the last digit.
    ours = aivat_results(assign_agents([hands]), {"easy": "easy", "always-call": "always-call"})
    theirs = match_aivat(game, result, agents)
    assert theirs is not None
    for mine, reference in zip(ours, theirs, strict=True):
        assert mine.aivat is not None
        assert mine.aivat.estimate.mean == pytest.approx(reference.estimate.mean, abs=1e-9)
        assert mine.per_hand.mean == pytest.approx(result.estimates[ours.index(mine)].mean)
    status, text, err = _cli(capsys, "hands", "aivat", str(tmp_path), "--known", "easy=easy",
                             "--json")
    assert status == 0, err
    players = json.loads(text)["players"]
    assert [p["aivat"]["policy_known"] for p in players] == [True, False]
    status, _, err = _cli(capsys, "hands", "aivat", str(tmp_path), "--known", "hard=hard")
    assert status == 1
    assert "--known names hard, who played none" in err


def test_a_match_of_a_game_phh_lacks_is_refused_before_it_plays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = _cli(capsys, "match", "leduc", "random", "random", "--hands-out",
                          str(tmp_path))
    assert status == 1
    assert "PHH has no variant for leduc" in err


def test_writing_is_atomic_and_repeatable(tmp_path: Path) -> None:
    game = holdem()
    agents = [make_agent("random", game, seed=k) for k in range(2)]
    result = play_match(game, *agents, hands=3, seed=0)
    batch = match_batch(game, result.hands, result.agent_names)
    first = write_batches([batch], tmp_path)
    text = first[0].read_text()
    assert write_batches([batch], tmp_path) == first
    assert first[0].read_text() == text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["match.phhs"]  # no temporary left
    assert loads_phh(text)[0].players == ("random", "random#2")


def test_a_web_session_downloads_as_phh() -> None:
    from pokerlab.web.app import create_app

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

        with TestClient(create_app(bot_time_limit=2.0)) as client:
            client.app.state.web.deal_seed = 5  # type: ignore[attr-defined]  # no client seed
            opened = client.post("/api/tables", json={"game": "holdem", "seats": 3,
                                                      "opponents": "always-call"})
            token, view = opened.json()["token"], opened.json()["view"]
            assert client.get(f"/api/tables/{token}/hands.phhs").status_code == 409
            for _ in range(2):
                while view["your_turn"]:
                    view = client.post(f"/api/tables/{token}/act", json={"move": "call"}).json()
                assert view["hand_over"]
                view = client.post(f"/api/tables/{token}/deal").json()
            # The records hold the bots' folded cards: not while hands may follow.
            early = client.get(f"/api/tables/{token}/hands.phhs")
            assert early.status_code == 409
            assert "once the session has ended" in early.json()["error"]
            view = client.post(f"/api/tables/{token}/close", json={}).json()
            answer = client.get(f"/api/tables/{token}/hands.phhs")
            assert answer.status_code == 200
            assert "session.phhs" in answer.headers["content-disposition"]
            hands = loads_phh(answer.text)
            assert len(hands) == 2
            assert set(hands[0].players or ()) == {"You", "always-call (seat 1)",
                                                   "always-call (seat 2)"}
            won = sum(h.record.returns[h.record.seats.index(0)] for h in hands)
            assert won == view["result"]["chips"]
            small = client.post("/api/tables", json={"game": "kuhn", "opponent": "random"})
            refused = client.get(f"/api/tables/{small.json()['token']}/hands.phhs")
            assert refused.status_code == 400
            assert "Kuhn or Leduc" in refused.json()["error"]
            assert client.get("/api/tables/nope/hands.phhs").status_code == 404
