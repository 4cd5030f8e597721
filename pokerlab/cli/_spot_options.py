"""The options ``spot solve`` and ``spot report`` share: ranges, stacks, the bet tree, stops.

One definition each, so that both commands spell, explain and check them alike.
"""

from __future__ import annotations

from typing import Annotated

import typer

from pokerlab.errors import SpecError

OopOption = Annotated[str, typer.Option("--oop", help="OOP's range: '66+,A8s+,KQo:0.5'.")]
IpOption = Annotated[str, typer.Option("--ip", help="IP's range.")]
PotOption = Annotated[int, typer.Option("--pot", help="Chips in the pot at the start.")]
StackOption = Annotated[int, typer.Option("--stack", help="Chips behind each player.")]
BetsOption = Annotated[str, typer.Option("--bets", help="Bet sizes: '50%,100%', "
                                         "'river=75%,a'.")]
RaisesOption = Annotated[str, typer.Option("--raises", help="Raise sizes: '2.5x', '60%', 'a'.")]
DonksOption = Annotated[str | None, typer.Option(
    "--donks", help="Donk-bet sizes (OOP leading after calling a bet; default: its bet "
    "sizes): '33%', 'river=50%'.")]
AddAllInOption = Annotated[float, typer.Option(
    "--add-all-in-threshold", min=0.0,
    help="Add all-in where it is at most this many pots (0: never).")]
ForceAllInOption = Annotated[float, typer.Option(
    "--force-all-in-threshold", min=0.0, help="A size leaving at most this many pots "
    "behind after a call becomes all-in (0: never; 0.1-0.2 is usual).")]
MergingOption = Annotated[float, typer.Option(
    "--merging-threshold", min=0.0, help="Merge sizes whose (1 + pot fraction) differ by "
    "less than this factor, keeping the larger (PioSOLVER's rule; 0: never).")]
RaiseCapOption = Annotated[int | None, typer.Option(
    "--raise-cap", help="Bets and raises per street (default: until the stacks are in).")]
IsomorphismOption = Annotated[bool, typer.Option(
    "--isomorphism/--no-isomorphism", help="Share suit-isomorphic turn and river cards.")]
TargetOption = Annotated[str | None, typer.Option(
    "--target", help="Stop at this exploitability: '0.5%' of the pot, or chips.")]
IterationsOption = Annotated[int | None, typer.Option(
    "--iterations", help="Stop at this many iterations in all.")]
SecondsOption = Annotated[float | None, typer.Option(
    "--seconds", help="Stop after this many wall-clock seconds in all.")]
CheckEveryOption = Annotated[int, typer.Option(
    "--check-every", min=1, help="Iterations between exploitability checks.")]
VariantOption = Annotated[str, typer.Option("--variant", help="dcfr, cfr+ or cfr.")]
MemoryLimitOption = Annotated[int, typer.Option(
    "--memory-limit", min=1, help="Refuse spots needing more than this, in MB.")]
ThreadsOption = Annotated[int | None, typer.Option(
    "--threads", min=1, help="Threads per solve (default: every core; spot report: the "
    "cores shared among its workers). The results are the same for any count.")]


def parse_target(text: str, pot: int) -> float:
    """``"0.5%"`` (of the pot) or ``"1.2"`` (chips) as chips per hand.

    Raises:
        SpecError: if the text is not a positive number, with or without ``%``.
    """
    body = text.strip()
    percent = body.endswith("%")
    try:
        value = float(body.rstrip("%"))
    except ValueError:
        raise SpecError(f"--target {text!r}: write a percentage of the pot ('0.5%') or chips "
                        "('1.2')") from None
    if not value > 0:
        raise SpecError(f"--target must be positive; got {text!r}")
    return value / 100 * pot if percent else value
