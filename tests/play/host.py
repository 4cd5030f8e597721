"""What an entrant could leave on the host, watched around a test (a fixture).

:class:`HostWatch` records the host's SysV shared-memory segments, its hostname and core
pattern, and (by wrapping the sandbox's ``mkdtemp`` and ``Popen``) every working folder
and launcher an entrant gets; :meth:`HostWatch.assert_clean` checks afterwards that no
segment was added, no process of an entrant's host id runs, no folder is left and no
setting changed.
"""

from __future__ import annotations

import os
import socket
import time
from pathlib import Path

import pytest


def shm_segments() -> set[str]:
    """The host's SysV shared-memory segments (key and id), from /proc/sysvipc/shm."""
    lines = Path("/proc/sysvipc/shm").read_text().splitlines()[1:]
    return {" ".join(line.split()[:2]) for line in lines}


def processes_of(ids: set[int]) -> list[int]:
    """Host processes whose real or effective user id is one of ``ids``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            status = (entry / "status").read_text()
        except OSError:
            continue
        for line in status.splitlines():
            if line.startswith("Uid:"):
                if {int(v) for v in line.split()[1:3]} & ids:
                    found.append(int(entry.name))
                break
    return found


class HostWatch:
    """What an entrant could leave on the host: segments, processes, folders, settings."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        import pokerlab.play.containment as containment
        import pokerlab.play.sandbox as sandbox

        self.segments = shm_segments()
        self.hostname = socket.gethostname()
        self.core_pattern = Path("/proc/sys/kernel/core_pattern").read_text()
        self.folders: list[str] = []
        self.ids: set[int] = set()
        made = sandbox.tempfile.mkdtemp

        def mkdtemp(*args: object, **kwargs: object) -> str:
            folder = made(*args, **kwargs)  # type: ignore[call-overload]
            self.folders.append(folder)
            return str(folder)

        watch = self

        drawn = containment.new_host_id

        def new_host_id() -> int:
            number = drawn()
            watch.ids.add(number)
            return number

        monkeypatch.setattr(sandbox.tempfile, "mkdtemp", mkdtemp)
        monkeypatch.setattr(containment, "new_host_id", new_host_id)

    def assert_clean(self) -> None:
        """Nothing of the entrant is left on the host."""
        assert self.ids, "no entrant was started"
        assert shm_segments() <= self.segments
        deadline = time.monotonic() + 5
        while processes_of(self.ids) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert processes_of(self.ids) == []
        assert [f for f in self.folders if os.path.exists(f)] == []
        assert socket.gethostname() == self.hostname
        assert Path("/proc/sys/kernel/core_pattern").read_text() == self.core_pattern
