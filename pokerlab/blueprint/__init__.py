"""Blueprint strategies for Hold'em, and measuring them: local best response (:mod:`.lbr`)."""

from __future__ import annotations
