"""Hostile Deep CFR policy files (``.pt``): a member that inflates is refused before torch reads it.

torch stores its members uncompressed; a file whose tensor record is deflated can declare
gigabytes in a few megabytes, and ``torch.load`` inflates it whole before noticing the
record's size is wrong (2.1 GB resident for a 1.9 MB file). pokerlab refuses it first.
"""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from pokerlab.errors import FileFormatError
from pokerlab.games import kuhn
from pokerlab.solvers import DeepCFR, DeepPolicy
from tests.strategy.zip_bombs import Member, write_zip, zeros

TINY = {"traversals": 40, "advantage_steps": 20, "policy_steps": 40, "batch_size": 64}


@pytest.fixture(scope="module")
def honest(tmp_path_factory: pytest.TempPathFactory) -> Path:
    solver = DeepCFR(kuhn(), seed=0, **TINY)
    solver.run(iterations=1)
    return solver.policy().save(tmp_path_factory.mktemp("pt") / "kuhn.pt")


def _bomb(honest: Path, target: Path) -> Path:
    with zipfile.ZipFile(honest) as archive:
        members = [Member(info.filename, archive.read(info), info.file_size, deflated=False)
                   for info in archive.infolist()]
    record = next(i for i, m in enumerate(members) if "/data/" in m.name)
    members[record] = zeros(members[record].name, b"", 2 * 1024**3)
    return write_zip(target, members)


def test_a_deflated_member_is_refused_before_torch_reads_it(honest: Path, tmp_path: Path) -> None:
    bomb = _bomb(honest, tmp_path / "bomb.pt")
    assert bomb.stat().st_size < 4 * 1024**2
    with pytest.raises(FileFormatError, match="holds the compressed member") as error:
        DeepPolicy.load(bomb)
    assert "\n" not in str(error.value)
    assert DeepPolicy.load(honest).game == kuhn()


@pytest.mark.slow
def test_loading_the_bomb_stays_small_in_a_fresh_process(honest: Path, tmp_path: Path) -> None:
    bomb = _bomb(honest, tmp_path / "bomb.pt")
    # VmHWM, the peak resident size of this process's own memory (ru_maxrss would count
    # the pytest worker it was forked from: Linux keeps it across exec).
    code = (
        "import torch  # noqa: F401  (imported by the load; not what is measured)\n"
        "from pokerlab.solvers import DeepPolicy\n"
        "from pokerlab.errors import FileFormatError\n"
        "def peak():\n"
        "    status = open('/proc/self/status').read().split('VmHWM:')[1]\n"
        "    return int(status.split()[0])\n"
        "before = peak()\n"
        "try:\n"
        f"    DeepPolicy.load({str(bomb)!r})\n"
        "except FileFormatError:\n"
        "    pass\n"
        "print(peak() - before, peak())\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=True)
    grown_kb, peak_kb = (int(word) for word in done.stdout.split()[-2:])
    assert grown_kb < 100 * 1024, f"grew {grown_kb} KB"
    assert peak_kb < 1024**2, f"peaked at {peak_kb} KB"  # under 1 GB, imports included
