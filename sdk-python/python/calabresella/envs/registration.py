"""Gymnasium registration: ``gymnasium.make("calabresella/Tressette-v0", seat=1)`` once
``calabresella`` is imported (or ``gymnasium.make("calabresella:calabresella/Tressette-v0")``,
which imports it). Every id makes a :class:`~calabresella.envs.gym.CalabresellaGym` of its
game; keyword arguments to ``make`` are the environment's (``seat``, ``opponents``,
``episode``, rule options)."""

from __future__ import annotations

from calabresella._core import GAME_NAMES

ENTRY_POINT = "calabresella.envs.gym:CalabresellaGym"


def env_id(game: str) -> str:
    """The registered id of ``game``: ``calabresella/TressetteInDue-v0`` for
    ``tressette-in-due``."""
    return "calabresella/" + "".join(p.capitalize() for p in game.split("-")) + "-v0"


def register_all() -> list[str]:
    """Registers every game with Gymnasium (a no-op without Gymnasium, or when already
    registered); returns the ids."""
    try:
        import gymnasium
    except ImportError:
        return []
    ids = []
    for game in GAME_NAMES:
        i = env_id(game)
        if i not in gymnasium.registry:
            gymnasium.register(id=i, entry_point=ENTRY_POINT, kwargs={"game": game})
        ids.append(i)
    return ids
