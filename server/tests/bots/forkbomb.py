# Forks until the process limit stops it, then plays on: contained.
import os
import sys


def on_start():
    children = 0
    try:
        while True:
            if os.fork() == 0:
                import time
                time.sleep(3600)
                os._exit(0)
            children += 1
    except OSError as e:
        print(f"forked {children}, then: {e}", file=sys.stderr)


play(on_start=on_start)
