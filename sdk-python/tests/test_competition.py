"""Competitions through the real server: a tournament of six entrants (Python bots that play
well, raise, or are too slow for the clock, and built-in bots) survives ``kill -9``; its
standings equal a recomputation from the exported records; impersonation is refused; no key
reaches the log. Matchmaking pairs seekers and fills seats with bots."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import threading
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

import calabresella as cb

ENTRANTS = ["steady", "second", "raiser", "sloth"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve(cli: Path, db: Path, admin: Path, port: int, log: Path) -> subprocess.Popen[str]:
    """The server on a fixed port (a restart comes back at the same address), its log
    appended to ``log``."""
    with log.open("a") as err:
        proc = subprocess.Popen(
            [
                str(cli),
                "serve",
                "--listen",
                f"127.0.0.1:{port}",
                "--db",
                str(db),
                "--admin-key-file",
                str(admin),
                "--log",
                "info",
            ],
            stdout=subprocess.PIPE,
            stderr=err,
            text=True,
        )
    assert proc.stdout is not None
    for line in proc.stdout:
        if re.search(r"listening on", line):
            return proc
    proc.kill()
    raise RuntimeError("the server did not start")


def tournament(cli: Path, address: str, tid: str) -> dict[str, Any]:
    out = subprocess.run(
        [str(cli), "tournament", "status", "--server", address, tid, "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    return dict(json.loads(out.stdout))


def first_legal(o: cb.Observation) -> str:
    return o.legal_action_strings[0]


class Raiser:
    """Plays its first decisions of each table, then raises: the clock plays its seat on."""

    def __init__(self) -> None:
        self.calls: dict[int, int] = defaultdict(int)
        self.lock = threading.Lock()

    def __call__(self, o: cb.Observation) -> str:
        key = threading.get_ident()
        with self.lock:
            self.calls[key] += 1
            n = self.calls[key]
        if n % 4 == 0:
            raise RuntimeError("the raiser raises")
        return o.legal_action_strings[-1]


def sloth(o: cb.Observation) -> str:
    time.sleep(0.35)
    return o.legal_action_strings[0]


def test_a_tournament_of_remote_bots_survives_kill_9(cli: Path, tmp_path: Path) -> None:
    db, admin, log = tmp_path / "t.db", tmp_path / "admin.key", tmp_path / "server.log"
    admin_key = "adm-" + "7f" * 20
    admin.write_text(admin_key + "\n")
    keys = {}
    for name in ENTRANTS:
        added = subprocess.run(
            [str(cli), "players", "add", name, "--db", str(db)],
            capture_output=True,
            text=True,
            check=True,
        )
        keys[name] = added.stdout.strip()
    port = free_port()
    address = f"127.0.0.1:{port}"
    proc = serve(cli, db, admin, port, log)
    stop = threading.Event()
    threads: list[threading.Thread] = []
    played: dict[str, list[dict[str, Any]]] = {}
    try:
        # Impersonation: no key, a wrong key; an organiser call without the admin key.
        with pytest.raises(cb.ServerError) as info:
            cb.connect(address).compete()
        assert info.value.reason == "KEY_REQUIRED"
        with pytest.raises(cb.ServerError) as info:
            cb.compete(first_legal, address, "cbk_" + "0" * 64, stop=stop)
        assert info.value.reason == "BAD_KEY"
        create = [
            str(cli),
            "tournament",
            "create",
            "--server",
            address,
            "--name",
            "Kill cup",
            "--option",
            "target=1",
            "--entrants",
            ",".join([*ENTRANTS, "heuristic", "random"]),
            "--move-ms",
            "150",
        ]
        refused = subprocess.run(
            [*create, "--admin-key", "not-the-admin-key"], capture_output=True, text=True
        )
        assert refused.returncode == 1 and "BAD_ADMIN_KEY" in refused.stderr
        # A look-alike of a registered name is neither an entrant nor a guest's name.
        lookalike = subprocess.run(
            [*create[:-3], "st\u0435ady,second,heuristic", "--admin-key", admin_key],
            capture_output=True,
            text=True,
        )
        assert lookalike.returncode == 1 and "BAD_TOURNAMENT" in lookalike.stderr
        tid = subprocess.run(
            [*create, "--admin-key", admin_key], capture_output=True, text=True, check=True
        ).stdout.strip()

        # Absent entrants get their tables too (the clock plays for them). A call that takes
        # its table and drops counts as a disconnect.
        deadline = time.monotonic() + 30
        while not (first := tournament(cli, address, tid)["match_list"][0])["table_id"]:
            assert time.monotonic() < deadline, "the first match was not scheduled"
            time.sleep(0.05)
        call = cb.connect(address, key=keys["second"]).compete()
        got_first = call.next(timeout=10)
        assert got_first is not None and got_first["table_id"] == first["table_id"]
        assert got_first["tournament_id"] == tid and got_first["seat"] == 1
        call.close()

        bots: dict[str, Any] = {
            "steady": first_legal,
            "second": lambda o: o.legal_action_strings[len(o.legal_action_strings) // 2],
            "raiser": Raiser(),
            "sloth": sloth,
        }

        def run(name: str) -> None:
            played[name] = cb.compete(
                bots[name], address, keys[name], max_tables=2, stop=stop, retry_s=0.2
            )

        for name in ENTRANTS:
            t = threading.Thread(target=run, args=(name,), daemon=True)
            t.start()
            threads.append(t)

        deadline = time.monotonic() + 120
        while tournament(cli, address, tid)["finished"] < 4:
            assert time.monotonic() < deadline, "no match finished"
            time.sleep(0.2)
        # kill -9 in the middle: tables in play, entrants connected.
        proc.kill()
        proc.wait()
        mid = time.monotonic()
        time.sleep(0.5)
        proc = serve(cli, db, admin, port, log)
        while (state := tournament(cli, address, tid))["state"] != "finished":
            assert time.monotonic() < mid + 240, f"unfinished after the restart: {state}"
            time.sleep(0.3)
        assert state["matches"] == state["finished"] == 20
        stop.set()
        for t in threads:
            t.join(timeout=60)
        # Every entrant's compete() rode out the kill and returned.
        assert set(played) == set(ENTRANTS)

        out = tmp_path / "export"
        subprocess.run(
            [str(cli), "tournament", "export", "--server", address, tid, "--out", str(out)],
            check=True,
            capture_output=True,
        )
    finally:
        stop.set()
        proc.terminate()
        proc.wait(timeout=10)

    exported = json.loads((out / "standings.json").read_text())
    seats = {m["number"]: m["seats"] for m in exported["match_list"]}
    want: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    records = sorted((out / "records").glob("*.json"))
    assert len(records) == 20
    for path in records:
        number = int(path.name.split("-")[0])
        record = json.loads(path.read_text())
        replay = json.loads(
            subprocess.run(
                [str(cli), "replay", str(path)], capture_output=True, text=True, check=True
            ).stdout
        )
        for seat, who in enumerate(seats[number]):
            w = want[who]
            w["matches"] += 1
            w["wins"] += seat in replay["match"]["winning_seats"]
            for hand in replay["hands"]:
                if hand.get("complete"):
                    w["hands"] += 1
                    w["points"] += hand["award"][seat]
            for hand in record["hands"]:
                for a in hand["actions"]:
                    if isinstance(a, dict) and a["seat"] == seat and a.get("timeout"):
                        w["timeouts"] += 1
    got = {s["entrant"]: s for s in exported["standings"]}
    assert set(got) == {*ENTRANTS, "heuristic", "random"}
    for who, s in got.items():
        w = want[who]
        assert s["matches"] == w["matches"] == 10, who
        for field in ("hands", "points", "wins", "timeouts"):
            assert s[field] == w[field], (who, field, s, dict(w))
        assert s["points_per_hand"] == pytest.approx(w["points"] / w["hands"])
    # The slow bot lost decisions to the clock; the raiser's seats went on without it.
    assert got["sloth"]["timeouts"] > 0 and got["raiser"]["timeouts"] > 0
    assert got["steady"]["timeouts"] == 0
    assert any("error" in r for r in played.get("raiser", []))
    assert got["second"]["disconnects"] >= 1
    # CSV standings carry the same lines.
    csv = (out / "standings.csv").read_text().splitlines()
    assert csv[0].startswith("entrant,bot,matches,hands,points")
    assert len(csv) == 7
    # No key in any log line.
    text = log.read_text()
    assert "tournament created" in text and "match scheduled" in text
    for secret in [admin_key, *keys.values()]:
        assert secret not in text


def test_seekers_are_paired_and_bots_fill_for_a_seeker_who_waits(cli: Path, tmp_path: Path) -> None:
    db = tmp_path / "seek.db"
    keys = [
        subprocess.run(
            [str(cli), "players", "add", name, "--db", str(db)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        for name in ("ann", "ben", "cat")
    ]
    port = free_port()
    admin = tmp_path / "admin.key"
    admin.write_text("x" * 32)
    proc = serve(cli, db, admin, port, tmp_path / "seek.log")
    address = f"127.0.0.1:{port}"
    try:
        seated: dict[str, dict[str, Any]] = {}

        def seek(i: int) -> None:
            client = cb.connect(address, key=keys[i])
            seated[f"p{i}"] = client.seek("tressette-in-due", target=1)

        pair = [threading.Thread(target=seek, args=(i,)) for i in (0, 1)]
        for t in pair:
            t.start()
        for t in pair:
            t.join(timeout=30)
        a, b = seated["p0"], seated["p1"]
        assert a["table_id"] == b["table_id"] and {a["seat"], b["seat"]} == {0, 1}
        table = cb.connect(address).get_table(a["table_id"])
        assert sorted(s[2] for s in table["seats"]) == ["ann", "ben"]
        # Each seeker contributed 32 fresh random bytes (shown once the match started).
        shown = table["entropy"]
        assert [len(bytes.fromhex(e)) for e in shown] == [32, 32] and shown[0] != shown[1]
        # A seek of other settings waits; with bots_after_ms, bots fill its table.
        started = time.monotonic()
        alone = cb.connect(address, key=keys[2]).seek("calabresella", bots_after_ms=300)
        assert time.monotonic() - started >= 0.3
        table = cb.connect(address).get_table(alone["table_id"])
        kinds = sorted(s[1] for s in table["seats"])
        assert kinds == ["bot_heuristic", "bot_heuristic", "open"]
        # The seeker's seat contributed; the bots contribute nothing.
        lengths = sorted(len(e) // 2 for e in table["entropy"])
        assert lengths == [0, 0, 32]
        # A guest cannot seek.
        with pytest.raises(cb.ServerError) as info:
            cb.connect(address).seek("calabresella")
        assert info.value.reason == "KEY_REQUIRED"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_compete_raises_when_the_server_is_never_reached() -> None:
    started = time.monotonic()
    with pytest.raises(cb.ConnectionLostError):
        cb.compete(first_legal, f"127.0.0.1:{free_port()}", "cbk_" + "0" * 64, timeout=1.0)
    assert time.monotonic() - started < 10


def test_compete_plays_matchmaking_matches_one_after_another(cli: Path, tmp_path: Path) -> None:
    db = tmp_path / "mm.db"
    key = subprocess.run(
        [str(cli), "players", "add", "dana", "--db", str(db)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    admin = tmp_path / "admin.key"
    admin.write_text("y" * 32)
    port = free_port()
    proc = serve(cli, db, admin, port, tmp_path / "mm.log")
    done = threading.Event()
    ended: list[dict[str, Any]] = []

    def seen(summary: dict[str, Any]) -> None:
        ended.append(summary)
        if len(ended) >= 2:
            done.set()

    try:
        played = cb.compete(
            first_legal,
            f"127.0.0.1:{port}",
            key,
            seek={"game": "tressette-in-due", "bots_after_ms": 1, "target": 1},
            stop=done,
            on_match=seen,
        )
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    assert len(played) >= 2
    assert all("error" not in p and p["reason"] == "completed" for p in played[:2])
    assert len({p["table_id"] for p in played}) == len(played)
