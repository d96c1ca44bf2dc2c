# Spreads its memory over six processes of 80 MiB each, each under the per-process limit:
# only the bot's control group holds them to its limit as a whole. A child killed for it ends
# the bot (out of memory, MLE).
import os
import sys
import time


def on_start():
    children = []
    for _ in range(6):
        pid = os.fork()
        if pid == 0:
            try:
                block = b"x" * (80 << 20)
                print(f"ALLOCATED {len(block)}", file=sys.stderr, flush=True)
                time.sleep(0.3)
                os._exit(0)
            except MemoryError:
                os._exit(3)
        children.append(pid)
    for pid in children:
        _, status = os.waitpid(pid, 0)
        if os.WIFSIGNALED(status):
            sys.exit(f"a child was killed by signal {os.WTERMSIG(status)}")


play(on_start=on_start)
