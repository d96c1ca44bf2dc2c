"""Speed of the Python package, side by side with OpenSpiel's pyspiel in the same run.

    python sdk-python/benches/bench.py [--quick] [--cli target/release/calabresella]

Measures (medians of several timed runs, after a warm-up):

1. one game driven from Python (Calabresella, then every registered game), fetching the
   observation tensor and the legal-action mask at every step: microseconds per step (tensor
   and mask written into arrays allocated once, with ``out=``) and, when pyspiel is installed,
   OpenSpiel's Skat with the same loop through its own API. Both pick
   ``legal[step % len(legal)]``, so the figure measures the packages, not Python's ``random``
   module (``random.choice`` would add ~0.6 us to both);
2. the batched ``VectorEnv`` (Calabresella, then every registered game): game steps per second
   on one core, observation tensors and masks
   included (actions from ``sample_actions``);
3. full random Calabresella matches through ``tournament`` (ratings and progress bar off):
   hands per second on one thread and on every core, next to the Rust ``calabresella bench``
   (per-action API driver) run by this script.

Prints a JSON report.
"""

from __future__ import annotations

import argparse
import functools
import json
import random
import statistics
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

import calabresella as cb

ROOT = Path(__file__).resolve().parents[2]


def median_of(runs: int, f: Callable[[], float]) -> float:
    """Median of ``runs`` calls of ``f`` after one warm-up call."""
    f()
    return statistics.median(f() for _ in range(runs))


def single_game_us(games: int, one_call: bool = False, game: str = "calabresella") -> float:
    """Microseconds per step of hands of ``game`` driven from Python: tensor (``out=``), mask
    (``out=``), ``legal_actions()`` and ``apply_action()``; with ``one_call`` the first three are
    one ``observe_into`` call."""
    obs = np.zeros(cb.OBSERVATION_SIZE, dtype=np.float32)
    mask = np.zeros(cb.NUM_ACTIONS, dtype=np.bool_)
    steps = 0
    start = time.perf_counter()
    for g in range(games):
        s = cb.new_hand(game, seed=g)
        while not s.is_terminal():
            if one_call:
                legal = s.observe_into(obs, mask)
            else:
                s.observation_tensor(out=obs)
                s.legal_actions_mask(out=mask)
                legal = s.legal_actions()
            s.apply_action(legal[steps % len(legal)])
            steps += 1
    return (time.perf_counter() - start) / steps * 1e6


def pyspiel_us(game_name: str, games: int, count_chance: bool = False) -> float | None:
    """Microseconds per step of an OpenSpiel game with the same loop. Chance nodes (OpenSpiel
    deals card by card) are sampled; ``count_chance`` counts them as steps too, which lowers
    the figure; otherwise their time is charged to the decision steps."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game(game_name)
    rng = random.Random(1)
    steps = 0
    start = time.perf_counter()
    for _ in range(games):
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                s.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                steps += int(count_chance)
                continue
            s.observation_tensor()
            s.legal_actions_mask()
            legal = s.legal_actions()
            s.apply_action(legal[steps % len(legal)])
            steps += 1
    return (time.perf_counter() - start) / steps * 1e6


def vector_steps_per_sec(
    num_envs: int,
    batches: int,
    game: str = "calabresella",
    threads: int = 1,
    information_state: bool = False,
) -> float:
    """Game steps per second of the batched environment."""
    env = cb.envs.VectorEnv(
        game, num_envs=num_envs, seed=1, threads=threads, information_state=information_state
    )
    start = time.perf_counter()
    for _ in range(batches):
        env.step(env.sample_actions())
    return num_envs * batches / (time.perf_counter() - start)


def observation_us(calls: int, what: str) -> float:
    """Microseconds per call of ``State.observation()`` (``what="observation"``), of
    ``State.information_state_tensor()`` (``"information_state"``), or of an observation
    read the way a bot reads it: made, then its tensor and legal actions (``"bot"``), on a
    Calabresella state in the play."""
    state = cb.new_hand("calabresella", seed=3)
    rng = random.Random(1)
    for _ in range(15):
        state.apply_action(rng.choice(state.legal_actions()))
    assert not state.is_terminal()
    if what == "observation":
        f: Callable[[], object] = state.observation
    elif what == "information_state":
        f = state.information_state_tensor
    else:

        def f() -> object:
            o = state.observation()
            return (o.tensor(), o.legal_actions)

    start = time.perf_counter()
    for _ in range(calls):
        f()
    return (time.perf_counter() - start) / calls * 1e6


def tournament_hands_per_sec(deals: int, threads: int) -> float:
    """Hands per second of random three-bot Calabresella matches through ``tournament``."""
    start = time.perf_counter()
    r = cb.tournament(
        ["random", "random", "random"],
        "calabresella",
        deals=deals,
        threads=threads,
        progress=False,
        ratings=False,
    )
    return float(r.hands.sum()) / (time.perf_counter() - start)


def rust_bench(cli: Path, hands: int) -> dict[str, Any]:
    """The Rust engine's own benchmark, per-action API driver."""
    out = subprocess.run(
        [str(cli), "bench", "--hands", str(hands), "--runs", "5", "--driver", "api"],
        capture_output=True,
        text=True,
        check=True,
    )
    parsed: dict[str, Any] = json.loads(out.stdout)
    return parsed


def main() -> None:
    """Runs every measurement and prints the report."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--quick", action="store_true", help="small sizes, for a smoke run")
    p.add_argument("--runs", type=int, default=5, help="timed runs per figure (median)")
    p.add_argument("--cli", type=Path, default=ROOT / "target" / "release" / "calabresella")
    a = p.parse_args()
    scale = 10 if a.quick else 1
    report: dict[str, Any] = {"runs": a.runs}
    report["single_game_us_per_step"] = median_of(a.runs, lambda: single_game_us(2000 // scale))
    report["single_game_observe_into_us_per_step"] = median_of(
        a.runs, lambda: single_game_us(2000 // scale, one_call=True)
    )
    sk = pyspiel_us("skat", 300 // scale)
    report["pyspiel_skat_us_per_decision_step"] = (
        median_of(a.runs, lambda: pyspiel_us("skat", 300 // scale) or 0.0) if sk else None
    )
    report["pyspiel_skat_us_per_step_chance_counted"] = (
        median_of(a.runs, lambda: pyspiel_us("skat", 300 // scale, True) or 0.0) if sk else None
    )
    report["vector_env_steps_per_sec"] = median_of(
        a.runs, lambda: vector_steps_per_sec(1024, 2000 // scale)
    )
    # Batch sizes and threads: one thread, then every core (threads=0).
    report["vector_env_steps_per_sec_by_size"] = {
        f"{n} games, {t or 'every core'} thread(s)": median_of(
            a.runs,
            functools.partial(vector_steps_per_sec, n, max(2, 2_000_000 // n // scale), threads=t),
        )
        for n in (64, 1024, 16384)
        for t in (1, 0)
    }
    report["vector_env_information_state_steps_per_sec"] = median_of(
        a.runs, lambda: vector_steps_per_sec(1024, 40 // scale, information_state=True)
    )
    report["observation_us"] = median_of(
        a.runs, lambda: observation_us(20000 // scale, "observation")
    )
    report["observation_read_by_a_bot_us"] = median_of(
        a.runs, lambda: observation_us(20000 // scale, "bot")
    )
    report["information_state_tensor_us"] = median_of(
        a.runs, lambda: observation_us(5000 // scale, "information_state")
    )
    report["tournament_hands_per_sec_1_thread"] = median_of(
        a.runs, lambda: tournament_hands_per_sec(20000 // scale, 1)
    )
    report["tournament_hands_per_sec_all_cores"] = median_of(
        a.runs, lambda: tournament_hands_per_sec(20000 // scale, 0)
    )
    # Every registered game, the same loops: per-step cost from Python and batched steps.
    report["per_game_single_us_per_step"] = {
        g: median_of(a.runs, functools.partial(single_game_us, 2000 // scale, game=g))
        for g in cb.GAMES
    }
    report["per_game_vector_env_steps_per_sec"] = {
        g: median_of(a.runs, functools.partial(vector_steps_per_sec, 1024, 1000 // scale, g))
        for g in cb.GAMES
    }
    if a.cli.is_file():
        rust = rust_bench(a.cli, 1_000_000 // scale)
        report["rust_bench_api_hands_per_sec"] = rust["api_hands_per_sec"]
        report["tournament_vs_rust_bench"] = (
            rust["api_hands_per_sec"] / report["tournament_hands_per_sec_all_cores"]
        )
        # Per core: the bench runs on one core, so compare the one-thread tournament.
        report["tournament_1_thread_vs_rust_bench"] = (
            rust["api_hands_per_sec"] / report["tournament_hands_per_sec_1_thread"]
        )
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
