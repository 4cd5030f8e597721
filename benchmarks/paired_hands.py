"""Two agents against one opponent on the same deals: the difference, hand by hand.

``python -m benchmarks.paired_hands A_DIR A_NAME B_DIR B_NAME [A_DIR A_NAME B_DIR B_NAME ...]``:
each ``DIR`` holds the ``.phhs`` file a ``pokerlab match ... --hands-out DIR`` wrote; the
two matches of a pair were played with the same seed, so their hands are the same deals
in the same seats (checked: deal ids, hand numbers and hole cards), and only the agents'
play differs. Each hand's winnings of ``A_NAME`` less ``B_NAME``'s cancel most of the
cards' luck (on issue 24's off-menu matches the two agents' winnings correlate at 0.92),
so a difference shows in a few thousand hands where two separate matches would need
many times more. The interval is clustered by deal (its two seatings summed), 95%, normal.
docs/hard_search.md records the figures.
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

import numpy as np

from pokerlab.interop.phh_read import loads_phh


def _hands(folder: str, name: str) -> list[tuple[int, int, tuple[int, ...], float]]:
    """``(deal, hand, hole cards, winnings of name)`` of every hand in the folder's files."""
    rows = []
    files = sorted(Path(folder).glob("*.phhs"))
    if not files:
        raise SystemExit(f"no .phhs file in {folder}")
    for path in files:
        for hand in loads_phh(path.read_text(), source=str(path)):
            players = hand.players or ()
            if name not in players:
                raise SystemExit(f"{path}: no player named {name!r} (players: {players})")
            record = hand.record
            seats = len(players)
            rows.append((record.deal, record.hand, tuple(record.history[:2 * seats]),
                         record.returns[players.index(name)]))
    return rows


def paired(a_dir: str, a_name: str, b_dir: str, b_name: str) -> np.ndarray:
    """Per deal, the mean per hand of ``a_name``'s winnings less ``b_name``'s."""
    a, b = _hands(a_dir, a_name), _hands(b_dir, b_name)
    if len(a) != len(b):
        raise SystemExit(f"{a_dir} holds {len(a)} hands, {b_dir} {len(b)}: not one match's deals")
    sums: dict[int, list[float]] = {}
    for (deal, hand, hole, won), (deal_b, hand_b, hole_b, won_b) in zip(a, b, strict=True):
        if (deal, hand, hole) != (deal_b, hand_b, hole_b):
            raise SystemExit(f"hand {hand} differs between {a_dir} and {b_dir}: not the same "
                             "deals (another seed?)")
        sums.setdefault(deal, []).append(won - won_b)
    return np.array([sum(d) / len(d) for d in sums.values()])


def _interval(values: np.ndarray) -> tuple[float, float, float]:
    mean = float(values.mean())
    half = 1.96 * float(values.std(ddof=1)) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def main() -> None:
    """Print one line per pair and one for all pairs together."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("pairs", nargs="+", help="A_DIR A_NAME B_DIR B_NAME, repeated")
    parser.add_argument("--big-blind", type=float, default=2.0, help="chips, for mbb")
    args = parser.parse_args()
    if len(args.pairs) % 4:
        parser.error("give A_DIR A_NAME B_DIR B_NAME for each pair of matches")
    every = []
    for k in range(0, len(args.pairs), 4):
        values = paired(*args.pairs[k:k + 4])
        every.append(values)
        mean, low, high = _interval(values)
        print(f"{args.pairs[k]} vs {args.pairs[k + 2]}: {len(values)} deals, "
              f"{mean:+.3f} [{low:+.3f}, {high:+.3f}] chips a hand")
    mean, low, high = _interval(np.concatenate(every))
    scale = 1000 / args.big_blind
    print(f"all: {sum(len(v) for v in every)} deals, {mean:+.3f} [{low:+.3f}, {high:+.3f}] "
          f"chips a hand = {mean * scale:+.0f} mbb [{low * scale:+.0f}, {high * scale:+.0f}]")


if __name__ == "__main__":
    main()
