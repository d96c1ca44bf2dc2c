"""The Python client's conformance runner: every scenario of scenarios.json through the public
API of the `calabresella` package (see tests/conformance/README.md for the contract)."""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

import calabresella as cb

CLIENT = "python"
PLAYER = f"conformance-{CLIENT}"
SCENARIO_SECONDS = 120


class FailedError(Exception):
    """A scenario's check did not hold."""


def check(ok: bool, why: str) -> None:
    if not ok:
        raise FailedError(why)


def first_legal(obs: cb.Observation) -> str:
    """The bot: the first legal action."""
    return obs.legal_action_strings[0]


def create(client: cb.Client, s: dict[str, Any], seed: int | None = None) -> str:
    table = client.create_table(
        s["game"],
        seats=s["seats"],
        seed=s.get("seed") if seed is None else seed,
        name=s["name"],
        bot_delay_ms=s.get("bot_delay_ms", 0),
        **s["options"],
    )
    return str(table["table_id"])


def summary_check(client: cb.Client, table_id: str, ended: dict[str, Any]) -> None:
    """The match as the client saw it end agrees with the engine's replay of the record."""
    check(ended["reason"] == "completed", f"the match ended {ended['reason']!r}")
    record = client.get_record(table_id)
    replay = subprocess.run(
        [os.environ["CALABRESELLA_BIN"], "replay", "-"],
        input=record,
        capture_output=True,
        text=True,
        check=False,
    )
    check(replay.returncode == 0, f"the record does not replay: {replay.stderr.strip()}")
    engine = json.loads(replay.stdout)
    match = engine["match"]
    check(match["over"], "the replayed record's match is not over")
    check(
        sorted(ended["winners"]) == sorted(match["winning_seats"]),
        f"winners {ended['winners']} but the replay says {match['winning_seats']}",
    )
    check(ended["draw"] == match["draw"], "draw differs from the replay")
    check(
        list(ended["totals"]) == list(match["totals"]),
        f"totals {ended['totals']} but the replay says {match['totals']}",
    )
    check(
        ended["hands"] == len(engine["hands"]),
        f"{ended['hands']} hands but the record has {len(engine['hands'])}",
    )


def expect_error(s: dict[str, Any], call: Callable[[], object]) -> None:
    try:
        call()
    except cb.ServerError as e:
        want = s["expect"]
        got = (getattr(e, "code", None), getattr(e, "reason", None))
        check(got == (want["code"], want["reason"]), f"got {got}, expected {want}: {e}")
        return
    raise FailedError(f"the call succeeded; expected {s['expect']}")


def my_turn(update: dict[str, Any], seat: int) -> dict[str, Any] | None:
    """The turn an update makes due for `seat`, if any."""
    candidates: list[dict[str, Any] | None] = [
        update.get("turn") if update["kind"] in ("turn", "snapshot") else None,
        update.get("next_turn"),
    ]
    for turn in candidates:
        if turn and turn["decider"] == seat and turn["legal_actions"]:
            return turn
    return None


def first_turn(seat: cb.RemoteSeat, want: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """Answers turns with the first legal action until one satisfies `want`; returns it."""
    with seat.updates() as stream:
        for u in stream:
            t = my_turn(u, seat.seat)
            if t is None:
                continue
            if want(t):
                return t
            seat.act(t["decision"], t["legal_actions"][0])
    raise FailedError("the match ended before a suitable turn")


def run_match(client: cb.Client, s: dict[str, Any]) -> None:
    table_id = create(client, s)
    asked = 0

    def bot(obs: cb.Observation) -> str:
        nonlocal asked
        asked += 1
        return first_legal(obs)

    result = client.join(table_id, seat=s["seat"], name=PLAYER).play(bot)
    check(asked > 0, "the bot was never asked")
    summary_check(client, table_id, result)


def run_fair(client: cb.Client, s: dict[str, Any]) -> None:
    """A committed table: its commitment before any deal, the seat's own 32 bytes in the
    deals, and a record that `calabresella verify` accepts."""
    created = client.create_table(s["game"], seats=s["seats"], name=s["name"], **s["options"])
    table_id = str(created["table_id"])
    before = client.get_table(table_id)
    for t in (created, before):
        check(t["deal_scheme"] == "calabresella-deal/1", f"deal scheme {t['deal_scheme']!r}")
        check(not t["seeded"], "a table created without a seed is marked seeded")
        commitment = t["commitment"]
        check(
            len(commitment) == 64 and all(c in "0123456789abcdef" for c in commitment),
            f"commitment {commitment!r} is not 64 lower-case hex digits",
        )
    check(created["commitment"] == before["commitment"], "the commitment changed")
    result = client.join(table_id, seat=s["seat"], name=PLAYER).play(first_legal)
    summary_check(client, table_id, result)
    entropy = client.get_table(table_id)["entropy"]
    for i, kind in enumerate(s["seats"]):
        if i == s["seat"]:
            check(len(entropy[i]) == 64, f"the seat contributed {entropy[i]!r}, not 32 bytes")
        else:
            check(entropy[i] == "", f"{kind} seat {i} contributed {entropy[i]!r}")
    record = client.get_record(table_id)
    deals = json.loads(record)["meta"]["deals"]
    check(deals["commitment"] == created["commitment"], "the record has another commitment")
    check(len(deals.get("secret") or "") == 64, "the record reveals no secret")
    check(
        deals["contributions"][s["seat"]] == entropy[s["seat"]],
        "the record's contribution differs from the seat's entropy",
    )
    verify = subprocess.run(
        [os.environ["CALABRESELLA_BIN"], "verify", "-"],
        input=record,
        capture_output=True,
        text=True,
        check=False,
    )
    check(verify.returncode == 0, f"verify: {verify.stdout.strip()} {verify.stderr.strip()}")


def run_resume(client: cb.Client, s: dict[str, Any]) -> None:
    table_id = create(client, s)
    seat = client.join(table_id, seat=s["seat"], name=PLAYER)
    seqs: list[int] = []
    ended: dict[str, Any] | None = None
    answered: set[int] = set()

    def follow(stream: cb.UpdateStream, limit: int | None) -> int:
        nonlocal ended
        n = 0
        for u in stream:
            if seqs and u["kind"] != "snapshot":
                check(u["seq"] == seqs[-1] + 1, f"update {u['seq']} after {seqs[-1]}")
            seqs.append(u["seq"])
            n += 1
            if u["kind"] == "match_ended":
                ended = u
                return n
            t = my_turn(u, seat.seat)
            if t is not None and t["decision"] not in answered:
                answered.add(t["decision"])
                seat.act(t["decision"], t["legal_actions"][0])
            if limit is not None and n >= limit:
                return n
        return n

    with seat.updates() as first:
        follow(first, s["drop_after_updates"])
    check(ended is None, "the match ended before the drop")
    last = seqs[-1]
    resumed = seat.updates()
    u = next(resumed)
    check(u["kind"] != "snapshot", f"the resumed stream opened with a snapshot ({u.get('reason')})")
    check(u["seq"] == last + 1, f"the resumed stream opened at {u['seq']} after {last}")
    seqs.append(u["seq"])
    if u["kind"] == "match_ended":
        ended = u
    else:
        t = my_turn(u, seat.seat)
        if t is not None and t["decision"] not in answered:
            answered.add(t["decision"])
            seat.act(t["decision"], t["legal_actions"][0])
        follow(resumed, None)
    check(ended is not None, "the stream ended without match_ended")
    assert ended is not None
    check(ended["result"] is not None, "match_ended without a result")
    summary_check(client, table_id, {"reason": ended["reason"], **ended["result"]})


def run_duplicate(client: cb.Client, s: dict[str, Any]) -> None:
    seat = client.join(create(client, s), seat=s["seat"], name=PLAYER)
    t = first_turn(seat, lambda t: True)
    action = t["legal_actions"][0]
    a = seat.answer(t["decision"], action)
    b = seat.answer(t["decision"], action)
    check(not a["duplicate"], "the first answer was a duplicate")
    check(b["duplicate"], "the second answer was not marked duplicate")
    check(a["action"] == b["action"] == action, f"actions differ: {a} {b}")


def run_stale(client: cb.Client, s: dict[str, Any]) -> None:
    seat = client.join(create(client, s), seat=s["seat"], name=PLAYER)
    t = first_turn(seat, lambda t: len(t["legal_actions"]) >= 2)
    seat.act(t["decision"], t["legal_actions"][0])
    expect_error(s, lambda: seat.act(t["decision"], t["legal_actions"][1]))


def run_illegal(client: cb.Client, s: dict[str, Any]) -> None:
    seat = client.join(create(client, s), seat=s["seat"], name=PLAYER)
    t = first_turn(seat, lambda t: True)
    action: str | None = next((a for a in s["try"] if a not in t["legal_actions"]), None)
    if action is None:
        raise FailedError("every action of `try` is legal")
    expect_error(s, lambda: seat.act(t["decision"], action))


def run_bad_token(client: cb.Client, s: dict[str, Any]) -> None:
    table_id = create(client, s)
    client.join(table_id, seat=s["seat"], name=PLAYER)
    forged = client.seat(table_id, s["seat"], s["token"])
    expect_error(s, lambda: forged.act(0, "pass"))


def run_unknown_table(client: cb.Client, s: dict[str, Any]) -> None:
    expect_error(s, lambda: client.get_table(s["table_id"]))


def run_spectate(client: cb.Client, s: dict[str, Any]) -> None:
    table_id = create(client, s)
    last = 0
    revealed: list[int] = []
    ended: dict[str, Any] | None = None
    for u in client.spectate(table_id):
        if last and u["kind"] != "snapshot":
            check(u["seq"] == last + 1, f"update {u['seq']} after {last}")
        last = u["seq"]
        if u["kind"] == "snapshot":
            check(not u["hand"], f"a snapshot shows a hand: {u['hand']}")
            check(not u["visible_hands"], f"a snapshot shows hands: {u['visible_hands']}")
            check(not u["legal_actions"], "a snapshot shows legal actions")
        for t in (u.get("turn") if u["kind"] in ("turn", "snapshot") else None, u["next_turn"]):
            check(not (t and t["legal_actions"]), f"a turn shows legal actions: {t}")
        if u["kind"] == "hand_revealed":
            revealed.append(u["hand_number"])
        if u["kind"] == "match_ended":
            ended = u
    check(ended is not None and ended["result"] is not None, "no match_ended with a result")
    assert ended is not None
    hands = ended["result"]["hands"]
    check(
        sorted(revealed) == list(range(hands)),
        f"hands revealed {revealed}, expected each of {hands} once",
    )
    summary_check(client, table_id, {"reason": ended["reason"], **ended["result"]})


def run_restart(client: cb.Client, s: dict[str, Any]) -> None:
    table_id = create(client, s)
    asked = 0

    def bot(obs: cb.Observation) -> str:
        nonlocal asked
        asked += 1
        if asked == s["restart_at_decision"]:
            subprocess.run(["sh", "-c", os.environ["CONFORMANCE_RESTART"]], check=True)
        return first_legal(obs)

    result = client.join(table_id, seat=s["seat"], name=PLAYER).play(bot)
    check(asked >= s["restart_at_decision"], "the server was never restarted")
    summary_check(client, table_id, result)


def run_bench(client: cb.Client, s: dict[str, Any]) -> None:
    decisions = 0
    started = time.perf_counter()
    for i in range(s["matches"]):
        table_id = create(client, s, seed=s["seed"] + i)
        result = client.join(table_id, seat=s["seat"], name=PLAYER).play(first_legal)
        decisions += result["decisions"]
    seconds = time.perf_counter() - started
    print(
        f"BENCH {CLIENT} {s['name']} decisions={decisions} seconds={seconds:.3f} "
        f"decisions_per_second={decisions / seconds:.0f}",
        flush=True,
    )


KINDS: dict[str, Callable[[cb.Client, dict[str, Any]], None]] = {
    "match": run_match,
    "resume": run_resume,
    "duplicate_act": run_duplicate,
    "stale_decision": run_stale,
    "illegal_action": run_illegal,
    "bad_token": run_bad_token,
    "unknown_table": run_unknown_table,
    "spectate": run_spectate,
    "fair_deal": run_fair,
    "restart": run_restart,
    "bench": run_bench,
}


def on_alarm(signum: int, frame: object) -> None:
    raise FailedError(f"took longer than {SCENARIO_SECONDS} s")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--scenarios", required=True)
    p.add_argument("--server", required=True)
    p.add_argument("--bench", action="store_true")
    p.add_argument("--only", action="append", default=[])
    p.add_argument("--ca-cert")
    args = p.parse_args()
    with open(args.scenarios, encoding="utf-8") as f:
        scenarios = json.load(f)["scenarios"]
    signal.signal(signal.SIGALRM, on_alarm)
    passed = failed = 0
    for s in scenarios:
        if args.only and s["name"] not in args.only:
            continue
        if (s["kind"] == "bench") != args.bench:
            continue
        run = KINDS.get(s["kind"])
        signal.alarm(SCENARIO_SECONDS)
        try:
            if run is None:
                raise FailedError(f"unknown kind {s['kind']!r}")
            run(cb.connect(args.server, ca_cert=args.ca_cert), s)
            if s["kind"] != "bench":
                print(f"PASS {s['name']}", flush=True)
            passed += 1
        except (FailedError, cb.CalabresellaError, KeyError, ValueError, OSError) as e:
            why = str(e).replace("\n", " ")
            print(f"FAIL {s['name']}: {type(e).__name__}: {why}", flush=True)
            failed += 1
        finally:
            signal.alarm(0)
    print(f"{CLIENT}: {passed} passed, {failed} failed", flush=True)
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
