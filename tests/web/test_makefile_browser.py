"""The Makefile's ``browser`` target: installs chromium when missing (root), else says how."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _make_browser(tmp_path: Path, uid: int) -> tuple[str, list[str]]:
    """Run ``make browser`` for a missing chromium with stub ``id`` and ``apt-get``.

    Returns make's output and the apt-get calls the stub logged.
    """
    stubs = tmp_path / "bin"
    stubs.mkdir()
    log = tmp_path / "apt.log"
    (stubs / "id").write_text(f"#!/bin/sh\necho {uid}\n")
    (stubs / "apt-get").write_text(f'#!/bin/sh\necho "$*" >> {log}\n')
    for stub in stubs.iterdir():
        stub.chmod(0o755)
    result = subprocess.run(
        ["make", "-s", "-C", str(ROOT), "browser", f"CHROMIUM={tmp_path / 'no-chromium'}"],
        env={**os.environ, "PATH": f"{stubs}{os.pathsep}{os.environ['PATH']}"},
        capture_output=True, text=True, timeout=30, check=False,
    )
    assert result.returncode == 0, result.stderr
    calls = log.read_text().splitlines() if log.exists() else []
    return result.stdout, calls


def test_root_updates_the_package_lists_before_installing(tmp_path: Path) -> None:
    out, calls = _make_browser(tmp_path, uid=0)
    assert [c.split()[0] for c in calls] == ["update", "install"], calls
    assert "chromium" in calls[1].split()
    assert out == ""


def test_a_user_gets_the_one_line_message(tmp_path: Path) -> None:
    out, calls = _make_browser(tmp_path, uid=1000)
    assert calls == []
    assert out.strip().splitlines() == [
        f"make test: the browser tests need {tmp_path / 'no-chromium'}: apt-get install "
        "chromium (as root)"]
