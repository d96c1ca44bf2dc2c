# Floods its output with one huge line: bad output, and stopped.
import sys


def on_turn():
    sys.stdout.write("x" * (10 * 1024 * 1024))
    sys.stdout.flush()


play(on_turn)
