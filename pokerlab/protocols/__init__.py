"""Network protocols between pokerlab and other programs: the ACPC match-state protocol."""
