#!/usr/bin/env python3
"""A submitted bot in plain Python (standard library only), speaking the
`calabresella-bot/1` protocol (docs/SUBMISSIONS.md) by hand: it reads one JSON object per line
on standard input and, when a line carries a `turn`, answers with one line on standard output,
the notation of its first legal action. Log to standard error: standard output is the
protocol's.

    calabresella submit --name first-legal examples/bots/python/first_legal.py
"""

import json
import sys


def main() -> None:
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "start":
            print(f"seat {message['seat']} of {message['table_id']}", file=sys.stderr)
        elif message["type"] == "observe" and "turn" in message:
            print(message["turn"]["legal_actions"][0], flush=True)
        elif message["type"] == "end":
            print("the match is over", file=sys.stderr)
            return


if __name__ == "__main__":
    main()
