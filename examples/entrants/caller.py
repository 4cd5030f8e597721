"""An example entrant: checks when it can, calls otherwise (never folds, never raises).

Try it: ``pokerlab arena check-agent examples/entrants/caller.py --game leduc``.
"""


class Agent:
    """Checks or calls."""

    def act(self, observation):
        """Check if nothing is owed, else call."""
        for name in ("check", "call"):
            if name in observation.action_names:
                return observation.action_named(name)
        return observation.legal_actions[0]
