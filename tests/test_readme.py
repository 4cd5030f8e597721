"""The README's Python examples run as written (so the five-minute tour cannot rot)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.S)


def test_readme_opens_with_the_two_commands() -> None:
    text = README.read_text(encoding="utf-8")
    first_block = text.split("```bash", 1)[1].split("```", 1)[0]
    assert "make demo" in first_block
    assert "make test" in first_block


@pytest.mark.parametrize("upto", range(len(BLOCKS)), ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_readme_python_block_runs(upto: int) -> None:
    namespace: dict[str, object] = {}
    for block in BLOCKS[: upto + 1]:  # later blocks build on the names of earlier ones
        exec(compile(block, str(README), "exec"), namespace)


@pytest.mark.slow
def test_the_readmes_arena_commands_work_as_written(tmp_path: Path) -> None:
    import os
    import shlex
    import subprocess
    import sys

    root = README.parent
    lines = [line.split("#")[0].strip() for line in README.read_text().splitlines()
             if line.startswith("pokerlab arena ")]
    assert any("--agents examples/entrants" in line for line in lines)
    env = {**os.environ, "POKERLAB_CACHE": str(tmp_path / "cache")}
    for line in lines:
        argv = shlex.split(line)[1:]
        if "--db" in argv:
            argv[argv.index("--db") + 1] = str(tmp_path / "arena.db")
        if "--hands" in argv:
            argv[argv.index("--hands") + 1] = "50"  # the command as written, shorter
        done = subprocess.run([sys.executable, "-m", "pokerlab.cli", *argv], cwd=root, env=env,
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, f"{line}\n{done.stderr}"
