"""The Hard AI strength study end to end on a tiny blueprint: cells, resume, plot, tables."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pokerlab.blueprint.cards import cards_from_spec
from pokerlab.blueprint.mccfr import BlueprintTrainer
from pokerlab.blueprint.nolimit import rules_for
from pokerlab.blueprint.store import save_blueprint
from pokerlab.errors import PokerlabError, SpecError
from pokerlab.games import load
from pokerlab.studies.hard_strength import (
    Plan,
    Snapshot,
    lbr_trend,
    load_results,
    markdown_tables,
    merge_results,
    plan_cells,
    plot,
    run_study,
)

TINY_CARDS = {"kind": "holdem", "bucket_counts": [10, 4, 4, 2], "seed": 0, "n_bins": 4,
              "sample": 500, "boards": 1}
"""A very coarse Texas Hold'em abstraction (built in seconds)."""
LIMIT = 'holdem(betting="limit")'


def _snapshots(folder: Path) -> list[Snapshot]:
    """Two snapshots of one tiny limit blueprint: 200 and 1,000 iterations."""
    game = load(LIMIT)
    cards = cards_from_spec(game, TINY_CARDS)
    trainer = BlueprintTrainer(game, cards, rules_for(game, None), seed=0)
    paths = []
    for total, name in ((200, "tiny-a"), (1000, "tiny-b")):
        trainer.run(total - trainer.iterations)
        paths.append(save_blueprint(trainer, folder / f"{name}.bp", cards=TINY_CARDS))
    return [Snapshot.from_file(p) for p in paths]


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_study_runs_every_cell_resumes_and_plots(tmp_path: Path) -> None:
    snaps = _snapshots(tmp_path)
    assert [s.iterations for s in snaps] == [200, 1000]
    game = load(LIMIT)
    out = tmp_path / "results.json"
    plan = Plan({"tiny-a": 0}, 20, lbr_hands=2, opponent_lbr_hands=2,
                aivat=frozenset({"always-call"}))
    opponents = ("random", "always-call")  # one with AIVAT, one without
    lines: list[str] = []
    data = run_study(game, snaps, out, plan, opponents=opponents, log=lines.append)
    cells = data["cells"]
    expected = {key for key, *_ in plan_cells(snaps, opponents, plan, lbr_first=False)}
    assert set(cells) == expected
    assert len(expected) == 2 + 2 + 2  # tiny-a plays no match (0 hands)
    assert len(lines) == len(expected)
    final = cells["match/tiny-b/always-call"]
    assert final["hands"] == 40
    assert final["hands_per_seat"] == 20
    assert final["plain"]["low"] <= final["plain"]["mean"] <= final["plain"]["high"]
    assert "aivat" in final
    assert "aivat" not in cells["match/tiny-b/random"]
    assert not any(key.startswith("match/tiny-a") for key in cells)
    lbr = cells["lbr/tiny-b"]
    assert lbr["hands"] == 2
    assert lbr["training_seconds"] == snaps[1].seconds
    assert cells["lbr/agent/random"]["agent"] == "random"
    assert json.loads(out.read_text())["cells"] == cells  # written as it went

    # Resume: nothing is run again (the stored cells are kept as they are).
    again = run_study(game, snaps, out, plan, opponents=opponents, log=lines.append)
    assert again["cells"] == cells
    assert len(lines) == len(expected)

    png = plot(load_results(out), tmp_path / "docs" / "strength.png", title="tiny")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    table = markdown_tables(data)
    assert "| tiny-b |" in table
    assert "| random |" in table


def test_bad_inputs_are_named(tmp_path: Path) -> None:
    plan = Plan({}, 10, 2, 2)
    with pytest.raises(SpecError, match="at least one blueprint"):
        run_study(load(LIMIT), [], tmp_path / "r.json", plan)
    snap = Snapshot(tmp_path / "x.bp", "x", 1.0, 1)
    with pytest.raises(SpecError, match="heads-up Hold'em"):
        run_study(load("leduc"), [snap], tmp_path / "r.json", plan)
    (tmp_path / "bad.json").write_text("[1, 2]")
    with pytest.raises(PokerlabError, match="not a hard-strength results file"):
        load_results(tmp_path / "bad.json")
    with pytest.raises(PokerlabError, match="no results to plot"):
        plot({"cells": {}}, tmp_path / "p.png")


def test_merge_keeps_the_larger_cell_and_refuses_other_games() -> None:
    a = {"game": "g", "snapshots": {"s": {}}, "cells": {"x": {"hands": 10}, "y": {"hands": 4}}}
    b = {"game": "g", "snapshots": {"t": {}}, "cells": {"x": {"hands": 2}, "z": {"hands": 6}}}
    merged = merge_results([a, b])
    assert merged["cells"] == {"x": {"hands": 10}, "y": {"hands": 4}, "z": {"hands": 6}}
    assert set(merged["snapshots"]) == {"s", "t"}
    with pytest.raises(PokerlabError, match="different games"):
        merge_results([a, {"game": "h", "cells": {}}])


def _lbr(label: str, seconds: float, mean: float, half: float) -> dict[str, object]:
    return {"kind": "lbr", "snapshot": label, "training_seconds": seconds, "hands": 100,
            "mean": mean, "low": mean - half, "high": mean + half}


def test_lbr_trend_measures_the_fall_and_the_gap_to_the_bots() -> None:
    cells = {f"lbr/s{t}": _lbr(f"s{t}", t, m, 30.0)
             for t, m in ((1.0, 900.0), (10.0, 400.0), (100.0, 300.0), (1000.0, 100.0))}
    cells["lbr/agent/always-call"] = {"kind": "lbr", "agent": "always-call", "hands": 100,
                                      "mean": 1100.0, "low": 1000.0, "high": 1200.0}
    trend = lbr_trend({"cells": cells})
    assert trend is not None
    assert trend["spearman"] == pytest.approx(-1.0)
    assert trend["change"]["mean"] == -800.0
    assert trend["change"]["high"] == pytest.approx(-800.0 + 30.0 * 2**0.5)
    assert trend["last_high"] == 130.0
    assert trend["lowest_bot"] == 1000.0
    assert trend["below_bots"] == ["s1.0", "s10.0", "s100.0", "s1000.0"]
    text = markdown_tables({"cells": cells})
    assert "Spearman rank correlation with training time -1.00" in text
    assert "s1000.0 below every bot; snapshots whose interval lies below every bot's: 4 of 4" in (
        text
    )
    cells["lbr/s1.0"] = _lbr("s1.0", 1.0, 990.0, 30.0)  # now above the bot's lower bound
    again = lbr_trend({"cells": cells})
    assert again is not None
    assert again["below_bots"] == ["s10.0", "s100.0", "s1000.0"]
    cells["lbr/s1000.0"] = _lbr("s1000.0", 1000.0, 990.0, 30.0)
    assert "s1000.0 NOT below every bot" in markdown_tables({"cells": cells})
    assert lbr_trend({"cells": {"lbr/s1": _lbr("s1", 1.0, 5.0, 1.0)}}) is None
