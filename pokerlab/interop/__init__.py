"""Doors to other tools: OpenSpiel policies (:mod:`.openspiel`), PHH hand histories (:mod:`.phh`).

A module that needs its tool (an optional extra: OpenSpiel) raises
:class:`~pokerlab.errors.MissingExtraError` naming the extra when it is missing; PHH needs
none (it is TOML, which Python reads). Importing this package imports none of them.
"""

from __future__ import annotations
