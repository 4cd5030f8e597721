"""Blueprint card specs: parsed with clear errors, clustered tables cached under the cache dir."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from pokerlab.blueprint.cards import cards_from_spec, parse_buckets
from pokerlab.errors import SpecError
from pokerlab.games import load


def test_bucket_options_parse_or_say_what_is_allowed() -> None:
    assert parse_buckets("lossless") == {"kind": "lossless"}
    spec = parse_buckets("169,50,50,50")
    assert spec["bucket_counts"] == [169, 50, 50, 50]
    assert spec["boards"] is None
    with pytest.raises(SpecError, match="'lossless' or four counts"):
        parse_buckets("many")
    with pytest.raises(SpecError, match=r"preflop buckets must be 1\.\.169"):
        parse_buckets("200,5,5,5")
    with pytest.raises(SpecError, match="kind must be 'lossless' or 'holdem'"):
        cards_from_spec(load('holdem(betting="limit")'), {"kind": "ehs"})


@pytest.mark.slow
def test_small_clustered_tables_are_cached_inside_the_cache_dir(tmp_path: Path) -> None:
    game = load('holdem(betting="limit")')
    spec = {"kind": "holdem", "bucket_counts": [10, 4, 4, 2], "seed": 0, "n_bins": 4,
            "sample": 500, "boards": 1}
    first = cards_from_spec(game, spec, cache_dir=tmp_path)
    files = list((tmp_path / "blueprint-cards").iterdir())
    assert len(files) == 1
    start = time.perf_counter()
    again = cards_from_spec(game, spec, cache_dir=tmp_path)
    assert time.perf_counter() - start < 10  # read back, not built again
    assert again.bucket_counts == first.bucket_counts == (10, 4, 4, 2)
    assert list((tmp_path / "blueprint-cards").iterdir()) == files


def test_full_board_specs_read_the_tables_pokerlab_abstract_caches(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # `--buckets 169,50,50,50` (no test-only board subset) must load the very cache file that
    # `pokerlab abstract 'holdem(betting="limit")' --cards 169,50,50,50` writes.
    import pokerlab.blueprint.cards as cards_module
    from pokerlab.abstraction.holdem_cards import cache_path

    calls: list[tuple[object, ...]] = []

    def spy(counts: object, seed: object, **options: object) -> tuple[str, None, bool]:
        calls.append((counts, seed, options))
        return "tables", None, False

    monkeypatch.setattr(cards_module, "load_or_build", spy)
    spec = parse_buckets("169,50,50,50")
    assert cards_from_spec(load('holdem(betting="limit")'), spec) == "tables"  # type: ignore[comparison-overlap]
    ((counts, seed, options),) = calls
    assert (counts, seed) == ((169, 50, 50, 50), 0)
    assert options == {"n_bins": 50, "sample": 200_000, "cache_dir": None, "progress": None}
    path = cache_path((169, 50, 50, 50), 0, n_bins=50, sample=200_000)
    assert path.name == "holdem-emd-169-50-50-50-bins50-sample200000-seed0-v1.npz"
