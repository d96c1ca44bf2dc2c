# Answers with something that is no action: bad output.
def on_turn():
    print("I fold", flush=True)
    raise SystemExit(0)


play(on_turn)
