"""The optional extra of the environments, and the error that names it.

PettingZoo and Gymnasium are imported only by :mod:`pokerlab.envs.aec` and
:mod:`pokerlab.envs.single`; the rest of :mod:`pokerlab.envs` (the table, the observation
encoding, the actions) and the rest of pokerlab import without them.
"""

from __future__ import annotations

from pokerlab.errors import MissingExtraError

EXTRA = "pokerlab[envs]"
"""The optional extra that installs PettingZoo and Gymnasium."""


def missing_extra(what: str) -> MissingExtraError:
    """The error raised when ``what`` needs PettingZoo or Gymnasium and they are missing."""
    return MissingExtraError(
        f"{what} needs PettingZoo and Gymnasium, which are not installed; install the "
        f"extra: pip install '{EXTRA}'"
    )


__all__ = ["EXTRA", "missing_extra"]
