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
