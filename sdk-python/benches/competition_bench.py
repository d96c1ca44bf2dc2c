"""Competition figures of a server: how fast its scheduler makes tournament tables, and how long
a matched ``Seek`` takes to seat its players.

    python sdk-python/benches/competition_bench.py [--cli target/release/calabresella]

1. **Matches scheduled per second.** Twelve registered entrants keep ``Compete`` calls open
   with ``max_tables=16`` and only receive (nobody plays, so no table ends). A round robin of
   Calabresella among them is created; the scheduler makes every table its entrants have
   room for (about 60: each entrant's 16 and the tournament's 64 bound it), seating three
   entrants at each and sending each its token. The figure is the tables made over the time
   from ``CreateTournament`` to the last seat received (each table: stored, three seats
   stored, the match row updated, three assignments sent). A fresh server (SQLite file,
   default durability) per run; median of 5 runs.
2. **Seek to seat.** Two registered players seek the same settings (Tressette in Due); the
   time from the second ``Seek`` to its ``seated`` answer (the pair is complete, so the server
   makes the table and seats both at once). A fresh pair each time; median and 90th
   percentile of 50 seeks on one server.

Prints a JSON report.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import calabresella as cb

ROOT = Path(__file__).resolve().parents[2]
ADMIN = "bench-admin-key-0123456789"


def start(cli: Path, db: Path) -> tuple[subprocess.Popen[str], str]:
    admin = db.with_suffix(".admin")
    admin.write_text(ADMIN)
    proc = subprocess.Popen(
        [
            str(cli),
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--db",
            str(db),
            "--admin-key-file",
            str(admin),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert proc.stdout is not None
    for line in proc.stdout:
        m = re.search(r"listening on (\S+)", line)
        if m:
            return proc, m.group(1)
    raise RuntimeError("the server did not start")


def register(cli: Path, db: Path, names: list[str]) -> dict[str, str]:
    return {
        n: subprocess.run(
            [str(cli), "players", "add", n, "--db", str(db)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        for n in names
    }


def scheduling_run(cli: Path, tmp: Path, run: int) -> float:
    db = tmp / f"schedule-{run}.db"
    names = [f"entrant-{i:02}" for i in range(12)]
    keys = register(cli, db, names)
    proc, address = start(cli, db)
    try:
        calls = [cb.connect(address, key=keys[n]).compete(max_tables=16) for n in names]
        received = 0
        lock = threading.Lock()
        done = threading.Event()
        last = [0.0]

        def drain(call: Any) -> None:
            nonlocal received
            while not done.is_set():
                if call.next(timeout=0.2) is not None:
                    with lock:
                        received += 1
                        last[0] = time.perf_counter()

        threads = [threading.Thread(target=drain, args=(c,), daemon=True) for c in calls]
        for t in threads:
            t.start()
        started = time.perf_counter()
        subprocess.run(
            [
                str(cli),
                "tournament",
                "create",
                "--server",
                address,
                "--admin-key",
                ADMIN,
                "--name",
                "bench",
                "--entrants",
                ",".join(names),
                "--move-ms",
                "600000",
            ],
            check=True,
            capture_output=True,
        )
        # The scheduler is done when no seat has come for two seconds.
        deadline = time.perf_counter() + 60
        while received == 0 or time.perf_counter() - last[0] < 2.0:
            assert time.perf_counter() < deadline, "the scheduler did not settle"
            time.sleep(0.1)
        done.set()
        for t in threads:
            t.join()
        for c in calls:
            c.close()
        assert received % 3 == 0, received
        return (received / 3) / (last[0] - started)
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def seek_latencies(cli: Path, tmp: Path, n: int) -> list[float]:
    db = tmp / "seek.db"
    # A fresh pair per seek: a player may hold only a few unfinished matchmaking tables.
    keys = register(cli, db, [f"seeker-{i:03}" for i in range(2 * n)])
    proc, address = start(cli, db)
    try:
        clients = [cb.connect(address, key=k) for k in keys.values()]
        out = []
        for i in range(n):
            a, b = clients[2 * i], clients[2 * i + 1]
            first: dict[str, Any] = {}
            t = threading.Thread(target=lambda d=first, c=a: d.update(c.seek("tressette-in-due")))
            t.start()
            time.sleep(0.05)  # the first seeker is queued
            began = time.perf_counter()
            seated = b.seek("tressette-in-due")
            out.append(time.perf_counter() - began)
            t.join()
            assert first["table_id"] == seated["table_id"]
        return out
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--cli", type=Path, default=ROOT / "target" / "release" / "calabresella")
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        rates = [scheduling_run(args.cli, tmp, i) for i in range(5)]
        seeks = sorted(seek_latencies(args.cli, tmp, 50))
    report = {
        "matches_scheduled_per_s": {
            "median": round(statistics.median(rates), 1),
            "runs": [round(r, 1) for r in rates],
        },
        "seek_to_seat_ms": {
            "median": round(statistics.median(seeks) * 1000, 2),
            "p90": round(seeks[int(len(seeks) * 0.9)] * 1000, 2),
        },
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
