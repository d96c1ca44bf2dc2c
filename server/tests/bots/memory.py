# Takes memory until it cannot: out of memory (MLE), and stopped.
hog = []


def on_turn():
    while True:
        hog.append(bytearray(16 * 1024 * 1024))


play(on_turn)
