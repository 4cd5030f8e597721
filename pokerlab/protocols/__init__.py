"""Protocols that connect pokerlab to other poker software.

The ACPC's game definitions (:mod:`~pokerlab.protocols.acpc_gamedef`), and its
match-state protocol, dealer and client.
"""
