"""Remote play against a real server started by the tests."""

from __future__ import annotations

import asyncio
import time

import pytest

import calabresella as cb


def test_a_python_bot_plays_a_whole_match(server: str) -> None:
    client = cb.connect(server)
    table = client.create_table("calabresella", seats=["open", "random", "heuristic"], target=5)
    seen: list[cb.Observation] = []

    def bot(obs: cb.Observation) -> str:
        assert isinstance(obs, cb.Observation) and obs.viewer == 0
        seen.append(obs)
        return obs.legal_action_strings[0]

    result = cb.play(bot, client, table["table_id"], seat=0, name="pybot")
    assert result["reason"] == "completed" and result["decisions"] == len(seen) > 0
    assert result["faults"] == 0
    info = client.get_table(table["table_id"])
    assert info["state"] == "finished" and info["seats"][0][2] == "pybot"
    record = client.get_record(table["table_id"])
    state = cb.load_record(record)
    assert state.is_terminal() and [int(x) for x in state.returns()] == result["totals"]
    # The in-process replay gives the same observation the server sent at each decision.
    assert seen[0].hand == cb.load_record(record).observation(0).hand or seen[0].hand_number == 0
    assert any(t["table_id"] == table["table_id"] for t in client.list_tables("finished"))


def test_observation_objects_are_the_in_process_ones(server: str) -> None:
    client = cb.connect(server)
    table = client.create_table("tressette-in-due", seats=["open", "random"], seed=42)
    seat = client.join(table["table_id"], seat=0)
    obs, decision = seat.observation()
    assert isinstance(obs, cb.Observation) and obs.game == "tressette-in-due"
    if obs.legal_actions:
        seat.act(decision, obs.legal_actions[0])
        with pytest.raises(cb.ServerError) as info:
            seat.act(decision, obs.legal_actions[-1] if len(obs.legal_actions) > 1 else "play Zz")
        assert info.value.code in ("ABORTED", "INVALID_ARGUMENT")


def test_server_errors_carry_code_and_reason(server: str) -> None:
    client = cb.connect(server)
    with pytest.raises(cb.ServerError) as info:
        client.join("no-such-table")
    assert info.value.code in ("NOT_FOUND", "INVALID_ARGUMENT") and info.value.reason
    with pytest.raises(cb.ConnectionLostError):
        cb.connect("127.0.0.1:1", timeout=1.0).list_tables()


def test_a_crashing_bot_raises_bot_error_and_the_clock_finishes_the_seat(server: str) -> None:
    client = cb.connect(server)
    table = client.create_table(
        "calabresella", seats=["open", "random", "random"], move_ms=300, target=3
    )

    def crash(obs: cb.Observation) -> str:
        raise ValueError("my bug")

    with pytest.raises(cb.BotError) as info:
        cb.play(crash, client, table["table_id"])
    assert isinstance(info.value.__cause__, ValueError)


def test_a_slow_bot_is_overtaken_by_the_clock_and_play_goes_on(server: str) -> None:
    client = cb.connect(server)
    table = client.create_table("tressette-in-due", seats=["open", "random"], move_ms=200, target=3)
    calls = [0]

    def slow(obs: cb.Observation) -> int:
        calls[0] += 1
        if calls[0] == 1:
            time.sleep(0.6)
        return obs.legal_actions[0]

    result = cb.play(slow, client, table["table_id"])
    assert result["reason"] == "completed" and calls[0] >= 2


def test_asyncio_style_plays_two_seats_at_once(server: str) -> None:
    client = cb.connect(server)
    table = client.create_table("tressette-in-due", seats=["open", "open"], target=3)

    async def both() -> list[dict[str, object]]:
        bot = cb.FirstLegalBot()
        return list(
            await asyncio.gather(
                cb.play_async(bot, server, table["table_id"], seat=0),
                cb.play_async(bot, server, table["table_id"], seat=1),
            )
        )

    results = asyncio.run(both())
    assert all(r["reason"] == "completed" for r in results)
    assert results[0]["totals"] == results[1]["totals"]
