"""Shared fixtures: the Rust `calabresella` binary and a real server started for the tests."""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def calabresella_bin() -> Path:
    """The `calabresella` binary (CALABRESELLA_BIN, else target/debug or target/release)."""
    env = os.environ.get("CALABRESELLA_BIN")
    candidates = [Path(env)] if env else []
    candidates += [
        ROOT / "target" / "debug" / "calabresella",
        ROOT / "target" / "release" / "calabresella",
    ]
    for c in candidates:
        if c.is_file():
            return c
    raise RuntimeError(
        "the calabresella binary is not built: run `cargo build -p calabresella-server` "
        "or set CALABRESELLA_BIN"
    )


@pytest.fixture(scope="session")
def cli() -> Path:
    """Path of the Rust command-line tool."""
    return calabresella_bin()


def start_server(cli: Path, *args: str) -> tuple[subprocess.Popen[str], str]:
    """Starts ``calabresella serve`` on a free loopback port with ``args``; returns the process
    and the address it prints (``127.0.0.1:PORT``)."""
    proc = subprocess.Popen(
        [str(cli), "serve", "--listen", "127.0.0.1:0", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert proc.stdout is not None
    for line in proc.stdout:
        m = re.search(r"listening on (\S+)", line)
        if m:
            return proc, m.group(1)
    proc.kill()
    raise RuntimeError("the server did not start")


def stop_server(proc: subprocess.Popen[str]) -> None:
    """Stops a server from :func:`start_server` (SIGTERM, then SIGKILL after 10 s)."""
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()


@pytest.fixture(scope="session")
def server(cli: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A calabresella server on a free loopback port with its own database; yields its
    address."""
    db = tmp_path_factory.mktemp("server") / "calabresella.db"
    # Every test creates its tables from this one address.
    proc, address = start_server(
        cli,
        "--db",
        str(db),
        "--max-creates-per-client-per-minute",
        "0",
        "--max-bot-tables-per-client",
        "0",
    )
    try:
        yield address
    finally:
        stop_server(proc)
