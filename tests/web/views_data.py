"""What the view tests open: a --strategies folder (Kuhn, Leduc, a river spot) and an arena run.

Built with pokerlab's own solvers and arena, small enough to take a few seconds.
"""

from __future__ import annotations

import warnings
from pathlib import Path

from pokerlab.arena import builtin_entrants, run_tournament
from pokerlab.games import load
from pokerlab.solvers import make_solver
from pokerlab.subgame.range_solver import RangeSolver
from pokerlab.subgame.result import SpotSolution
from pokerlab.subgame.spot import Spot

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from pokerlab.web.app import create_app

SPOT = Spot(board="Td9d6hQc2s", oop="AA, KK, 87s", ip="QQ, JJ, AQ", pot=100, stack=100,
            bets="100%", raises="")
ENTRANTS = ("random", "always-call", "always-raise")


def build_strategies(folder: Path) -> Path:
    """Write kuhn.npz (CFR+ 200), leduc.npz (CFR+ 30), sub/spot.npz and a few odd files."""
    folder.mkdir(parents=True, exist_ok=True)
    make_solver("cfr+", load("kuhn")).run(iterations=200).average_strategy().save(
        folder / "kuhn.npz")
    make_solver("cfr+", load("leduc")).run(iterations=30).average_strategy().save(
        folder / "leduc.npz")
    built = SPOT.build()
    solver = RangeSolver(built.public).run(iterations=40, check_every=40)
    (folder / "sub").mkdir(exist_ok=True)
    SpotSolution.from_solver(solver, built).save(folder / "sub" / "spot.npz")
    (folder / "notes.txt").write_text("not a strategy\n")
    (folder / "broken.npz").write_bytes(b"PK\x03\x04 truncated")
    return folder


def build_arena(db: Path, hands: int = 10) -> Path:
    """A finished Kuhn round robin of three built-in agents, ``hands`` hands per seat."""
    game = load("kuhn")
    entrants = [e for name in ENTRANTS for e in builtin_entrants(name, game=game)]
    run_tournament(game, entrants, db=db, hands=hands, seed=3)
    return db


def client(strategies: Path | None, db: Path | None) -> TestClient:
    """A test client of the app serving ``strategies`` and ``db``."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return TestClient(create_app(strategies, db))
