"""The searcher's cells of the strength study: scheduled, measured, resumed, tabled."""

from __future__ import annotations

from pathlib import Path

import pytest

from pokerlab.blueprint.cards import cards_from_spec
from pokerlab.blueprint.mccfr import BlueprintTrainer
from pokerlab.blueprint.nolimit import rules_for
from pokerlab.blueprint.store import save_blueprint
from pokerlab.errors import SpecError
from pokerlab.games import load
from pokerlab.studies.hard_strength import Plan, Snapshot, markdown_tables, plan_cells, run_study
from pokerlab.studies.search_strength import search_settings, timing_summary

TINY_CARDS = {"kind": "holdem", "bucket_counts": [10, 4, 4, 2], "seed": 0, "n_bins": 4,
              "sample": 500, "boards": 1}
LIMIT = 'holdem(betting="limit")'


def test_search_cells_are_planned_for_the_last_snapshot_only() -> None:
    snaps = [Snapshot(Path("a.bp"), "a", 1.0, 10), Snapshot(Path("b.bp"), "b", 2.0, 20)]
    plan = Plan({}, 5, lbr_hands=2, opponent_lbr_hands=0, search="hard-search+10")
    keys = [key for key, *_ in plan_cells(snaps, ("easy",), plan, lbr_first=False)]
    assert [k for k in keys if k.startswith("search")] == [
        "search/b/blueprint", "search/b/easy", "search-lbr/b"]
    plain = Plan({}, 5, lbr_hands=2, opponent_lbr_hands=0)
    assert not any(k.startswith("search")
                   for k, *_ in plan_cells(snaps, ("easy",), plain, lbr_first=False))


def test_timings_are_summarized_per_street_with_the_budget_overruns() -> None:
    timings = [(0, False, 0.01), (2, True, 0.5), (2, True, 1.3), (3, True, 0.9)]
    summary = timing_summary(timings, think=1.0)
    assert summary["2"]["decisions"] == 2
    assert summary["2"]["over_budget"] == 1  # 1.3 s > 1.2 x 1 s
    assert summary["3"]["over_budget"] == 0
    assert summary["0"]["searched"] == 0
    assert summary["2"]["max"] == 1.3
    with pytest.raises(SpecError, match="--search wants a hard-search name"):
        search_settings("hard")


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_the_study_measures_the_searcher_against_its_blueprint(tmp_path: Path) -> None:
    game = load(LIMIT)
    cards = cards_from_spec(game, TINY_CARDS)
    trainer = BlueprintTrainer(game, cards, rules_for(game, None), seed=0)
    trainer.run(1000)
    snap = Snapshot.from_file(save_blueprint(trainer, tmp_path / "tiny.bp", cards=TINY_CARDS))
    plan = Plan({}, 4, lbr_hands=2, opponent_lbr_hands=0, aivat=frozenset(),
                search="hard-search@200ms")
    out = tmp_path / "results.json"
    data = run_study(game, [snap], out, plan, opponents=("always-call",),
                     only=lambda key: key.startswith("search"))
    cells = data["cells"]
    assert set(cells) == {"search/tiny/blueprint", "search/tiny/always-call",
                          "search-lbr/tiny"}
    head = cells["search/tiny/blueprint"]
    assert head["hands"] == 8
    assert "aivat" in head  # the head-to-head cell always gets AIVAT
    assert head["plain"]["low"] <= head["plain"]["mean"] <= head["plain"]["high"]
    assert cells["search-lbr/tiny"]["hands"] == 2
    table = markdown_tables(data)
    assert "| hard-search@200ms | tiny | blueprint | 8 |" in table
    before = out.read_text()
    run_study(game, [snap], out, plan, opponents=("always-call",),
              only=lambda key: key.startswith("search"))  # resumed: nothing to do
    assert out.read_text().count('"finished"') == before.count('"finished"')
