# Writes everywhere it can think of: only its scratch space takes it.
import sys


def on_start():
    for path in ["/bot/x", "/usr/x", "/x", "/etc/x", "/proc/x", "/tmp/scratch"]:
        try:
            with open(path, "w") as f:
                f.write("x")
            print(f"WROTE {path}", file=sys.stderr)
        except OSError as e:
            print(f"cannot write {path}: {e.strerror}", file=sys.stderr)


play(on_start=on_start)
