"""``python -m pokerlab.cli``: the same as the ``pokerlab`` command."""

from pokerlab.cli import entry_point

entry_point()
