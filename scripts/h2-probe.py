#!/usr/bin/env python3
"""What a server does with hostile HTTP/2 connections, in figures (docs/BENCHMARKS.md,
"Hostile traffic"). Standard library only, from 127.0.0.2 to a server on loopback:

    python3 scripts/h2-probe.py 127.0.0.1:50051 SERVER_PID

For each attack it prints one JSON line: how the connection ended (GOAWAY and its code, closed,
or still open when the probe gave up), after how long, how many acknowledgements the server
sent, the server's CPU seconds and its resident memory growth meanwhile.
"""

from __future__ import annotations

import json
import socket
import struct
import sys
import threading
import time

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
FROM = "127.0.0.2"


def frame(kind: int, flags: int, stream: int, payload: bytes = b"") -> bytes:
    return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + struct.pack(">I", stream) + payload


def literal_headers(fields: list[tuple[str, str]]) -> bytes:
    out = b""
    for name, value in fields:
        out += b"\x00" + bytes([len(name)]) + name.encode() + bytes([len(value)]) + value.encode()
    return out


def connect(addr: tuple[str, int]) -> socket.socket:
    s = socket.socket()
    s.bind((FROM, 0))
    s.connect(addr)
    return s


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        rest = f.read().rsplit(")", 1)[1].split()
    return (int(rest[11]) + int(rest[12])) / 100.0


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def watch(s: socket.socket, started: float, wait: float) -> dict[str, object]:
    """Reads frames until the connection ends or `wait` seconds pass."""
    s.settimeout(0.2)
    data = b""
    acks = 0
    goaway = None
    while time.monotonic() - started < wait:
        try:
            chunk = s.recv(1 << 16)
        except socket.timeout:
            continue
        except OSError:
            chunk = b""
        if not chunk:
            return {"ended": "goaway" if goaway is not None else "closed", "goaway_code": goaway,
                    "after_s": round(time.monotonic() - started, 3), "acks": acks}
        data += chunk
        while len(data) >= 9:
            length = int.from_bytes(data[:3], "big")
            if len(data) < 9 + length:
                break
            kind, flags, payload = data[3], data[4], data[9:9 + length]
            if kind in (4, 6) and flags & 1:
                acks += 1
            if kind == 7:
                goaway = int.from_bytes(payload[4:8], "big")
            data = data[9 + length:]
    return {"ended": "still open", "goaway_code": goaway, "after_s": None, "acks": acks}


def attack(name: str, addr: tuple[str, int], pid: int, send: bytes, wait: float) -> None:
    cpu, rss = cpu_seconds(pid), rss_kib(pid)
    s = connect(addr)
    started = time.monotonic()
    result: dict[str, object] = {}
    reader = threading.Thread(target=lambda: result.update(watch(s, started, wait)))
    reader.start()
    sent = 0
    try:
        for i in range(0, len(send), 1 << 14):
            s.sendall(send[i:i + (1 << 14)])
            sent = i + (1 << 14)
    except OSError:
        pass
    reader.join()
    s.close()
    print(json.dumps({"attack": name, **result, "bytes_accepted": min(sent, len(send)),
                      "server_cpu_s": round(cpu_seconds(pid) - cpu, 2),
                      "server_rss_growth_kib": rss_kib(pid) - rss}), flush=True)


def pending_calls(addr: tuple[str, int], pid: int, connections: int, per: int) -> None:
    """`per` calls on each of `connections` connections that never finish their request."""
    rss = rss_kib(pid)
    block = literal_headers([(":method", "POST"), (":scheme", "http"),
                             (":path", "/calabresella.v1.TableService/ListTables"),
                             (":authority", "localhost"), ("content-type", "application/grpc"),
                             ("te", "trailers")])
    socks = []
    answered = 0
    for _ in range(connections):
        s = connect(addr)
        s.sendall(PREFACE + frame(4, 0, 0) + b"".join(frame(1, 4, 1 + 2 * i, block) for i in range(per)))
        socks.append(s)
    time.sleep(2.0)
    peak = rss_kib(pid)
    for s in socks:
        s.settimeout(0.5)
        data = b""
        try:
            while True:
                chunk = s.recv(1 << 16)
                if not chunk:
                    break
                data += chunk
        except OSError:
            pass
        while len(data) >= 9:
            length = int.from_bytes(data[:3], "big")
            if data[3] == 1:
                answered += 1
            data = data[9 + length:]
        s.close()
    print(json.dumps({"attack": f"{connections * per} unfinished calls on {connections} connections",
                      "answered_at_once": answered, "server_rss_growth_kib": peak - rss}), flush=True)


def main() -> None:
    host, port = sys.argv[1].rsplit(":", 1)
    addr = (host, int(port))
    pid = int(sys.argv[2])
    handshake = PREFACE + frame(4, 0, 0)
    attack("PING flood, 100,000 frames", addr, pid,
           handshake + b"".join(frame(6, 0, 0, struct.pack(">Q", i)) for i in range(100_000)), 20)
    attack("SETTINGS flood, 100,000 frames", addr, pid,
           handshake + frame(4, 0, 0, b"\x00\x02\x00\x00\x00\x00") * 100_000, 20)
    attack("silent connection", addr, pid, b"", 20)
    attack("stalled inside a frame", addr, pid, handshake + frame(6, 0, 0, bytes(8))[:5], 20)
    attack("idle after the handshake", addr, pid, handshake, 20)
    pending_calls(addr, pid, 8, 400)


if __name__ == "__main__":
    main()
