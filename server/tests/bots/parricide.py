# Kills what it can: its parent, process 1, every process it may signal. Contained.
import os
import signal
import sys


def on_start():
    for pid in (os.getppid(), 1, -1):
        try:
            os.kill(pid, signal.SIGKILL)
            print(f"KILLED {pid}", file=sys.stderr)
        except OSError as e:
            print(f"cannot kill {pid}: {e.strerror}", file=sys.stderr)


play(on_start=on_start)
