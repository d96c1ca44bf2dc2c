#!/usr/bin/env python3
"""A submitted bot built on the `calabresella` package: the same `Bot` class that plays
in-process and on a server, served over standard input and output by
`calabresella.stdio.serve` (docs/SUBMISSIONS.md). The server's sandbox provides the package and
numpy.

    calabresella submit --name seeded-random examples/bots/python/stdio_random.py
"""

import sys

from calabresella.bots import RandomBot
from calabresella.stdio import serve

if __name__ == "__main__":
    result = serve(RandomBot(seed=7))
    print(f"the match ended: {result}", file=sys.stderr)
