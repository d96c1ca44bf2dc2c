"""Remote play against a real server started by the tests."""

from __future__ import annotations

import asyncio
import contextlib
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
    # The finished match is kept: listed with filters, and counted in the results table.
    mine = client.list_records(player="pybot", game="calabresella")
    assert [m["table_id"] for m in mine] == [table["table_id"]]
    assert mine[0]["players"][0] == "pybot" and mine[0]["reason"] == "completed"
    assert mine[0]["totals"] == result["totals"]
    assert client.list_records(player="pybot", game="tressette") == []
    people = client.results(people_only=True)
    pybot = next(p for p in people if p["player"] == "pybot")
    assert pybot["matches"] == 1 and not pybot["bot"]
    assert abs(pybot["rating"] - (pybot["mu"] - 3 * pybot["sigma"])) < 1e-9
    with pytest.raises(ValueError):
        client.list_records(reason="resigned")


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


class _Proxy:
    """A TCP proxy on loopback whose connections the test can cut, to drop a client's stream."""

    def __init__(self, target: str) -> None:
        import socket
        import threading

        host, port = target.rsplit(":", 1)
        self.target = (host, int(port))
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.address = f"127.0.0.1:{self.listener.getsockname()[1]}"
        self.conns: list[socket.socket] = []
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        import socket
        import threading

        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(self.target)
            for s in (client, upstream):
                # Without it, delayed ACKs put 40 ms on every message through the proxy.
                s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            with self.lock:
                self.conns += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(src: object, dst: object) -> None:
        import socket

        assert isinstance(src, socket.socket) and isinstance(dst, socket.socket)
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        for s in (src, dst):
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)

    def cut(self) -> None:
        """Breaks every open connection (new ones are still accepted)."""
        import socket

        with self.lock:
            conns, self.conns = self.conns, []
        for c in conns:
            with contextlib.suppress(OSError):
                c.shutdown(socket.SHUT_RDWR)
            c.close()


def test_a_dropped_connection_is_resumed_and_the_match_finishes(server: str) -> None:
    proxy = _Proxy(server)
    direct = cb.connect(server)
    table = direct.create_table("tressette-in-due", seats=["open", "random"], target=5)
    client = cb.connect(proxy.address)
    decisions = [0]

    def bot(obs: cb.Observation) -> int:
        decisions[0] += 1
        if decisions[0] in (3, 8):
            proxy.cut()  # the stream and the channel break under the bot's feet
        return obs.legal_actions[0]

    started = time.monotonic()
    result = cb.play(bot, client, table["table_id"], seat=0)
    assert result["reason"] == "completed"
    assert result["reconnects"] >= 1
    # Resumed at once, not after the table's 60 s move clock answered for the seat.
    assert time.monotonic() - started < 30
    assert direct.get_table(table["table_id"])["state"] == "finished"


@pytest.mark.parametrize("game", ["briscola-chiamata", "tressette-chiamata"])
def test_a_python_bot_plays_a_calling_game_with_a_secret_partner(server: str, game: str) -> None:
    client = cb.connect(server)
    seats = ["open", "heuristic", "random", "heuristic", "random"]
    table = client.create_table(game, seats=seats, hands=2)
    partners: list[int | None] = []

    def bot(obs: cb.Observation) -> int:
        assert obs.viewer == 0 and obs.num_players == 5
        if obs.called is not None and obs.partner is not None:
            # Set only in the holder's own view, or once the called card is out.
            assert obs.role == "partner" or any(f"plays {obs.called}" in e for e in obs.events)
        partners.append(obs.partner)
        return obs.legal_actions[0]

    result = cb.play(bot, client, table["table_id"], seat=0, name="caller-bot")
    assert result["reason"] == "completed" and result["faults"] == 0
    assert len(result["totals"]) == 5 and sum(result["totals"]) == 0
    state = cb.load_record(client.get_record(table["table_id"]))
    assert [int(x) for x in state.returns()] == result["totals"]
    assert partners, "the bot decided"


def test_a_seat_stream_resumes_where_it_stopped_and_a_token_carries_over(server: str) -> None:
    client = cb.connect(server)
    table = client.create_table("tressette-in-due", seats=["open", "random"], seed=5, target=11)
    seat = client.join(table["table_id"], seat=0, name="streamer")
    seen: list[int] = []
    with seat.updates() as stream:
        for u in stream:
            seen.append(u["seq"])
            turn = u["next_turn"] or (u.get("turn") if u["kind"] in ("turn", "snapshot") else None)
            if turn and turn["decider"] == 0 and turn["legal_actions"]:
                reply = seat.answer(turn["decision"], turn["legal_actions"][0])
                assert not reply["duplicate"]
                assert seat.answer(turn["decision"], turn["legal_actions"][0])["duplicate"]
                break
    assert seen == list(range(seen[0], seen[0] + len(seen)))
    # A handle made from the token (as after a restart of the program) resumes the same seat;
    # `updates()` on the first handle carries on right after the last update it received.
    again = client.seat(table["table_id"], 0, seat.token)
    obs, decision = again.observation()
    assert obs.viewer == 0 and decision >= 1
    resumed = seat.updates()
    first = next(resumed)
    assert first["kind"] != "snapshot" and first["seq"] == seen[-1] + 1
    resumed.close()
    forged = client.seat(table["table_id"], 0, "0" * 32)
    with pytest.raises(cb.ServerError) as info:
        forged.observation()
    assert (info.value.code, info.value.reason) == ("PERMISSION_DENIED", "BAD_TOKEN")


def test_a_spectator_sees_every_hand_revealed_and_no_hidden_card(server: str) -> None:
    client = cb.connect(server)
    table = client.create_table(
        "calabresella", seats=["heuristic", "random", "heuristic"], target=3, bot_delay_ms=5
    )
    kinds: list[str] = []
    revealed: list[int] = []
    for u in client.spectate(table["table_id"]):
        kinds.append(u["kind"])
        if u["kind"] == "snapshot":
            assert u["hand"] == [] and u["visible_hands"] == {} and u["legal_actions"] == []
        if u["kind"] == "hand_revealed":
            revealed.append(u["hand_number"])
            assert sum(len(h) for h in u["hands"]) + len(u["monte"]) == 40
    assert kinds[0] == "snapshot" and kinds[-1] == "match_ended"
    hands = client.get_table(table["table_id"])["hands_completed"]
    assert sorted(revealed) == list(range(hands))


def test_a_python_bot_plays_against_the_servers_search_bot(server: str) -> None:
    client = cb.connect(server)
    table = client.create_table("tressette-in-due", seats=["open", "pimc:worlds=4"], target=3)
    info = client.get_table(table["table_id"])
    # The server caps the bot's thinking time; the seat shows the bot with its budget.
    assert info["seats"][1][2].startswith("pimc:worlds=4:ms=")
    bare = client.create_table("tressette-in-due", seats=["open", "pimc"])
    assert client.get_table(bare["table_id"])["seats"][1][2] == "pimc bot"
    result = cb.play(lambda obs: obs.legal_action_strings[0], client, table["table_id"], seat=0)
    assert result["reason"] == "completed" and result["faults"] == 0
    with pytest.raises(cb.CalabresellaError, match="unknown pimc parameter"):
        client.create_table("tressette-in-due", seats=["open", "pimc:depth=3"])
