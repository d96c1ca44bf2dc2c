"""The bot interface: one shape for in-process play, environments, tournaments and servers."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol, runtime_checkable

from calabresella._core import Observation

Action = int | str
"""An action: its numeric id or its string (``"bid solo"``, ``"play 3b"``)."""


@runtime_checkable
class Bot(Protocol):
    """An object that chooses an action for an observation whose ``legal_actions`` are not
    empty."""

    def act(self, observation: Observation) -> Action:
        """Returns one of ``observation.legal_actions`` (or its string)."""
        ...


BotLike = Bot | Callable[[Observation], Action] | str
"""What the package accepts as a bot: a :class:`Bot`, a function, or the name of a built-in
bot (``"random"``, ``"heuristic"``) where the engine runs it."""


class RandomBot:
    """Uniformly random legal actions, seeded."""

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def act(self, observation: Observation) -> Action:
        """A random legal action."""
        return self._rng.choice(observation.legal_actions)


class FirstLegalBot:
    """Always the first legal action: deterministic, for tests."""

    def act(self, observation: Observation) -> Action:
        """The first legal action."""
        return observation.legal_actions[0]


def as_policy(bot: Bot | Callable[[Observation], Action]) -> Callable[[Observation], Action]:
    """The bot as a plain function from observation to action."""
    if isinstance(bot, Bot):
        return bot.act
    if callable(bot):
        return bot
    raise TypeError(f"a bot is an object with act(observation) or a callable, not {bot!r}")
