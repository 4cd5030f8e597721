"""The Hold'em AIVAT study (issue 17 item 6): a short match, the identities it must satisfy."""

from __future__ import annotations

import json

import pytest

from pokerlab.cli import main
from pokerlab.errors import PokerlabError
from pokerlab.studies.aivat_holdem_study import holdem_aivat_study


@pytest.mark.slow
def test_short_study() -> None:
    seen: list[int] = []
    result = holdem_aivat_study(hands=120, seed=1, progress=lambda done, total: seen.append(done))
    assert seen[-1] == result.hands == 240
    assert result.known == ("easy", "always-call")
    assert result.plain.n == 120  # the deals are the units
    # corrected = plain - mean correction, exactly; the correction's mean is near 0.
    assert result.aivat.mean == pytest.approx(result.plain.mean - result.correction.mean)
    assert abs(result.correction.mean) < 4 * result.correction.std_error
    assert result.aivat_reduction > 1.0
    assert result.chance_reduction > 1.0
    assert result.chance_board_reduction > 1.0
    assert result.aivat_board_reduction > 1.0
    # Both sets of chance terms estimate the same mean; they differ hand by hand.
    assert result.chance.mean != result.chance_board.mean
    assert abs(result.chance.mean - result.chance_board.mean) < 4 * result.plain.std_error


@pytest.mark.slow
def test_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["study", "aivat-holdem", "--hands", "30", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["hands"] == 60
    assert data["opponent"] == "always-call"
    assert data["plain"]["low"] <= data["plain"]["mean"] <= data["plain"]["high"]
    board = data["chance_board"]
    assert board["low"] <= board["mean"] <= board["high"]


@pytest.mark.slow
def test_three_seat_study() -> None:
    result = holdem_aivat_study(hands=10, seed=2, players=3)
    assert result.players == 3
    assert result.hands == 30
    assert result.plain.n == 10  # the deals are the units
    assert result.known == ("easy", "always-call", "always-call")
    assert result.aivat.mean == pytest.approx(result.plain.mean - result.correction.mean)


def test_bad_seat_count() -> None:
    with pytest.raises(PokerlabError, match="players must be 2 to 6"):
        holdem_aivat_study(hands=10, players=7)
