"""Remote play over TLS: ``connect("https://...", ca_cert=...)`` against a TLS-only server with
a throwaway CA (``calabresella dev-certs``); a wrong CA, plain text and a bad CA file refused."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

import calabresella as cb


@pytest.fixture(scope="module")
def tls_server(cli: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """A TLS-only server; yields its port and the directory of its certificates."""
    certs = tmp_path_factory.mktemp("certs")
    subprocess.run(
        [str(cli), "dev-certs", "--out", str(certs)], check=True, stdout=subprocess.DEVNULL
    )
    proc = subprocess.Popen(
        [
            str(cli),
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--db",
            ":memory:",
            "--tls-cert",
            str(certs / "server.pem"),
            "--tls-key",
            str(certs / "server.key"),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert proc.stdout is not None
    port = None
    for line in proc.stdout:
        m = re.search(r"listening on 127\.0\.0\.1:(\d+) \(TLS\)", line)
        if m:
            port = m.group(1)
            break
    if port is None:
        proc.kill()
        raise RuntimeError("the TLS server did not start")
    try:
        yield port, certs
    finally:
        proc.kill()
        proc.wait(timeout=10)


def test_a_match_is_played_over_tls(tls_server: tuple[str, Path]) -> None:
    port, certs = tls_server
    for host in ("localhost", "127.0.0.1"):
        client = cb.connect(f"https://{host}:{port}", ca_cert=str(certs / "ca.pem"))
        table = client.create_table(
            "tressette-in-due", seats=["open", "heuristic"], seed=5, target=11
        )
        result = cb.play(cb.FirstLegalBot(), client, table["table_id"], seat=0, name="tls")
        assert result["reason"] == "completed"
        assert result["decisions"] > 0


def test_a_wrong_ca_plain_text_and_bad_ca_files_are_refused(
    tls_server: tuple[str, Path], tmp_path: Path, cli: Path
) -> None:
    port, certs = tls_server
    subprocess.run(
        [str(cli), "dev-certs", "--out", str(tmp_path / "other")],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    with pytest.raises(cb.ConnectionLostError, match="invalid peer certificate"):
        cb.connect(f"https://localhost:{port}", ca_cert=str(tmp_path / "other" / "ca.pem"))
    # The system's roots do not know the throwaway CA either.
    with pytest.raises(cb.ConnectionLostError, match="invalid peer certificate"):
        cb.connect(f"https://localhost:{port}")
    # A plain-text client learns that the server speaks TLS only.
    with pytest.raises(cb.CalabresellaError, match="TLS only"):
        cb.connect(f"127.0.0.1:{port}").list_tables()
    with pytest.raises(cb.NotationError, match="not an https:// address"):
        cb.connect(f"http://127.0.0.1:{port}", ca_cert=str(certs / "ca.pem"))
    with pytest.raises(cb.NotationError, match=r"missing\.pem"):
        cb.connect(f"https://localhost:{port}", ca_cert=str(tmp_path / "missing.pem"))


def test_a_server_that_requires_client_certificates_serves_clients_that_present_one(
    cli: Path, tmp_path: Path
) -> None:
    certs = tmp_path / "certs"
    subprocess.run(
        [str(cli), "dev-certs", "--out", str(certs)], check=True, stdout=subprocess.DEVNULL
    )
    proc = subprocess.Popen(
        [
            str(cli),
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--db",
            ":memory:",
            "--tls-cert",
            str(certs / "server.pem"),
            "--tls-key",
            str(certs / "server.key"),
            "--tls-client-ca",
            str(certs / "ca.pem"),
            "--tls-require-client-cert",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert proc.stdout is not None
        port = None
        for line in proc.stdout:
            m = re.search(r"listening on 127\.0\.0\.1:(\d+) \(TLS\)", line)
            if m:
                port = m.group(1)
                break
        assert port is not None
        url = f"https://localhost:{port}"
        ca = certs / "ca.pem"
        with pytest.raises(cb.CalabresellaError):
            cb.connect(url, ca_cert=ca).list_tables()
        client = cb.connect(
            url, ca_cert=ca, client_cert=certs / "client.pem", client_key=certs / "client.key"
        )
        assert client.list_tables() == []
        with pytest.raises(cb.NotationError, match="give both"):
            cb.connect(url, ca_cert=ca, client_cert=certs / "client.pem")
    finally:
        proc.kill()
        proc.wait(timeout=10)
