# Sleeps at its first turn, for ever: out of time (TLE).
import time


def on_turn():
    time.sleep(10**6)


play(on_turn)
