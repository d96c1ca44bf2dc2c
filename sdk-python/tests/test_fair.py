"""Committed deals from Python: tables show their commitment, finished records verify, and
tampering or a wrong seed raises DealMismatchError naming the hand."""

from __future__ import annotations

import hashlib
import json
import time
from pathlib import Path

import pytest
from conftest import start_server, stop_server

import calabresella as cb


def _finished_record(client: cb.Client, table_id: str) -> str:
    deadline = time.monotonic() + 60
    while client.get_table(table_id)["state"] != "finished":
        assert time.monotonic() < deadline, "the bots' match ends"
        time.sleep(0.05)
    return client.get_record(table_id)


def test_a_committed_table_shows_its_commitment_and_its_record_verifies(server: str) -> None:
    client = cb.connect(server)
    table = client.create_table("calabresella", seats=["random", "heuristic", "random"], target=5)
    assert table["deal_scheme"] == "calabresella-deal/1" and not table["seeded"]
    assert len(table["commitment"]) == 64
    assert client.get_table(table["table_id"])["commitment"] == table["commitment"]
    text = _finished_record(client, table["table_id"])
    found = cb.verify_record(text)
    assert isinstance(found, cb.DealVerification)
    assert found.scheme == "calabresella-deal/1" and not found.seeded
    assert found.commitment == table["commitment"] and found.hands >= 1
    assert found.summary.startswith("deals verified")
    # The revealed secret is the committed one.
    record = json.loads(text)
    secret = bytes.fromhex(record["meta"]["deals"]["secret"])
    assert hashlib.sha256(b"calabresella-deal/1" + secret).hexdigest() == table["commitment"]
    # A dict works as well as text.
    assert cb.verify_record(record).hands == found.hands

    # Another secret does not match the commitment.
    bad = json.loads(text)
    bad["meta"]["deals"]["secret"] = "00" * 32
    with pytest.raises(cb.DealMismatchError, match="does not match the commitment"):
        cb.verify_record(bad)
    # A forged secret with its own commitment deals other cards: named at hand 0.
    forged = json.loads(text)
    forged["meta"]["deals"]["secret"] = "11" * 32
    forged["meta"]["deals"]["commitment"] = hashlib.sha256(
        b"calabresella-deal/1" + b"\x11" * 32
    ).hexdigest()
    forged["meta"]["deals"]["first_dealer"] = "given"
    with pytest.raises(cb.DealMismatchError, match="hand 0"):
        cb.verify_record(forged)
    with pytest.raises(cb.InvalidRecordError):
        cb.verify_record("{not json")


def test_a_seeded_record_verifies_as_seeded_and_a_wrong_seed_is_caught() -> None:
    state = cb.new_match("tressette", seed=11, target=11)
    while not state.is_terminal():
        state.apply_action(state.observation().legal_actions[0])
    ok = cb.verify_record(state.to_record(meta={"deals": {"scheme": "seeded", "seed": "11"}}))
    assert ok.seeded and ok.seed == 11 and ok.commitment is None
    assert ok.summary.startswith("seeded by the creator: reproducible, not committed")
    with pytest.raises(cb.DealMismatchError, match="hand 0"):
        cb.verify_record(state.to_record(meta={"seed": 12}))
    with pytest.raises(cb.DealMismatchError, match="no deal scheme"):
        cb.verify_record(state.to_record())


def test_a_seeded_table_is_marked_seeded(server: str) -> None:
    client = cb.connect(server)
    table = client.create_table(
        "calabresella", seats=["random", "random", "random"], seed=5, target=5
    )
    assert table["seeded"] and table["deal_scheme"] == "seeded" and table["commitment"] == ""
    assert cb.verify_record(_finished_record(client, table["table_id"])).seed == 5


def test_a_joiner_contributes_32_random_bytes_by_default_or_its_own(server: str) -> None:
    client = cb.connect(server)
    seats = ["open", "open", "random"]
    table = client.create_table("calabresella", seats=seats, target=1)
    mine = b"\x01" * 64
    first = client.join(table["table_id"], seat=0, name="a")
    client.join(table["table_id"], seat=1, name="b", entropy=mine)
    shown = client.get_table(table["table_id"])["entropy"]
    assert len(bytes.fromhex(shown[0])) == 32 and shown[1] == mine.hex() and shown[2] == ""
    assert first.seat == 0

    # Two default joins contribute different bytes; b"" contributes none.
    other = client.create_table("calabresella", seats=seats, target=1)
    client.join(other["table_id"], seat=0, name="a")
    client.join(other["table_id"], seat=1, name="b", entropy=b"")
    again = client.get_table(other["table_id"])["entropy"]
    assert len(again[0]) == 64 and again[0] != shown[0] and again[1] == ""

    # More than 64 bytes is refused before any call: the seat stays open.
    third = client.create_table("calabresella", seats=seats, target=1)
    with pytest.raises(ValueError, match="at most 64"):
        client.join(third["table_id"], seat=0, name="a", entropy=b"\x02" * 65)
    assert client.get_table(third["table_id"])["seats"][0][2] == ""


def test_behind_a_proxy_a_seeded_table_seats_only_the_holder_of_its_creator_key(
    cli: Path,
) -> None:
    proc, address = start_server(cli, "--db", ":memory:", "--behind-proxy")
    try:
        client = cb.connect(address)
        table = client.create_table(
            "calabresella", seats=["open", "random", "random"], seed=5, target=1
        )
        assert table["seeded"] and len(table["creator_key"]) == 32
        with pytest.raises(cb.ServerError, match="SEEDED_TABLE"):
            client.join(table["table_id"], name="ann")
        seat = client.join(table["table_id"], name="ann", creator_key=table["creator_key"])
        assert seat.seat == 0
        # A committed table has no creator key: anyone may sit.
        fair = client.create_table("calabresella", seats=["open", "random", "random"])
        assert "creator_key" not in fair
    finally:
        stop_server(proc)
