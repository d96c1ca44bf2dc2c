"""Tournaments: duplicate seatings, determinism, Python bots, faults, records."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

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
        cb.tournament(["random"] * 4, "calabresella", deals=1, progress=False)
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
