"""``pokerlab abstract 'holdem(...)' --cards ...``: builds, caches, reports, resumes.

The command's build is swapped for one over a few boards (the full one takes minutes).
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest

from pokerlab.abstraction import holdem_cards
from pokerlab.cli import main

GAME = 'holdem(betting="limit")'


@pytest.fixture
def small_builds(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    small = functools.partial(holdem_cards.build_holdem_abstraction, boards=3, sample=5000)
    monkeypatch.setattr(holdem_cards, "build_holdem_abstraction", small)
    monkeypatch.setenv("POKERLAB_CACHE", str(tmp_path))
    return tmp_path


@pytest.mark.slow
def test_builds_then_loads_from_the_cache(
    small_builds: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = small_builds / "tables.npz"
    assert main(["abstract", GAME, "--cards", "6,9,9,9", "--json", "--out", str(out)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["built"] is True
    assert data["bucket_counts"] == [6, 9, 9, 9]
    assert data["canonical_hands"] == [169, 1_286_792, 13_960_050, 123_156_254]
    assert data["table_bytes"] == 169 + 1_286_792 + 13_960_050 + 123_156_254
    assert set(data["phase_seconds"]) >= {"flop features", "turn clusters", "river strengths"}
    assert data["peak_memory_bytes"] > 0
    cache_file = Path(data["cache_file"])
    assert cache_file.parent == small_builds / "abstraction"
    assert cache_file.exists()
    assert out.exists()
    assert not list(cache_file.parent.glob("*.partial"))
    assert main(["abstract", GAME, "--cards", "6,9,9,9", "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["built"] is False
    assert again["build_seconds"] == pytest.approx(sum(data["phase_seconds"].values()), abs=0.01)
    # the text report names the streets and the sizes
    assert main(["abstract", GAME, "--cards", "6,9,9,9"]) == 0
    text = capsys.readouterr().out
    assert "123,156,254" in text
    assert "loaded from the cache" in text


def test_interrupt_says_how_to_resume(
    small_builds: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(holdem_cards, "build_holdem_abstraction", interrupted)
    assert main(["abstract", GAME, "--cards", "6,9,9,9"]) == 130
    assert "run the same command again to resume" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("cards", "message"),
    [("169,50,x,50", "buckets per street"), ("170,50,50,50", "preflop buckets must be")],
)
def test_bad_cards_is_one_line(
    small_builds: Path, cards: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["abstract", GAME, "--cards", cards]) == 1
    err = capsys.readouterr().err
    assert message in err
    assert "Traceback" not in err
