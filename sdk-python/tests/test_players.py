"""Registered players from Python: a client with an API key sits under the registered name, a
guest cannot take it, and a bad key is refused with its reason."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from conftest import start_server, stop_server

import calabresella as cb


def test_a_key_seats_the_registered_player(cli: Path, tmp_path: Path) -> None:
    db = tmp_path / "players.db"
    added = subprocess.run(
        [str(cli), "players", "add", "Ada", "--db", str(db)],
        capture_output=True,
        text=True,
        check=True,
    )
    key = added.stdout.strip()
    assert key.startswith("cbk_") and key not in added.stderr
    proc, address = start_server(cli, "--db", str(db))
    try:
        client = cb.connect(address, key=key)
        table = client.create_table("tressette-in-due", seats=["open", "heuristic"], target=1)
        result = cb.play(lambda o: o.legal_action_strings[0], client, table["table_id"])
        assert result["reason"] == "completed"
        assert client.get_table(table["table_id"])["seats"][0][2] == "Ada"
        # A guest may not take the name, nor a look-alike.
        guest = cb.connect(address)
        other = guest.create_table("tressette-in-due", seats=["open", "heuristic"], target=1)
        for name in ("Ada", "ADA", "\u0410da"):
            with pytest.raises(cb.ServerError) as info:
                guest.join(other["table_id"], name=name)
            assert info.value.reason == "BAD_NAME"
        # A wrong key says so, and the seat stays open.
        wrong = cb.connect(address, key="cbk_" + "1" * 64)
        with pytest.raises(cb.ServerError) as info:
            wrong.join(other["table_id"])
        assert (info.value.code, info.value.reason) == ("UNAUTHENTICATED", "BAD_KEY")
        assert guest.get_table(other["table_id"])["seats"][0][2] == ""
        # A key given to play() with a Client would be dropped: refused instead.
        with pytest.raises(ValueError, match="connect"):
            cb.play(lambda o: o.legal_action_strings[0], guest, other["table_id"], key=key)
    finally:
        stop_server(proc)
