"""Reinforcement-learning environments.

- :func:`aec_env`: a PettingZoo AEC environment (``pip install calabresella[pettingzoo]``);
- :func:`gym_env`: a Gymnasium single-agent environment, other seats played by built-in bots or
  Python callables (``pip install calabresella[gymnasium]``);
- :class:`VectorEnv`: N games stepped at once inside Rust into preallocated numpy arrays (needs
  only numpy).

Every environment observes ``{"observation": float32[OBSERVATION_SIZE], "action_mask":
int8[NUM_ACTIONS]}`` (the vector environment: arrays of those) with the layouts in the
package README (encoding version ``ENCODING_VERSION``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from calabresella._core import VectorEnv
from calabresella.envs import registration

if TYPE_CHECKING:
    from calabresella.bots import BotLike
    from calabresella.envs.aec import CalabresellaAEC
    from calabresella.envs.gym import CalabresellaGym


def aec_env(
    game: str = "calabresella",
    *,
    episode: str = "hand",
    render_mode: str | None = None,
    **options: Any,
) -> CalabresellaAEC:
    """A PettingZoo AEC environment of ``game``; ``episode`` is ``"hand"`` or ``"match"``."""
    from calabresella.envs.aec import CalabresellaAEC

    return CalabresellaAEC(game=game, episode=episode, render_mode=render_mode, **options)


def gym_env(
    game: str = "calabresella",
    *,
    seat: int = 0,
    opponents: BotLike | list[BotLike] = "random",
    episode: str = "hand",
    illegal_action: str = "penalize",
    render_mode: str | None = None,
    **options: Any,
) -> CalabresellaGym:
    """A Gymnasium environment where the agent plays ``seat`` and the other seats are played
    by ``opponents`` (one bot for all, or one per other seat; built-in names or callables)."""
    from calabresella.envs.gym import CalabresellaGym

    return CalabresellaGym(
        game=game,
        seat=seat,
        opponents=opponents,
        episode=episode,
        illegal_action=illegal_action,
        render_mode=render_mode,
        **options,
    )


__all__ = ["VectorEnv", "aec_env", "gym_env", "registration"]
