"""Doors to other tools: OpenSpiel policies (:mod:`.openspiel`).

Each module needs its tool (an optional extra) and raises
:class:`~pokerlab.errors.MissingExtraError` naming the extra when it is missing; importing
this package imports none of them.
"""

from __future__ import annotations
