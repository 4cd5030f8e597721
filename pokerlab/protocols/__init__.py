"""Protocols that connect pokerlab to other poker software.

The ACPC's game definitions (:mod:`~pokerlab.protocols.acpc_gamedef`), its match-state
protocol (:mod:`~pokerlab.play.acpc_matchstate`), a dealer
(:mod:`~pokerlab.protocols.acpc_dealer`), a client (:mod:`~pokerlab.protocols.acpc_client`)
and arena entrants in any language (:mod:`~pokerlab.play.executable`).
"""
