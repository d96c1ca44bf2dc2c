# Crashes at its first turn: a run-time error (RE).
def on_turn():
    raise RuntimeError("boom")


play(on_turn)
