"""The PettingZoo AEC environment."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from pettingzoo import AECEnv

from calabresella import _core
from calabresella.envs._common import new_state, observe, render, spaces_for, state_space_for


class CalabresellaAEC(AECEnv):  # type: ignore[misc]
    """Every seat is an agent (``player_0``...). Each step, the deciding seat's agent plays
    one action id (which must be legal: use ``action_mask``). Rewards are points won, given
    when a hand is scored (per seat; Tressette: the side's points to each partner).

    ``game`` is the ``State`` being played (hidden information: for referees and tests);
    ``state()`` is the global state for centralised training (every seat's observation
    tensor, concatenated in seat order; ``state_space``).

    There is no parallel (simultaneous-move) version: one seat decides at a time in every
    game here, so a parallel environment would ask every agent for an action each step and
    ignore all but one; ``metadata["is_parallelizable"]`` is False, as PettingZoo's classic
    card games declare."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"],
        "name": "calabresella_v1",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str = "calabresella",
        episode: str = "hand",
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        self._game = game
        self._episode = episode
        self._options = dict(options)
        self.render_mode = render_mode
        probe = new_state(game, episode, 0, self._options)
        n = probe.num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        obs_space, act_space = spaces_for()
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.state_space = state_space_for(n)
        self.action_spaces = {a: act_space for a in self.possible_agents}
        self._rng = np.random.default_rng()
        self.game = probe
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> Any:
        """The observation space of ``agent``."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        """The action space of ``agent``."""
        return self.action_spaces[agent]

    def _seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deals a new episode (seeded when ``seed`` is given)."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.game = new_state(
            self._game, self._episode, int(self._rng.integers(0, 2**63)), self._options
        )
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.current_player()]

    def state(self) -> np.ndarray:
        """The global state: every seat's observation tensor, concatenated in seat order
        (float32, ``num_players * OBSERVATION_SIZE``). It holds every hand: for a centralised
        critic, never for a policy that plays."""
        return np.concatenate(
            [self.game.observation_tensor(s) for s in range(len(self.possible_agents))]
        )

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``agent``'s observation tensor and legal-action mask."""
        return observe(self.game, self._seat(agent))

    def step(self, action: int | None) -> None:
        """Plays ``action`` for the selected agent."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise _core.IllegalActionError(f"{agent} must act; None is only for finished agents")
        before = self.game.returns()
        self.game.apply_action(int(action))
        after = self.game.returns()
        self._cumulative_rewards[agent] = 0.0
        for i, a in enumerate(self.possible_agents):
            if a in self.rewards:
                self.rewards[a] = float(after[i] - before[i])
        if self.game.is_terminal():
            for a in self.agents:
                self.terminations[a] = True
        else:
            self.agent_selection = self.possible_agents[self.game.current_player()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The full state as text (``ansi``), or printed (``human``)."""
        return render(self.game, self.render_mode)

    def close(self) -> None:
        """Nothing to release."""
