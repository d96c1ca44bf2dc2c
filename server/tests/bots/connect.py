# Tries to reach the server (and anything else) over the network: there is none.
import socket
import sys


def on_start():
    for host, port in [("127.0.0.1", p) for p in (50051, 80, 443)] + [("8.8.8.8", 53)]:
        try:
            socket.create_connection((host, port), timeout=1).close()
            print(f"CONNECTED to {host}:{port}", file=sys.stderr)
        except OSError as e:
            print(f"no connection to {host}:{port}: {e}", file=sys.stderr)


play(on_start=on_start)
