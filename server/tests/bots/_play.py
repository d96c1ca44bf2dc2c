"""What every test bot shares: the protocol loop, answering each turn with its first legal
action once the bot's own mischief (``on_turn``) is done. Copied into each bot (a single-file
submission) by the test."""
import json
import sys


def play(on_turn=lambda: None, on_start=lambda: None):
    for line in sys.stdin:
        m = json.loads(line)
        if m["type"] == "start":
            on_start()
        elif m["type"] == "observe" and "turn" in m:
            on_turn()
            print(m["turn"]["legal_actions"][0], flush=True)
        elif m["type"] == "end":
            return
