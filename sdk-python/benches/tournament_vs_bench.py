"""The in-process ``tournament`` on one thread against the Rust ``calabresella bench`` on one
core, interleaved in the same run: how far the Python package's match runner is from the
engine's own per-action loop.

Run it pinned to one core, so both sides get the same core::

    taskset -c 1 .venv/bin/python sdk-python/benches/tournament_vs_bench.py

Each round runs the Rust bench (per-action API driver, median of its runs), then three
tournaments of random bots in Calabresella (one thread, median), and prints the ratio; the
report ends with the median ratio over the rounds.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
from pathlib import Path

from bench import tournament_hands_per_sec  # this directory's bench.py: the same measure

ROOT = Path(__file__).resolve().parents[2]


def rust_hands_per_sec(cli: Path, hands: int) -> float:
    """The Rust engine's bench, per-action API driver."""
    out = subprocess.run(
        [str(cli), "bench", "--hands", str(hands), "--runs", "3", "--driver", "api"],
        capture_output=True,
        text=True,
        check=True,
    )
    return float(json.loads(out.stdout)["api_hands_per_sec"])


def main() -> None:
    """Runs the rounds and prints each ratio and the median."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--rounds", type=int, default=5, help="interleaved rounds")
    p.add_argument("--deals", type=int, default=20000, help="deals per tournament")
    p.add_argument("--cli", type=Path, default=ROOT / "target" / "release" / "calabresella")
    a = p.parse_args()
    ratios = []
    for _ in range(a.rounds):
        rust = rust_hands_per_sec(a.cli, 300_000)
        tour = statistics.median(tournament_hands_per_sec(a.deals, 1) for _ in range(3))
        ratios.append(rust / tour)
        print(f"rust bench {rust:,.0f} hands/s  tournament {tour:,.0f} hands/s  {rust / tour:.2f}x")
    print(f"median: the tournament is {statistics.median(ratios):.2f}x slower per core")


if __name__ == "__main__":
    main()
