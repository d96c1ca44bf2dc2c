"""OpenSpiel's own MCTS bot against the engine's heuristic bot, through the OpenSpiel adapter.

Every deal is played twice with the seats swapped (duplicate), so both bots meet the same cards.
OpenSpiel's ``MCTSBot`` searches the true state, so it sees every hand: it is a perfect-information
opponent, not a fair player, and shows that OpenSpiel's algorithms run on these games unchanged.

    .venv/bin/python sdk-python/examples/openspiel_mcts.py --game tressette-in-due --deals 10
"""

from __future__ import annotations

import argparse
import math
import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import evaluate_bots, mcts

import calabresella.openspiel as cos


class EngineBot(pyspiel.Bot):  # type: ignore[misc]
    """A built-in engine bot (``heuristic`` or ``random``) as an OpenSpiel bot: it decides from
    its seat's observation only."""

    def __init__(self, name: str = "heuristic", seed: int = 0) -> None:
        pyspiel.Bot.__init__(self)
        self.name = name
        self.seed = seed
        self.calls = 0

    def step(self, state: Any) -> int:
        """The engine bot's action for the seat to move."""
        self.calls += 1
        return int(state.engine.bot_action(self.name, seed=self.seed + self.calls))

    def restart_at(self, state: Any) -> None:
        """Nothing to forget."""

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        """Nothing to track: each decision reads the seat's observation afresh."""


def play(game_name: str, deals: int, simulations: int, seed: int) -> dict[str, Any]:
    """Plays ``deals`` deals twice (seats swapped) between MCTS and the heuristic bot; returns
    MCTS's mean points per hand, its 95% CI and the heuristic's mean."""
    game = cos.load(game_name)
    players = game.num_players()
    margins, mcts_points, heur_points = [], [], []
    started = time.perf_counter()
    for deal in range(deals):
        per_deal = []
        for mcts_seat in range(players):
            rng = np.random.RandomState(seed + deal)  # the same cards for every seating
            evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
            bots: list[Any] = [EngineBot("heuristic", seed + deal) for _ in range(players)]
            bots[mcts_seat] = mcts.MCTSBot(
                game,
                uct_c=2.0 * cos.utility_range(game),
                max_simulations=simulations,
                evaluator=evaluator,
                random_state=np.random.RandomState(seed + 7919 * deal + mcts_seat),
                solve=False,
            )
            returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
            mine = returns[mcts_seat]
            others = [r for s, r in enumerate(returns) if s != mcts_seat]
            mcts_points.append(mine)
            heur_points.extend(others)
            per_deal.append(mine - sum(others) / len(others))
        margins.append(sum(per_deal) / len(per_deal))
    mean = float(np.mean(margins))
    half = 1.96 * float(np.std(margins, ddof=1)) / math.sqrt(len(margins)) if deals > 1 else 0.0
    return {
        "game": game_name,
        "deals": deals,
        "simulations": simulations,
        "mcts_points_per_hand": float(np.mean(mcts_points)),
        "heuristic_points_per_hand": float(np.mean(heur_points)),
        "margin": mean,
        "margin_ci95": (mean - half, mean + half),
        "seconds": time.perf_counter() - started,
    }


def main() -> None:
    """Command line: ``--game``, ``--deals``, ``--simulations``, ``--seed``."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="tressette-in-due", choices=sorted(cos.GAMES))
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--simulations", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    r = play(args.game, args.deals, args.simulations, args.seed)
    lo, hi = r["margin_ci95"]
    print(
        f"{r['game']}: {r['deals']} deals x {cos.load(r['game']).num_players()} seatings, "
        f"MCTS {r['simulations']} simulations per move\n"
        f"  MCTS {r['mcts_points_per_hand']:.2f} points per hand, heuristic "
        f"{r['heuristic_points_per_hand']:.2f}; margin {r['margin']:+.2f} "
        f"[{lo:+.2f}, {hi:+.2f}] (95% CI over deals), {r['seconds']:.0f} s"
    )


if __name__ == "__main__":
    main()
