"""Pieces the environments share: spaces, seeding, built-in opponents in Python."""

from __future__ import annotations

from typing import Any

import numpy as np

from calabresella import _core

OBS_SPACE_KEYS = ("observation", "action_mask")


def spaces_for() -> tuple[Any, Any]:
    """The observation and action spaces of every game."""
    from gymnasium import spaces

    obs = spaces.Dict(
        {
            "observation": spaces.Box(0.0, 1.0, (_core.OBSERVATION_SIZE,), np.float32),
            "action_mask": spaces.Box(0, 1, (_core.NUM_ACTIONS,), np.int8),
        }
    )
    return obs, spaces.Discrete(_core.NUM_ACTIONS)


def state_space_for(players: int) -> Any:
    """The global state's space: every seat's observation tensor, concatenated."""
    from gymnasium import spaces

    return spaces.Box(0.0, 1.0, (players * _core.OBSERVATION_SIZE,), np.float32)


def new_state(game: str, episode: str, seed: int, options: dict[str, Any]) -> _core.State:
    """A fresh episode's state."""
    if episode == "hand":
        return _core.State.new_hand(game, seed=seed, **options)
    if episode == "match":
        return _core.State.new_match(game, seed=seed, **options)
    raise _core.NotationError(f'episode is "hand" or "match", not {episode!r}')


def observe(state: _core.State, seat: int) -> dict[str, np.ndarray]:
    """The observation dict of ``seat``: its tensor, and its mask when it decides now."""
    tensor = state.observation_tensor(seat)
    if state.current_player() == seat:
        mask = state.legal_actions_mask().astype(np.int8)
    else:
        mask = np.zeros(_core.NUM_ACTIONS, dtype=np.int8)
    return {"observation": tensor, "action_mask": mask}


def render(state: _core.State, mode: str | None) -> str | None:
    """The full state as text (``ansi``), or printed (``human``)."""
    text = str(state)
    if mode == "human":
        print(text)
        return None
    return text
