"""Compile's memory estimate matches what compiling uses, and its advice works from the CLI."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from pokerlab.cli import main
from pokerlab.errors import GameTooLargeError
from pokerlab.games import load
from pokerlab.tree import compile
from pokerlab.tree.compile import BYTES_PER_HISTORY, PEAK_BYTES_PER_HISTORY

ROOT = Path(__file__).resolve().parents[2]
compile_module = importlib.import_module("pokerlab.tree.compile")

# Run in a fresh interpreter: no garbage of earlier tests, no cached tree, and a peak
# (Linux's VmHWM, reset just before compiling) that is this compile's own. Tracing the
# allocations of a second compile gives what the tree keeps.
MEASURE = """
import gc, json, sys, tracemalloc
from pathlib import Path
from pokerlab.games import load
from pokerlab.tree import compile
from pokerlab.tree.compile import _resident_bytes

def high_water_mark():
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    raise SystemExit("no VmHWM")

game = load(sys.argv[1])
gc.collect()
gc.freeze()
Path("/proc/self/clear_refs").write_text("5")  # the peak starts again from here
before = _resident_bytes()
tree = compile(game, memory_limit=1 << 40)
peak = high_water_mark()
final = _resident_bytes()
del tree
compile.__globals__["_CACHE"].clear()
gc.collect()
tracemalloc.start()
tree = compile(game, memory_limit=1 << 40)
kept, traced_peak = tracemalloc.get_traced_memory()
print(json.dumps({"histories": tree.n_histories, "peak": peak - before,
                  "final": final - before, "kept": kept, "traced_peak": traced_peak}))
"""


@pytest.mark.slow
@pytest.mark.parametrize("spec", ["leduc(stack=30, raise_cap=None)", "kuhn(cards=100)"])
def test_the_estimate_matches_measured_use(spec: str) -> None:
    if not Path("/proc/self/clear_refs").exists():
        pytest.skip("the peak is measured with Linux's /proc/self/clear_refs and VmHWM")
    done = subprocess.run([sys.executable, "-c", MEASURE, spec], capture_output=True,
                          text=True, cwd=ROOT, timeout=300, check=True)
    used = json.loads(done.stdout)
    histories = used["histories"]
    assert histories > 50_000  # big enough for the per-history figures to mean something
    peak = histories * PEAK_BYTES_PER_HISTORY
    # The peak the process reached: the estimate covers it, and is not far above it.
    assert used["peak"] <= peak
    assert used["peak"] >= peak / 2
    # After compiling, the process still holds most of its peak (the allocator keeps it):
    # the estimate covers that too.
    assert used["final"] <= peak
    assert used["final"] >= peak / 4
    # What the tree itself keeps: the "kept" figure of the message, within a factor 1.5.
    kept = histories * BYTES_PER_HISTORY
    assert kept / 1.5 <= used["kept"] <= kept * 1.5
    assert used["traced_peak"] <= peak


def test_a_larger_limit_is_suggested_only_where_the_machine_has_the_memory(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = load("leduc(ranks=50)")  # 72,913,601 histories: about 38 GB at its peak
    monkeypatch.setattr(compile_module, "_machine_memory", lambda: 1 << 40)
    with pytest.raises(GameTooLargeError) as error:
        compile(game)
    assert "POKERLAB_MEMORY_LIMIT=37G" in str(error.value)
    monkeypatch.setattr(compile_module, "_machine_memory", lambda: 16 << 30)
    with pytest.raises(GameTooLargeError) as error:
        compile(game)
    message = str(error.value)
    assert "POKERLAB_MEMORY_LIMIT=" not in message
    assert "more than this machine's 17 GB of memory" in message
    assert "pokerlab solve 'leduc(ranks=50)' --algorithm es-mccfr" in message
    assert "a smaller game" in message


@pytest.mark.slow
def test_games_info_advice_for_a_huge_game_works(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games", "info", "kuhn(players=20)"]) == 1
    err = " ".join(capsys.readouterr().err.split())
    assert "POKERLAB_MEMORY_LIMIT=" not in err  # no absurd limit (it was 299361013815221978627G)
    assert "e+23 MB" in err
    advice = "pokerlab solve 'kuhn(players=20)' --algorithm es-mccfr"
    assert advice in err
    # and the advice, as printed, runs
    assert main([*advice.split()[1:2], "kuhn(players=20)", "--algorithm", "es-mccfr",
                 "--iterations", "5"]) == 0
    assert "iterations: 5" in capsys.readouterr().out
