"""Submitted bots from Python: ``calabresella.stdio.serve`` runs the same ``Bot`` over the
server's protocol, and an organiser collects three bot files from three people (a plain Python
program, one built on this package, a compiled program), runs a Swiss tournament of them on
the server, which runs each in its sandbox, and publishes the standings.

The sandbox needs bubblewrap and root; the test command has both
(``CALABRESELLA_REQUIRE_SANDBOX=1``). Elsewhere the server-side tests are skipped, saying why."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT, start_server, stop_server

import calabresella as cb
from calabresella.bots import FirstLegalBot
from calabresella.stdio import PROTOCOL, ProtocolError, serve

ADMIN = "an-admin-key-for-the-organiser"


def _observe(obs: cb.Observation, decision: int) -> str:
    return json.dumps(
        {
            "type": "observe",
            "update": {},
            "turn": {
                "decision": str(decision),
                "legal_actions": obs.legal_action_strings,
                "remaining_ms": 1000,
            },
            "observation": json.loads(obs.to_json()),
        }
    )


def test_serve_answers_every_turn_with_the_bots_action_and_returns_the_result() -> None:
    state = cb.new_hand("tressette-in-due", seed=3)
    lines = [json.dumps({"type": "start", "protocol": PROTOCOL, "seat": 0})]
    expected = []
    for decision in range(6):
        obs = state.observation()
        lines.append(_observe(obs, decision))
        expected.append(obs.legal_action_strings[0])
        state.apply_action(obs.legal_actions[0])
    lines.append(json.dumps({"type": "end", "result": {"reason": "END_REASON_COMPLETED"}}))
    out = io.StringIO()
    result = serve(FirstLegalBot(), stdin=io.StringIO("\n".join(lines) + "\n"), stdout=out)
    assert result == {"reason": "END_REASON_COMPLETED"}
    assert out.getvalue().splitlines() == expected
    # A function works as a bot, as everywhere in the package.
    out = io.StringIO()
    serve(lambda o: o.legal_actions[-1], stdin=io.StringIO("\n".join(lines[:2]) + "\n"), stdout=out)
    assert (
        out.getvalue().strip()
        == cb.Observation.from_json(
            json.dumps(json.loads(lines[1])["observation"])
        ).legal_action_strings[-1]
    )
    with pytest.raises(ProtocolError):
        serve(FirstLegalBot(), stdin=io.StringIO('{"type": "start", "protocol": "x/9"}\n'))
    with pytest.raises(cb.NotationError):
        cb.Observation.from_json('{"hand": "not a list"}')


def _sandbox_or_skip() -> None:
    """Skips where the sandbox cannot run; fails where the test command requires it."""
    ok = os.geteuid() == 0 and any(
        (Path(p) / "bwrap").exists() for p in os.environ.get("PATH", "").split(":")
    )
    if not ok:
        assert not os.environ.get("CALABRESELLA_REQUIRE_SANDBOX"), "the sandbox is required here"
        pytest.skip("the sandbox needs bubblewrap and root")


def _compiled_example(cli: Path, into: Path) -> Path:
    """The Rust example bot `cargo test` builds beside the server binary, stripped of its
    debugging information as a person would submit it (`strip`, from binutils)."""
    found = cli.parent / "examples" / "stdio_bot"
    if not found.exists():
        subprocess.run(
            ["cargo", "build", "-p", "calabresella-server", "--example", "stdio_bot"],
            cwd=ROOT,
            check=True,
        )
        found = ROOT / "target" / "debug" / "examples" / "stdio_bot"
    stripped = into / "stdio_bot"
    subprocess.run(["strip", "-o", str(stripped), str(found)], check=True)
    return stripped


def _run(cli: Path, *args: str) -> str:
    out = subprocess.run([str(cli), *args], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_an_organiser_runs_a_swiss_tournament_of_three_submitted_bots(
    cli: Path, tmp_path: Path
) -> None:
    _sandbox_or_skip()
    db = tmp_path / "cup.db"
    admin = tmp_path / "admin.key"
    admin.write_text(ADMIN)
    people = {
        name: _run(cli, "players", "add", name, "--db", str(db)).strip()
        for name in ("rossi", "bianchi", "verdi")
    }
    proc, address = start_server(
        cli,
        "--db",
        str(db),
        "--admin-key-file",
        str(admin),
        "--bot-python",
        sys.executable,
    )
    server = ["--server", f"http://{address}"]
    try:
        # Three files from three people, each submitted with its author's key.
        files = {
            "rossi": ("first-legal", ROOT / "examples/bots/python/first_legal.py"),
            "bianchi": ("seeded-random", ROOT / "examples/bots/python/stdio_random.py"),
            "verdi": ("last-legal", _compiled_example(cli, tmp_path)),
        }
        for person, (bot, path) in files.items():
            said = _run(
                cli, "submit", *server, "--key", str(people[person]), "--name", bot, str(path)
            )
            assert said.startswith(f"submitted:{bot}@1"), said
        # The Python client sees the same versions; a person may submit a new one.
        client = cb.connect(address, key=str(people["bianchi"]))
        listed = {v["name"]: v for v in client.list_bots()}
        assert set(listed) == {"first-legal", "seeded-random", "last-legal"}
        assert listed["last-legal"]["runtime"] == "executable"
        assert listed["seeded-random"]["owner"] == "bianchi"
        # The organiser's Swiss tournament of the three, each seat run by the server.
        tid = _run(
            cli,
            "tournament",
            "create",
            *server,
            "--admin-key-file",
            str(admin),
            "--name",
            "Sandbox cup",
            "--game",
            "calabresella",
            "--option",
            "target=1",
            "--format",
            "swiss",
            "--deals",
            "2",
            "--entrants",
            "submitted:first-legal,submitted:seeded-random,submitted:last-legal",
            "--move-ms",
            "2000",
        ).strip()
        deadline = time.monotonic() + 180
        while True:
            status = json.loads(_run(cli, "tournament", "status", *server, tid, "--json"))
            if status["state"] == "finished":
                break
            assert time.monotonic() < deadline, status
            time.sleep(0.5)
        out = tmp_path / "published"
        _run(cli, "tournament", "export", *server, tid, "--out", str(out))
        standings = json.loads((out / "standings.json").read_text())
        rows = standings["standings"]
        assert {r["entrant"] for r in rows} == {
            "submitted:first-legal@1",
            "submitted:seeded-random@1",
            "submitted:last-legal@1",
        }, rows
        assert all(r["matches"] > 0 for r in rows), rows
        assert (out / "standings.csv").read_text().startswith("entrant,")
        # Every record says which version sat where, and no bot was stopped for a fault.
        records = sorted((out / "records").glob("*.json"))
        assert records
        for path in records:
            record: dict[str, Any] = json.loads(path.read_text())
            bots = [p.get("bot", "") for p in record["meta"]["players"]]
            assert all(b.startswith("submitted:") and "@1" in b for b in bots), bots
            assert "faults" not in record["meta"], record["meta"]
        # Each author reads its own bot's log of a match, and nobody else's.
        table = json.loads(records[0].read_text())["meta"]["table_id"]
        seat_of = {
            p["bot"].split(":")[1].split("@")[0]: i
            for i, p in enumerate(json.loads(records[0].read_text())["meta"]["players"])
        }
        for person, (bot, _) in files.items():
            if bot not in seat_of:
                continue
            mine = cb.connect(address, key=str(people[person]))
            log = mine.bot_log(table, seat_of[bot])
            assert log["fault"] == "" and log["bot"] == f"submitted:{bot}@1", log
            other = next(p for p in people if p != person)
            with pytest.raises(cb.ServerError) as info:
                cb.connect(address, key=str(people[other])).bot_log(table, seat_of[bot])
            assert info.value.reason == "NOT_YOUR_BOT"
    finally:
        stop_server(proc)
