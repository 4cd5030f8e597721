"""The leaderboard's AIVAT column (issue 17 item 6), computed from the stored hands."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pokerlab.agents import AlwaysCall, RuleBased
from pokerlab.arena import Entrant, builtin_entrants, file_entrants, leaderboard, run_tournament
from pokerlab.cli import main
from pokerlab.errors import PokerlabError
from pokerlab.games import holdem, leduc
from pokerlab.strategy import Strategy

RAISER = (
    "class Agent:\n    def act(self, observation):\n        return observation.legal_actions[-1]\n"
)


def _builtins(*names: str) -> list[Entrant]:
    return [e for n in names for e in builtin_entrants(n)]


def test_every_policy_known_gives_zero_width_intervals(tmp_path: Path) -> None:
    game = leduc()
    db = tmp_path / "a.db"
    run_tournament(game, _builtins("random", "always-call", "rule-based"), db=db, hands=150,
                   seed=1)
    plain = leaderboard(db)
    board = leaderboard(db, aivat=True)
    assert plain.aivat is None
    assert all(s.aivat is None for s in plain.standings)
    assert board.aivat == "exact"
    assert set(board.aivat_known) == {"random", "always-call", "rule-based"}
    for before, after in zip(plain.standings, board.standings, strict=True):
        assert after.estimate == before.estimate  # the plain column is unchanged
        assert after.aivat is not None
        assert after.aivat.std_error < 1e-9  # every policy known: the exact value
        assert abs(after.aivat.mean - after.estimate.mean) < 4 * after.estimate.std_error
    data = board.to_dict()
    assert data["aivat"] == "exact"
    assert all("aivat_mean" in s for s in data["standings"])


@pytest.fixture(scope="module")
def raiser_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A Leduc run: an entrant file that always raises (sandboxed) against random."""
    game = leduc()
    folder = tmp_path_factory.mktemp("agents")
    (folder / "raiser.py").write_text(RAISER)
    db = folder / "a.db"
    run_tournament(game, [*file_entrants(folder, game), *_builtins("random")], db=db,
                   hands=200, seed=2)
    return db


def test_entrant_files_are_unknown_but_corrected_for_chance(raiser_db: Path) -> None:
    game = leduc()
    db = raiser_db
    board = leaderboard(db, aivat=True)
    assert board.aivat_known == ("random",)
    raiser = next(s for s in board.standings if s.name == "raiser")
    assert raiser.aivat is not None
    assert raiser.aivat.std_error < raiser.estimate.std_error
    assert abs(raiser.aivat.mean - raiser.estimate.mean) < 4 * raiser.estimate.std_error
    with pytest.raises(PokerlabError, match="not agents of run"):
        leaderboard(db, aivat=True, policies={"nobody": RuleBased(game)})


def test_a_wrong_policy_is_refused_where_it_shows(raiser_db: Path) -> None:
    game = leduc()
    db = raiser_db
    # The raiser raises; a policy that never raises cannot be what it played.
    with pytest.raises(PokerlabError, match="probability 0"):
        leaderboard(db, aivat=True, policies={"raiser": AlwaysCall(game)})
    # A policy that plays every action is accepted (AIVAT cannot see that it is wrong).
    board = leaderboard(db, aivat=True, policies={"raiser": Strategy.uniform(game)})
    assert set(board.aivat_known) == {"raiser", "random"}


def test_holdem_runs_get_equity_aivat(tmp_path: Path) -> None:
    game = holdem(betting="limit")
    db = tmp_path / "h.db"
    run_tournament(game, _builtins("easy", "always-call"), db=db, hands=40, seed=0)
    board = leaderboard(db, aivat=True)
    assert board.aivat == "equity"
    assert board.unit == "mbb/hand"
    for s in board.standings:
        assert s.aivat is not None
        assert s.aivat.std_error < s.estimate.std_error


def test_cli_leaderboard_aivat(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from rich.console import Console

    import pokerlab.cli.arena as arena_cli

    # A wide console of its own: in a full run (xdist, 2 workers) the shared console printed
    # this 9-column table at 80 columns, the headers cut to pieces.
    monkeypatch.setattr(arena_cli, "console", Console(width=200, soft_wrap=True))
    game = leduc()
    db = tmp_path / "a.db"
    run_tournament(game, _builtins("random", "rule-based"), db=db, hands=50, seed=4)
    assert main(["arena", "leaderboard", "--db", str(db), "--aivat"]) == 0
    out = capsys.readouterr().out
    assert "AIVAT interval" in out
    assert "random, rule-based" in out or "rule-based, random" in out
    assert main(["arena", "leaderboard", "--db", str(db), "--aivat", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["aivat"] == "exact"
    assert main(["arena", "leaderboard", "--db", str(db), "--policy", "random"]) != 0
    assert "NAME=FILE.npz" in capsys.readouterr().err
    missing = tmp_path / "none.npz"
    assert main(["arena", "leaderboard", "--db", str(db), "--policy", f"random={missing}"]) != 0
    assert "does not exist" in capsys.readouterr().err


def test_progress_counts_every_stored_hand(raiser_db: Path) -> None:
    calls: list[tuple[int, int]] = []
    board = leaderboard(raiser_db, aivat=True, progress=lambda d, t: calls.append((d, t)))
    assert calls
    assert calls[-1] == (board.hands, board.hands)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)


def test_a_reference_profile_shapes_v_only(raiser_db: Path, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    game = leduc()
    default = leaderboard(raiser_db, aivat=True)
    other = leaderboard(raiser_db, aivat=True, reference=RuleBased(game).policy)
    a = next(s for s in default.standings if s.name == "raiser")
    b = next(s for s in other.standings if s.name == "raiser")
    assert a.aivat is not None
    assert b.aivat is not None
    assert a.aivat.mean != b.aivat.mean  # another V, another correction ...
    assert abs(a.aivat.mean - b.aivat.mean) < 4 * a.estimate.std_error  # ... same target
    assert main(["arena", "leaderboard", "--db", str(raiser_db), "--reference", "rule-based",
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    raiser = next(s for s in data["standings"] if s["name"] == "raiser")
    assert raiser["aivat_mean"] == pytest.approx(b.aivat.mean)
    assert main(["arena", "leaderboard", "--db", str(raiser_db), "--reference",
                 "exploitative"]) != 0
    assert "does not expose its policy" in capsys.readouterr().err
