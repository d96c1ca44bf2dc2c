"""Every game of the engine as an OpenSpiel game, so OpenSpiel's algorithms and tools run on it.

Importing this module registers, with ``pyspiel.register_game``, one OpenSpiel game per engine
game: ``python_calabresella``, ``python_tressette``, ``python_tressette_in_due``,
``python_tressette_chiamata`` and ``python_briscola_chiamata`` (the ``python_`` prefix is
OpenSpiel's convention for games written in Python). It needs the ``openspiel`` extra
(``pip install calabresella[openspiel]``).

>>> import pyspiel
>>> import calabresella.openspiel
>>> game = pyspiel.load_game("python_calabresella", {"players": 4})

An OpenSpiel episode is one hand. Chance is explicit, as OpenSpiel's card games have it: the
first chance node draws the dealer (uniformly among the seats), then every card is dealt one
chance node at a time (uniformly among the cards left): the hands in seat order, then the monte
(Calabresella) or the stock (Tressette in Due) in the order it is drawn. Chance outcomes are card
ids 0-39 (:data:`DECK` order); player actions are the engine's action ids (``NUM_ACTIONS`` of
them, the same ids the environments use).

Parameters: ``players`` (the seats) and ``options``, the other rule options as text,
``"key:value"`` pairs separated by ``;`` (``"aperta:true;stramazzo:false"``; ``=`` and spaces
are accepted too when the game is loaded with a parameter dict), the same options
:func:`calabresella.new_hand` takes as keyword arguments. :func:`load` builds the parameters from
keyword arguments.

Returns are each seat's points for the hand (:meth:`calabresella.State.returns`): the hand's
award in Calabresella, the side's points (cards and accusi) in Tressette, the payout in the
Chiamata games. Observations are the engine's: the observation tensor (``OBSERVATION_SIZE``)
and, with perfect recall, the information-state tensor (``INFORMATION_STATE_SIZE``); the
information-state string is what the seat has seen of the hand (its events, hidden parts as
``??``), so two histories a seat cannot tell apart give it the same string.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyspiel

from calabresella import _core

RANKS = "32AKCF7654"
"""Card ranks in notation order (``K`` re, ``C`` cavallo, ``F`` fante)."""

SUITS = "bcds"
"""Suits: bastoni, coppe, denari, spade."""

DECK = tuple(r + s for s in SUITS for r in RANKS)
"""The 40 cards; a chance outcome is an index into this tuple."""

_CARD_ID = {c: i for i, c in enumerate(DECK)}

GAMES = {g: "python_" + g.replace("-", "_") for g in _core.GAME_NAMES}
"""Engine game name -> the OpenSpiel short name it is registered under."""

# A hand's longest decision sequence stays far below this in every game (the longest auction,
# Briscola Chiamata's points ladder, has 60 steps); OpenSpiel needs an upper bound, not the max.
_MAX_GAME_LENGTH = 400


# Keywords of `new_hand` that are not rule options: chance decides them here.
_RESERVED = frozenset({"seed", "dealer", "deal", "monte", "stock"})


def _seat_range(game: str) -> list[int]:
    """The numbers of players the engine accepts for ``game``."""
    ok = []
    for n in range(2, 8):
        try:
            _core.State.new_hand(game, seed=0, players=n)
        except _core.CalabresellaError:
            continue
        ok.append(n)
    return ok


def parse_options(text: str) -> dict[str, Any]:
    """Rule options from ``"key=value;key=value"`` text (also ``:`` for ``=``, and spaces or
    commas between pairs): ``true``/``false`` become booleans and integers become ints."""
    out: dict[str, Any] = {}
    for pair in re.split(r"[;,\s]+", text.strip()):
        if not pair:
            continue
        m = re.fullmatch(r"([^=:]+)[=:](.+)", pair)
        if m is None:
            raise _core.NotationError(f"option {pair!r}: write key=value")
        key, value = m.group(1), m.group(2)
        low = value.lower()
        if low in ("true", "false"):
            out[key] = low == "true"
        elif re.fullmatch(r"-?\d+", value):
            out[key] = int(value)
        else:
            out[key] = value
    return out


def format_options(options: dict[str, Any]) -> str:
    """Rule options as the ``options`` parameter's text: ``key:value`` pairs joined by ``;``
    (the form that survives OpenSpiel's game strings, whose parser owns ``=`` and ``,``)."""
    return ";".join(
        f"{k}:{str(v).lower() if isinstance(v, bool) else v}" for k, v in options.items()
    )


@dataclass(frozen=True)
class _Shape:
    """How a hand is dealt for one dealer: cards per seat, then the rest."""

    hand_sizes: tuple[int, ...]
    rest: int


class CalabresellaGame(pyspiel.Game):  # type: ignore[misc]
    """One engine game as an OpenSpiel game (one hand per episode)."""

    def __init__(self, game: str, game_type: Any, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        default_players = _core.State.new_hand(game, seed=0).num_players
        try:
            players = int(params.get("players", default_players))
        except (TypeError, ValueError):
            raise _core.NotationError(
                f"players is a number of seats, not {params.get('players')!r}"
            ) from None
        options = parse_options(str(params.get("options", "")))
        if "players" in options:
            raise _core.NotationError("give players as its own parameter, not in options")
        reserved = sorted(_RESERVED & set(options))
        if reserved:
            raise _core.NotationError(
                f"{', '.join(reserved)}: not a rule option (chance deals the cards and draws "
                "the dealer)"
            )
        self.engine_game = game
        """The engine's name of the game."""
        self.options: dict[str, Any] = {"players": players, **options}
        """The rule options every hand is played with."""
        # Refuses options the engine does not know, with its message, before OpenSpiel sees them.
        _core.State.new_hand(game, seed=0, **self.options)
        self.shapes = []
        """Per dealer: the hand sizes and the cards left over (monte or stock)."""
        for dealer in range(players):
            sizes = tuple(
                _core.State.new_hand(game, seed=0, dealer=dealer, **self.options)
                .public_observation()
                .hand_sizes
            )
            self.shapes.append(_Shape(sizes, len(DECK) - sum(sizes)))
        # The game's own declaration: zero-sum or not, one hand's least and greatest award.
        facts = _core.game_facts(game, **self.options)
        info = pyspiel.GameInfo(
            num_distinct_actions=facts["distinct_actions"],
            max_chance_outcomes=len(DECK),
            num_players=players,
            min_utility=float(facts["min_hand_award"]),
            max_utility=float(facts["max_hand_award"]),
            utility_sum=0.0 if facts["zero_sum"] else None,
            max_game_length=_MAX_GAME_LENGTH,
        )
        super().__init__(
            game_type, info, {"players": players, "options": str(params.get("options", ""))}
        )

    def new_initial_state(self) -> CalabresellaState:
        """A hand before the dealer is drawn."""
        return CalabresellaState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> CalabresellaObserver:
        """The observer OpenSpiel asks for: the observation tensor, or with perfect recall the
        information-state tensor."""
        return CalabresellaObserver(
            iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params
        )


class CalabresellaState(pyspiel.State):  # type: ignore[misc]
    """A hand being dealt (chance nodes) or played (the engine's :class:`~calabresella.State`)."""

    def __init__(self, game: CalabresellaGame) -> None:
        super().__init__(game)
        self.dealer: int | None = None
        """The dealer, once chance has drawn one."""
        self.dealt: list[int] = []
        """Card ids dealt so far, in deal order."""
        self.engine: _core.State | None = None
        """The engine's state once every card is dealt (hidden information: for referees)."""

    @property
    def _g(self) -> CalabresellaGame:
        # Not an attribute: OpenSpiel clones a Python state by deep-copying its attributes.
        game: CalabresellaGame = self.get_game()
        return game

    def _shape(self) -> _Shape:
        assert self.dealer is not None
        return self._g.shapes[self.dealer]

    def current_player(self) -> int:
        """The deciding seat, ``CHANCE`` while dealing, ``TERMINAL`` when the hand is over."""
        if self.engine is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.engine.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return self.engine.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        assert self.engine is not None and player == self.engine.current_player()
        return sorted(self.engine.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The dealer (any seat), then any card not dealt yet, all equally likely."""
        if self.dealer is None:
            n = self._g.num_players()
            return [(s, 1.0 / n) for s in range(n)]
        left = sorted(set(range(len(DECK))) - set(self.dealt))
        return [(c, 1.0 / len(left)) for c in left]

    def _apply_action(self, action: int) -> None:
        if self.engine is not None:
            self.engine.apply_action(action)
            return
        # A chance outcome that chance_outcomes() does not offer is refused, changing nothing.
        if self.dealer is None:
            if not 0 <= action < self._g.num_players():
                raise _core.IllegalActionError(
                    f"dealer {action}: the dealer is a seat, 0 to {self._g.num_players() - 1}"
                )
            self.dealer = action
            return
        if not 0 <= action < len(DECK) or action in self.dealt:
            raise _core.IllegalActionError(
                f"deal {action}: a card id 0 to 39 not dealt yet is expected"
            )
        self.dealt.append(action)
        if len(self.dealt) == len(DECK):
            self._start()

    def _start(self) -> None:
        """Hands the complete deal to the engine."""
        shape = self._shape()
        cards = [DECK[c] for c in self.dealt]
        hands, at = [], 0
        for size in shape.hand_sizes:
            hands.append(cards[at : at + size])
            at += size
        rest = cards[at:]
        key = "stock" if self._g.engine_game == "tressette-in-due" else "monte"
        extra: dict[str, Any] = {key: rest} if rest else {}
        self.engine = _core.State.new_hand(
            self._g.engine_game, dealer=self.dealer, deal=hands, **extra, **self._g.options
        )

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self.dealer is None:
                return f"dealer {action}"
            return f"deal {DECK[action]}"
        if self.engine is None:
            return f"action {action}"
        return self.engine.action_to_string(action)

    def is_terminal(self) -> bool:
        """Whether the hand is over."""
        return self.engine is not None and self.engine.is_terminal()

    def returns(self) -> list[float]:
        """Each seat's points for the hand (zero until it is scored)."""
        if not self.is_terminal():
            return [0.0] * self._g.num_players()
        assert self.engine is not None
        return [float(r) for r in self.engine.returns()]

    def dealt_to(self, seat: int) -> list[str]:
        """The cards dealt to ``seat`` so far (while dealing)."""
        if self.dealer is None:
            return []
        sizes = self._shape().hand_sizes
        start = sum(sizes[:seat])
        return [DECK[c] for c in self.dealt[start : start + sizes[seat]]]

    def __str__(self) -> str:
        if self.engine is not None:
            return str(self.engine)
        if self.dealer is None:
            return "drawing the dealer"
        return f"dealer {self.dealer}, dealt: {' '.join(DECK[c] for c in self.dealt)}"


class CalabresellaObserver:
    """OpenSpiel's observer interface (``tensor``, ``dict``, ``set_from``, ``string_from``) over
    the engine's per-seat observation: only what that seat may see."""

    def __init__(self, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not (
            iig_obs_type.public_info
        ):
            raise ValueError("only the seat's own view (public and its private information)")
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        # The information state is the observation followed by what the seat remembers.
        layout = list(_core.OBSERVATION_LAYOUT)
        if self.perfect_recall:
            layout += _core.INFORMATION_STATE_LAYOUT
        size = _core.INFORMATION_STATE_SIZE if self.perfect_recall else _core.OBSERVATION_SIZE
        self.tensor = np.zeros(size, np.float32)
        self.dict = {name: self.tensor[at : at + n] for name, at, n in layout}

    def set_from(self, state: CalabresellaState, player: int) -> None:
        """Fills ``tensor`` with ``player``'s view of ``state`` (zeros while dealing)."""
        if state.engine is None:
            self.tensor.fill(0.0)
        elif self.perfect_recall:
            self.tensor[:] = state.engine.information_state_tensor(player)
        else:
            state.engine.observation_tensor(player, out=self.tensor)

    def string_from(self, state: CalabresellaState, player: int) -> str:
        """``player``'s view as text: with perfect recall every event it has seen this hand."""
        if state.engine is None:
            return f"seat {player} dealt {' '.join(state.dealt_to(player))}"
        obs = state.engine.observation(player)
        if self.perfect_recall:
            return f"seat {player}\n" + "\n".join(obs.events)
        parts = [
            f"seat {player}",
            f"phase {obs.phase}",
            f"actor {obs.actor}",
            f"hand {' '.join(obs.hand)}",
            *(f"seat {s} shows {' '.join(c)}" for s, c in sorted(obs.visible_hands.items())),
            f"trick {' '.join(f'{s}:{c}' for s, c in obs.trick)}",
            f"tricks {obs.tricks_done}",
        ]
        for name in ("bid", "contract", "trump", "called", "target", "partner", "role"):
            value = getattr(obs, name)
            if value is not None:
                parts.append(f"{name} {value}")
        return "; ".join(parts)


def _register(game: str) -> None:
    seats = _seat_range(game)
    default_players = _core.State.new_hand(game, seed=0).num_players
    zero_sum = _core.game_facts(game)["zero_sum"]
    game_type = pyspiel.GameType(
        short_name=GAMES[game],
        long_name=f"{game} (calabresella engine)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=(
            pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM
        ),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(seats),
        min_num_players=min(seats),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": default_players, "options": ""},
    )

    # A class, not a closure: pyspiel keeps the factory in a C++ registry that outlives the
    # interpreter, and a Python function left there aborts the interpreter at exit.
    def init(self: CalabresellaGame, params: dict[str, Any] | None = None) -> None:
        CalabresellaGame.__init__(self, game, game_type, params)

    name = "Game_" + GAMES[game]
    cls = type(
        name,
        (CalabresellaGame,),
        {"__init__": init, "__doc__": f"{game} as an OpenSpiel game.", "__module__": __name__},
    )
    # A module attribute, so that pickle finds the class by its name.
    globals()[name] = cls
    pyspiel.register_game(game_type, cls)


def utility_range(game: Any) -> float:
    """The widest swing of one hand's points (``max_utility - min_utility``), the scale to give
    OpenSpiel's search constants such as MCTS's ``uct_c``."""
    return float(game.max_utility() - game.min_utility())


def load(game: str = "calabresella", **options: Any) -> Any:
    """The OpenSpiel game for an engine game and rule options (``players=4``, ``aperta=True``).

    >>> game = load("tressette-in-due")
    >>> game.num_players()
    2
    """
    if game not in GAMES:
        raise _core.NotationError(f"unknown game {game!r}: one of {', '.join(GAMES)}")
    params: dict[str, Any] = {}
    if "players" in options:
        params["players"] = options.pop("players")
    if options:
        params["options"] = format_options(options)
    return pyspiel.load_game(GAMES[game], params)


for _game in _core.GAME_NAMES:
    if GAMES[_game] not in pyspiel.registered_names():
        _register(_game)

__all__ = [
    "DECK",
    "GAMES",
    "RANKS",
    "SUITS",
    "CalabresellaGame",
    "CalabresellaObserver",
    "CalabresellaState",
    "format_options",
    "load",
    "parse_options",
    "utility_range",
]
