# An infinite loop at its first turn: out of time (TLE), and stopped.
def on_turn():
    while True:
        pass


play(on_turn)
