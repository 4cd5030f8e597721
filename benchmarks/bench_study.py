"""The challenge study's run time: ``pokerlab study challenge`` in quick and full mode.

Each mode runs in a fresh process (imports, JIT compilation and tree compilation
included), as a user would run it; the target is under 10 minutes on 2 cores for the
full study. There is no peer: the row records our wall time against the target.
With ``--quick`` only the quick mode runs.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time

from benchmarks._harness import Row

TARGET_SECONDS = {"quick": 60.0, "full": 600.0}


def _run(mode: str) -> Row:
    with tempfile.TemporaryDirectory() as folder:
        command = [sys.executable, "-m", "pokerlab.cli", "study", "challenge", "--out", folder,
                   "--json"]
        if mode == "quick":
            command.append("--quick")
        start = time.perf_counter()
        finished = subprocess.run(command, capture_output=True, text=True, check=True)
        wall = time.perf_counter() - start
    data = json.loads(finished.stdout)
    slowest = max(data["step_seconds"].items(), key=lambda item: item[1])
    return Row(
        name=f"study challenge ({mode})",
        unit="s",
        ours=wall,
        target=f"< {TARGET_SECONDS[mode]:.0f} s on 2 cores",
        note=(
            f"study {data['seconds']:.1f} s in-process; slowest step {slowest[0]} "
            f"{slowest[1]:.1f} s; {os.cpu_count()} cores here"
        ),
    )


def run(quick: bool) -> list[Row]:
    """Time the study: quick mode, and the full mode unless ``quick``."""
    modes = ("quick",) if quick else ("quick", "full")
    return [_run(mode) for mode in modes]
