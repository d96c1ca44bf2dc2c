"""Remote play over TLS: ``connect("https://...", ca_cert=...)`` against a TLS-only server with
a throwaway CA (``calabresella dev-certs``); a wrong CA, plain text and a bad CA file refused."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import start_server, stop_server

import calabresella as cb


def tls_args(certs: Path, *extra: str) -> list[str]:
    """The flags of a TLS-only server with the certificates in ``certs``."""
    return [
        "--db",
        ":memory:",
        "--tls-cert",
        str(certs / "server.pem"),
        "--tls-key",
        str(certs / "server.key"),
        *extra,
    ]


def dev_certs(cli: Path, out: Path) -> Path:
    """A throwaway CA and certificates in ``out``."""
    subprocess.run(
        [str(cli), "dev-certs", "--out", str(out)], check=True, stdout=subprocess.DEVNULL
    )
    return out


@pytest.fixture(scope="module")
def tls_server(cli: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """A TLS-only server; yields its port and the directory of its certificates."""
    certs = dev_certs(cli, tmp_path_factory.mktemp("certs"))
    proc, address = start_server(cli, *tls_args(certs))
    try:
        yield address.rsplit(":", 1)[1], certs
    finally:
        stop_server(proc)


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
    dev_certs(cli, tmp_path / "other")
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
    certs = dev_certs(cli, tmp_path / "certs")
    proc, address = start_server(
        cli,
        *tls_args(certs, "--tls-client-ca", str(certs / "ca.pem"), "--tls-require-client-cert"),
    )
    try:
        port = address.rsplit(":", 1)[1]
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
        stop_server(proc)
