"""benchmarks.paired_hands: two agents' winnings against one opponent, deal by deal."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from benchmarks.paired_hands import paired
from pokerlab.cli import main

GAME = "holdem(stack=40)"


def _match(tmp_path: Path, capsys: pytest.CaptureFixture[str], agent: str, seed: int) -> float:
    """Play ``agent`` against random, write its hands; the agent's mean winnings."""
    out = tmp_path / f"{agent}-{seed}"
    assert main(["match", GAME, agent, "random", "--hands", "40", "--seed", str(seed),
                 "--json", "--no-aivat", "--hands-out", str(out)]) == 0
    rows = json.loads(capsys.readouterr().out)["agents"]
    return float(rows[0]["mean"])


def test_the_difference_is_deal_by_deal_and_other_deals_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    calls = _match(tmp_path, capsys, "always-call", 3)
    raises = _match(tmp_path, capsys, "always-raise", 3)
    values = paired(str(tmp_path / "always-call-3"), "always-call",
                    str(tmp_path / "always-raise-3"), "always-raise")
    assert len(values) == 40  # one per deal, its two seatings averaged
    assert float(values.mean()) == pytest.approx(calls - raises)
    same = paired(str(tmp_path / "always-call-3"), "always-call",
                  str(tmp_path / "always-call-3"), "always-call")
    assert np.all(same == 0.0)
    _match(tmp_path, capsys, "always-raise", 4)
    with pytest.raises(SystemExit, match="not the same deals"):
        paired(str(tmp_path / "always-call-3"), "always-call",
               str(tmp_path / "always-raise-4"), "always-raise")
    with pytest.raises(SystemExit, match="no player named 'hard'"):
        paired(str(tmp_path / "always-call-3"), "hard",
               str(tmp_path / "always-raise-3"), "always-raise")
