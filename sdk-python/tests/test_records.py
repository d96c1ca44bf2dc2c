"""Records cross between the Rust tool and Python in both directions."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

import calabresella as cb


@pytest.mark.parametrize("game", ["calabresella", "tressette", "tressette-in-due"])
def test_a_record_written_by_the_rust_tool_loads_in_python(
    game: str, cli: Path, tmp_path: Path
) -> None:
    path = tmp_path / "match.json"
    subprocess.run(
        [str(cli), "play", "--game", game, "--seed", "11", "--record", str(path), "-q"],
        check=True,
        capture_output=True,
    )
    state = cb.load_record(path.read_text())
    assert state.is_terminal() and state.winners() is not None
    replay = json.loads(
        subprocess.run(
            [str(cli), "replay", str(path)], check=True, capture_output=True, text=True
        ).stdout
    )
    assert [int(x) for x in state.returns()] == [
        replay["match"]["totals"][s if game == "calabresella" else s % 2]
        for s in range(state.num_players)
    ]
    # Written back by Python, the record is the same game.
    assert cb.load_record(state.to_record()) == state


def test_a_tampered_record_is_refused(cli: Path, tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    subprocess.run(
        [str(cli), "play", "--seed", "5", "--record", str(path), "-q"],
        check=True,
        capture_output=True,
    )
    record = json.loads(path.read_text())
    record["hands"][0]["actions"][0] = "play 3b"  # no card play during the auction
    with pytest.raises(cb.InvalidRecordError):
        cb.load_record(json.dumps(record))
