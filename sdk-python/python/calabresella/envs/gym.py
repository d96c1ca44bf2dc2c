"""The Gymnasium single-agent environment."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np

from calabresella import _core
from calabresella.bots import BotLike, RandomBot, as_policy
from calabresella.envs._common import new_state, observe, render, spaces_for


def _policy(bot: BotLike, seed: int) -> Any:
    if isinstance(bot, str):
        if bot == "random":
            return as_policy(RandomBot(seed))
        if bot == "heuristic":
            return "heuristic"
        raise _core.NotationError(f"unknown built-in bot {bot!r}: random or heuristic")
    return as_policy(bot)


# Deals skipped in a row before giving up (the idle dealer is one deal in four).
_MAX_SKIPPED = 1000


class CalabresellaGym(gymnasium.Env):
    """The agent plays one seat; the other seats are played by ``opponents`` between the
    agent's steps. The reward is the agent's points won during the step (its hand award, or in
    Tressette its side's points, when a hand is scored). An illegal action is refused: with
    ``illegal_action="penalize"`` (the default) the state does not change and the reward is
    -1 with ``info["illegal"] = True``; with ``"raise"`` it raises ``IllegalActionError``.

    An episode always asks the agent at least once: a deal where the agent's seat has no
    decision (the idle dealer of four-player Calabresella, in one-hand episodes) is skipped
    and the next one dealt. ``game`` is the ``State`` being played (hidden information: for
    referees and tests)."""

    metadata = {"render_modes": ["human", "ansi"]}  # noqa: RUF012 (gymnasium declares it per instance)

    def __init__(
        self,
        game: str = "calabresella",
        seat: int = 0,
        opponents: BotLike | list[BotLike] = "random",
        episode: str = "hand",
        illegal_action: str = "penalize",
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        if illegal_action not in ("penalize", "raise"):
            raise _core.NotationError('illegal_action is "penalize" or "raise"')
        self._game = game
        self._episode = episode
        self._options = dict(options)
        self._illegal = illegal_action
        self.render_mode = render_mode
        probe = new_state(game, episode, 0, self._options)
        n = probe.num_players
        if not 0 <= seat < n:
            raise _core.NotationError(f"seat {seat} is not a seat: seats are 0 to {n - 1}")
        if seat in probe.dummy_seats:
            raise _core.NotationError(
                f"seat {seat} is the dummy: nobody plays it (another seat plays its cards); "
                f"choose one of {[s for s in range(n) if s not in probe.dummy_seats]}"
            )
        self.seat = seat
        # The seats the opponents play: every other seat but a dummy (its player plays it).
        opponent_seats = [s for s in range(n) if s != seat and s not in probe.dummy_seats]
        k = len(opponent_seats)
        others = opponents if isinstance(opponents, list) else [opponents] * k
        if len(others) != k:
            raise _core.NotationError(f"{game} needs {k} opponents, got {len(others)}")
        for spec in others:
            _policy(spec, 0)  # an unknown built-in name is refused here, not at reset
        self._opponent_seats = opponent_seats
        self._opponent_specs = others
        self.observation_space, self.action_space = spaces_for()
        self.game = probe
        self._opponents: dict[int, Any] = {}
        self._bot_seed = 0
        self._pending = 0.0

    def _opponent_act(self, seat: int) -> int | str:
        policy = self._opponents[seat]
        if policy == "heuristic":
            return self.game.bot_action("heuristic", seat, self._bot_seed)
        answer: int | str = policy(self.game.observation(seat))
        return answer

    def _advance(self) -> None:
        while not self.game.is_terminal() and self.game.current_player() != self.seat:
            seat = self.game.current_player()
            self.game.apply_action(self._opponent_act(seat))

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Deals a new episode and plays the opponents up to the agent's first decision (a deal
        where the agent would not decide at all is skipped)."""
        super().reset(seed=seed)
        for _ in range(_MAX_SKIPPED):
            state_seed = int(self.np_random.integers(0, 2**63))
            self.game = new_state(self._game, self._episode, state_seed, self._options)
            self._opponents = {
                s: _policy(spec, state_seed + s)
                for s, spec in zip(self._opponent_seats, self._opponent_specs, strict=True)
            }
            self._bot_seed = state_seed
            before = self.game.returns()[self.seat]
            self._advance()
            if not self.game.is_terminal():
                self._pending = self.game.returns()[self.seat] - before
                return observe(self.game, self.seat), {}
        raise RuntimeError(
            f"seat {self.seat} had no decision in {_MAX_SKIPPED} deals in a row: "
            "it never decides in this game"
        )

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        """Plays the agent's action, then the opponents until the agent decides again."""
        if self.game.is_terminal():
            raise _core.IllegalActionError("the episode is over: call reset()")
        before = self.game.returns()[self.seat]
        try:
            self.game.apply_action(int(action))
        except _core.IllegalActionError:
            if self._illegal == "raise":
                raise
            return observe(self.game, self.seat), -1.0, False, False, {"illegal": True}
        except _core.NotationError:
            if self._illegal == "raise":
                raise
            return observe(self.game, self.seat), -1.0, False, False, {"illegal": True}
        self._advance()
        reward = self.game.returns()[self.seat] - before + self._pending
        self._pending = 0.0
        if self.render_mode == "human":
            self.render()
        return observe(self.game, self.seat), float(reward), self.game.is_terminal(), False, {}

    def render(self) -> str | None:
        """The full state as text (``ansi``), or printed (``human``)."""
        return render(self.game, self.render_mode)
