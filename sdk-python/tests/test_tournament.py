"""Tournaments: duplicate seatings, determinism, Python bots, faults, records."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import calabresella as cb


def test_duplicate_plays_every_seating_of_each_deal() -> None:
    r = cb.tournament(["random", "heuristic", "random"], deals=7, seed=3, progress=False)
    assert r.num_matches == 7 * 6
    for d in range(7):
        rows = r.seatings[d * 6 : (d + 1) * 6]
        assert len({tuple(x) for x in rows.tolist()}) == 6
        assert len(set(r.seeds[d * 6 : (d + 1) * 6].tolist())) == 1
    again = cb.tournament(["random", "heuristic", "random"], deals=7, seed=3, progress=False)
    np.testing.assert_array_equal(r.returns, again.returns)
    h = next(b for b in r.bots if b.name == "heuristic")
    assert h.matches == 42 and h.ci95[0] <= h.mean <= h.ci95[1]
    assert h.rating is not None and "heuristic" in str(r)


def test_python_bots_and_faults_are_counted(tmp_path: Path, cli: Path) -> None:
    calls: list[str] = []

    class Careful:
        name = "careful"

        def act(self, obs: cb.Observation) -> str:
            calls.append(obs.phase)
            return obs.legal_action_strings[-1]

    def broken(obs: cb.Observation) -> int:
        raise RuntimeError("boom")

    def silly(obs: cb.Observation) -> str:
        return "play 3b" if obs.phase == "auction" else obs.legal_action_strings[0]

    r = cb.tournament(
        [Careful(), broken, silly], "calabresella", deals=2, records=tmp_path, target=3
    )
    assert calls and r.num_matches == 12
    by = {b.name: b for b in r.bots}
    assert by["careful"].faults == 0 and by["broken"].faults > 0 and by["silly"].faults > 0
    assert r.first_error is not None and "boom" in r.first_error
    files = sorted(tmp_path.glob("match-*.json"))
    assert len(files) == 12
    # The Rust tool replays what Python wrote, with the same totals.
    out = subprocess.run(
        [str(cli), "replay", str(files[0])], capture_output=True, text=True, check=True
    )
    replay = json.loads(out.stdout)
    assert replay["match"]["totals"][:3] == [int(x) for x in r.returns[0]]


def test_hand_episodes_and_errors() -> None:
    r = cb.tournament(["heuristic"], "tressette", deals=3, episode="hand", progress=False)
    assert r.num_matches == 3 and (r.hands == 1).all()
    with pytest.raises(cb.NotationError):
        cb.tournament(["nobody"], deals=1, progress=False)
    with pytest.raises(cb.NotationError):
        cb.tournament([42], deals=1, progress=False)  # type: ignore[list-item]


def test_the_command_line_names_what_is_wrong_with_a_bot(tmp_path: Path) -> None:
    import subprocess
    import sys

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "calabresella", *args],
            capture_output=True,
            text=True,
            timeout=60,
        )

    bot = tmp_path / "mybot.py"
    bot.write_text("def act(observation):\n    return observation.legal_actions[0]\n")
    r = run("tournament", "random", f"{bot}:Missing", "--deals", "1")
    assert r.returncode != 0 and "Traceback" not in r.stderr
    assert "has no 'Missing'" in r.stderr and "act" in r.stderr
    r = run("tournament", "random", f"{tmp_path}/nowhere.py:act", "--deals", "1")
    assert "there is no file" in r.stderr and "Traceback" not in r.stderr
    r = run("play", "heuristic", "--server", "127.0.0.1:1")
    assert "plays on the server" in r.stderr and "Traceback" not in r.stderr


def test_the_progress_bar_without_tqdm_writes_a_line_a_tenth_into_a_log() -> None:
    import io
    import sys

    bar_module = sys.modules["calabresella.tournament"]
    buf = io.StringIO()
    old, sys.stderr = sys.stderr, buf
    try:
        bar = bar_module._TextBar(1000)
        for _ in range(1000):
            bar.update(1)
        bar.close()
    finally:
        sys.stderr = old
    lines = buf.getvalue().splitlines()
    assert len(lines) == 11, lines
    assert lines[-1].endswith("1000/1000 matches")


def _passer(obs: cb.Observation) -> str:
    """Passes whenever it may: it defends every Calabresella hand."""
    legal = obs.legal_action_strings
    return "pass" if "pass" in legal else legal[0]


def test_wins_alone_do_not_credit_a_co_defender_s_win() -> None:
    r = cb.tournament(
        {"passer": _passer, "h1": "heuristic", "h2": "heuristic"},
        deals=40,
        seed=2,
        progress=False,
        match_end="pooled",
    )
    by = {b.name: b for b in r.bots}
    for b in r.bots:
        assert b.wins_alone <= b.wins and b.win_rate_alone <= b.win_rate
    # No match is won alone by two bots; shared wins are counted for each bot that shared.
    assert sum(b.wins_alone for b in r.bots) <= r.num_matches
    # Recomputed from the per-match arrays: alone means every winning seat was the bot's.
    for k, b in enumerate(r.bots):
        held = r.seatings == k
        alone = [
            bool((r.won[j] & held[j]).any() and not (r.won[j] & ~held[j]).any())
            for j in range(r.num_matches)
        ]
        assert b.wins_alone == sum(alone)
    # The passer defends beside a heuristic seat in most seatings: its pooled wins are mostly
    # its co-defender's.
    assert by["passer"].wins_alone < by["passer"].wins


def test_a_league_of_more_bots_than_seats_plays_every_ordered_choice() -> None:
    bots = {"a": "random", "b": "heuristic", "c": "random", "d": "heuristic"}
    r = cb.tournament(bots, "calabresella", deals=3, seed=1, progress=False, target=3)
    per_deal = 4 * 3 * 2
    assert r.num_matches == 3 * per_deal
    for d in range(3):
        rows = [tuple(x) for x in r.seatings[d * per_deal : (d + 1) * per_deal].tolist()]
        assert len(set(rows)) == per_deal and all(len(set(x)) == 3 for x in rows)
    for b in r.bots:
        assert b.matches == 3 * 18 and b.ci95[0] <= b.mean <= b.ci95[1]
    one = cb.tournament(bots, deals=5, duplicate=False, progress=False, target=3)
    assert one.num_matches == 5 and len({tuple(x) for x in one.seatings.tolist()}) == 5


def test_every_fault_is_kept_and_results_export_as_json_and_csv() -> None:
    import csv
    import io

    def broken(obs: cb.Observation) -> int:
        raise RuntimeError(f"boom in {obs.phase}")

    r = cb.tournament(
        {"broken": broken, "heuristic": "heuristic"},
        "tressette-in-due",
        deals=2,
        progress=False,
        target=3,
    )
    by = {b.name: b for b in r.bots}
    assert by["broken"].faults > 1 and len(by["broken"].errors) == by["broken"].faults
    assert by["heuristic"].errors == [] and len(r.errors) == by["broken"].faults
    assert all("boom in" in e for e in by["broken"].errors)
    for j, seat, _, _ in r.errors:
        assert r.bots[int(r.seatings[j, seat])].name == "broken"
    data = json.loads(r.to_json())
    assert len(data["match_rows"]) == r.num_matches
    assert data["match_rows"][0]["seats"] == [r.bots[k].name for k in r.seatings[0]]
    rows = list(csv.DictReader(io.StringIO(r.to_csv())))
    assert {row["bot"] for row in rows} == {"broken", "heuristic"}
    assert int(next(row for row in rows if row["bot"] == "broken")["faults"]) == by["broken"].faults
    seats = list(csv.DictReader(io.StringIO(r.matches_csv())))
    assert len(seats) == r.num_matches * 2
    assert sum(float(x["points"]) for x in seats) == pytest.approx(float(r.returns.sum()))


def test_shards_pool_into_one_run_faults_included() -> None:
    from calabresella.tournament import plan, play_shard, pool_shards

    def flaky(obs: cb.Observation) -> str:
        if len(obs.legal_action_strings) > 3:
            raise ValueError("too many choices")
        return obs.legal_action_strings[0]

    p = plan({"flaky": flaky, "h": "heuristic"}, "tressette-in-due", deals=3, target=3)
    whole = play_shard(p, 0, p.num_matches, threads=1, records=True)
    parts = pool_shards(
        [
            play_shard(p, 0, 2, threads=1, records=True),
            play_shard(p, 2, p.num_matches, threads=1, records=True),
        ]
    )
    assert whole["errors"] and parts["errors"] == whole["errors"]
    # Records name their match in the whole tournament, however it is cut.
    assert parts["records"] == whole["records"]
    assert [json.loads(r)["meta"]["tournament"]["match"] for r in parts["records"]] == list(
        range(p.num_matches)
    )
    np.testing.assert_array_equal(parts["returns"], whole["returns"])


def test_the_command_line_writes_standings_and_matches_as_csv(tmp_path: Path) -> None:
    import csv
    import sys

    standings, matches = tmp_path / "standings.csv", tmp_path / "matches.csv"
    done = subprocess.run(
        [
            *(sys.executable, "-m", "calabresella", "tournament", "heuristic", "random"),
            *("--game", "tressette-in-due", "--deals", "2", "--option", "target=3"),
            *("--csv", str(standings), "--matches-csv", str(matches)),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    rows = list(csv.DictReader(standings.open(encoding="utf-8")))
    assert [r["bot"] for r in rows] == ["heuristic", "random"]
    assert all(int(r["matches"]) == 4 for r in rows)
    assert len(list(csv.DictReader(matches.open(encoding="utf-8")))) == 4 * 2


def test_a_bot_over_the_time_limit_is_answered_for_or_forfeits() -> None:
    import time

    class Slow:
        name = "slow"
        version = "2.1"

        def __init__(self, after: int) -> None:
            self.after = after
            self.calls = 0

        def act(self, obs: cb.Observation) -> str:
            self.calls += 1
            if self.calls > self.after:
                time.sleep(0.03)
            return obs.legal_action_strings[0]

    args: dict[str, Any] = {"deals": 2, "progress": False, "target": 3, "move_limit_ms": 15.0}
    # Fallback: every slow answer is a fault, the heuristic answers, the match goes on.
    r = cb.tournament({"slow": Slow(0), "h": "heuristic"}, "tressette-in-due", **args)
    by = {b.name: b for b in r.bots}
    assert by["slow"].faults > 4 and by["slow"].forfeits == 0 and by["h"].faults == 0
    assert all("over the 15.0 ms limit" in e for e in by["slow"].errors)
    assert r.won.any(axis=1).all(), "every match played on to a winner"
    # Forfeit: the first slow answer ends the match, and the other side wins it.
    r = cb.tournament(
        {"slow": Slow(3), "h": "heuristic"},
        "tressette-in-due",
        on_slow="forfeit",
        keep_records=True,
        **args,
    )
    by = {b.name: b for b in r.bots}
    assert by["slow"].forfeits >= 1 and by["slow"].faults == by["slow"].forfeits
    for j in range(r.num_matches):
        slow_seat = int(np.flatnonzero(r.seatings[j] == 0)[0])
        meta = json.loads(r.records[j])["meta"]["tournament"]  # type: ignore[index]
        if meta["forfeit"] is not None:
            assert meta["forfeit"] == slow_seat
            assert not r.won[j, slow_seat] and r.won[j, 1 - slow_seat]
        names = [s["name"] for s in meta["seats"]]
        assert names == [r.bots[k].name for k in r.seatings[j]]
        assert {s["name"]: s["version"] for s in meta["seats"]}["slow"] == "2.1"
        assert int(meta["seed"]) == int(r.seeds[j]) and meta["match"] == j
    bads: list[dict[str, Any]] = [{"on_slow": "sulk"}, {"move_limit_ms": -1.0}]
    for bad in bads:
        with pytest.raises(cb.NotationError):
            cb.tournament(["random"], deals=1, progress=False, **bad)
