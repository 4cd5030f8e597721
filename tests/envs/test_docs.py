"""docs/envs.md's Python blocks run as written, each in a fresh interpreter, and print what
the page says they print."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "envs.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```python\n(.*?)```", DOC, flags=re.S)
TEXTS = re.findall(r"```text\n(.*?)```", DOC, flags=re.S)


def _run(code: str) -> str:
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=environment,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_page_shows_four_python_blocks() -> None:
    assert len(BLOCKS) == 4
    assert "pip install 'pokerlab[envs]'" in DOC


def test_the_pettingzoo_loop_prints_every_agents_chips() -> None:
    lines = _run(BLOCKS[0]).splitlines()
    assert [line.split()[0] for line in lines] == ["player_0", "player_1"]
    assert sum(float(line.split()[1]) for line in lines) == 0.0


@pytest.mark.slow
def test_the_training_loop_learns_to_beat_random() -> None:
    out = _run(BLOCKS[1])
    found = re.search(r"([+-]\d+\.\d+) before training, ([+-]\d+\.\d+) after", out)
    assert found, out
    before, after = float(found.group(1)), float(found.group(2))
    assert after > before + 0.5, out


def test_the_rendered_table_is_the_one_shown() -> None:
    assert _run(BLOCKS[2]).strip() == TEXTS[0].strip()


def test_the_openspiel_example_agrees() -> None:
    first, second = _run(BLOCKS[3]).splitlines()
    ours, theirs = (float(x) for x in first.split())
    assert abs(ours - theirs) < 1e-9
    assert float(second) < 1e-12
