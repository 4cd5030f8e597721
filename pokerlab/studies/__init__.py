"""Studies: reports and figures that combine the layers to their left.

- the challenge study (:mod:`.challenge`) and its report (:mod:`.challenge_report`): the
  numbers the poker-bot challenge asks for, abstractions' exploitability, the charts;
- the exploitation study (:mod:`.exploitation`): what exploiting weak opponents gains,
  and what it costs in exploitability;
- convergence curves (:mod:`.convergence`): exploitability against iterations and seconds
  for several solvers, the data behind ``pokerlab plot convergence``.

A study runs solvers, evaluators, agents and matches, so this layer sits right of the
arena (``... -> agents -> arena -> studies -> protocols / web / cli``). Nothing here is
imported by ``import pokerlab``; import the module you need.
"""

from __future__ import annotations
