"""Calabresella and Tressette for Python: the rules engine in-process, RL environments,
tournaments, and remote play against a calabresella server, all with one bot interface.

A bot is anything that maps an :class:`Observation` to an action (an id or a string such as
``"play 3b"``): a function, or an object with an ``act(observation)`` method.

>>> import calabresella as cb
>>> state = cb.new_hand("calabresella", seed=7)
>>> while not state.is_terminal():
...     obs = state.observation()          # the deciding seat's view only
...     state.apply_action(obs.legal_actions[0])
>>> len(state.returns())
3
"""

from calabresella import envs, stdio
from calabresella._core import (
    BOT_NAMES,
    CHANCE,
    ENCODING_VERSION,
    GAME_NAMES,
    INFORMATION_STATE_LAYOUT,
    INFORMATION_STATE_SIZE,
    NUM_ACTIONS,
    OBSERVATION_LAYOUT,
    OBSERVATION_SIZE,
    TERMINAL,
    BotError,
    CalabresellaError,
    Client,
    ConnectionLostError,
    DealMismatchError,
    IllegalActionError,
    InvalidRecordError,
    NotationError,
    Observation,
    RemoteSeat,
    ServerError,
    State,
    UpdateStream,
    __version__,
    game_facts,
)
from calabresella.analysis import Analysis, analyse
from calabresella.bots import Bot, BotLike, FirstLegalBot, RandomBot, as_policy
from calabresella.compete import compete
from calabresella.fair import DealVerification, verify_record
from calabresella.remote import connect, play, play_async
from calabresella.tournament import BotResult, TournamentResult, tournament

GAMES = tuple(GAME_NAMES)
"""The games the engine plays (every game registered in the engine, by name)."""

GYM_IDS = tuple(envs.registration.register_all())
"""The Gymnasium ids registered on import (``calabresella/Calabresella-v0``...; empty without
Gymnasium)."""


def new_match(
    game: str = "calabresella",
    *,
    seed: int | None = None,
    dealer: int | None = None,
    **options: object,
) -> State:
    """A whole match dealt from ``seed``; rule options are keyword arguments
    (``players=4``, ``target=31``, ``aperta=True``, ``preset="terziglio"``...)."""
    return State.new_match(game, seed=seed, dealer=dealer, **options)


def new_hand(
    game: str = "calabresella",
    *,
    seed: int | None = None,
    dealer: int | None = None,
    deal: list[list[str]] | None = None,
    monte: list[str] | None = None,
    stock: list[str] | None = None,
    **options: object,
) -> State:
    """A single hand, dealt from ``seed`` or from an explicit ``deal`` (one list of card strings
    per seat) with the ``monte`` (Calabresella) or ``stock`` (Tressette in Due)."""
    return State.new_hand(
        game, seed=seed, dealer=dealer, deal=deal, monte=monte, stock=stock, **options
    )


def load_record(text: str) -> State:
    """The state a game record (JSON text, format v1) leads to."""
    return State.from_record(text)


__all__ = [
    "BOT_NAMES",
    "CHANCE",
    "ENCODING_VERSION",
    "GAMES",
    "GYM_IDS",
    "INFORMATION_STATE_LAYOUT",
    "INFORMATION_STATE_SIZE",
    "NUM_ACTIONS",
    "OBSERVATION_LAYOUT",
    "OBSERVATION_SIZE",
    "TERMINAL",
    "Analysis",
    "Bot",
    "BotError",
    "BotLike",
    "BotResult",
    "CalabresellaError",
    "Client",
    "ConnectionLostError",
    "DealMismatchError",
    "DealVerification",
    "FirstLegalBot",
    "IllegalActionError",
    "InvalidRecordError",
    "NotationError",
    "Observation",
    "RandomBot",
    "RemoteSeat",
    "ServerError",
    "State",
    "TournamentResult",
    "UpdateStream",
    "__version__",
    "analyse",
    "as_policy",
    "compete",
    "connect",
    "envs",
    "game_facts",
    "load_record",
    "new_hand",
    "new_match",
    "play",
    "play_async",
    "stdio",
    "tournament",
    "verify_record",
]
