"""The OpenSpiel adapter: OpenSpiel's own API checks on every game and option set, the deal as
chance nodes, no hidden information in a seat's view, and OpenSpiel's algorithms running."""

from __future__ import annotations

import importlib.util
import pickle
import random
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python import rl_environment

import calabresella as cb
import calabresella.openspiel as cos
from calabresella import _core

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _deal_out(state: Any, rng: random.Random) -> None:
    while state.is_chance_node():
        outcomes = [a for a, _ in state.chance_outcomes()]
        state.apply_action(rng.choice(outcomes))


def test_every_game_is_registered() -> None:
    names = set(pyspiel.registered_names())
    for game in cb.GAMES:
        assert cos.GAMES[game] in names
        assert cos.load(game).get_type().short_name == cos.GAMES[game]


@pytest.mark.parametrize("game", sorted(cos.GAMES))
def test_random_simulations_pass_openspiel_checks(game: str) -> None:
    # OpenSpiel's own checks: legal actions, chance outcomes, clones, tensor sizes, returns
    # within the utility bounds and summing as the utility type says.
    pyspiel.random_sim_test(cos.load(game), num_sims=8, serialize=False, verbose=False)


@pytest.mark.parametrize("game, options", _core.option_sets())
def test_random_simulation_on_every_option_set(game: str, options: dict[str, Any]) -> None:
    loaded = cos.load(game, **options)
    pyspiel.random_sim_test(loaded, num_sims=1, serialize=False, verbose=False)


@pytest.mark.parametrize("game", sorted(cos.GAMES))
def test_the_deal_is_chance_nodes_the_engine_receives(game: str) -> None:
    loaded = cos.load(game)
    n = loaded.num_players()
    state = loaded.new_initial_state()
    assert state.current_player() == pyspiel.PlayerId.CHANCE
    first = state.chance_outcomes()
    assert [a for a, _ in first] == list(range(n))
    assert all(p == pytest.approx(1 / n) for _, p in first)
    state.apply_action(n - 1)
    dealt: list[int] = []
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert sorted(a for a, _ in outcomes) == sorted(set(range(40)) - set(dealt))
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        dealt.append(outcomes[len(outcomes) // 2][0])
        state.apply_action(dealt[-1])
    assert len(dealt) == 40
    engine = state.engine
    assert engine is not None
    assert engine.public_observation().dealer == n - 1
    at = 0
    for seat in range(n):
        hand = engine.observation(seat).hand
        assert sorted(hand) == sorted(cos.DECK[c] for c in dealt[at : at + len(hand)])
        at += len(hand)


def test_chance_outcomes_that_are_not_offered_are_refused() -> None:
    state = cos.load("calabresella", players=4).new_initial_state()
    with pytest.raises(cb.IllegalActionError, match="dealer"):
        state.apply_action(4)
    state.apply_action(1)
    for bad in (40, 99):
        with pytest.raises(cb.IllegalActionError, match="card id"):
            state.apply_action(bad)
    state.apply_action(3)
    with pytest.raises(cb.IllegalActionError, match="not dealt yet"):
        state.apply_action(3)
    assert state.dealt == [3] and state.dealer == 1


def test_games_and_states_pickle() -> None:
    game = cos.load("calabresella", players=4, aperta=True)
    again = pickle.loads(pickle.dumps(game))
    assert str(again) == str(game) and again.num_players() == 4
    state = game.new_initial_state()
    _deal_out(state, random.Random(1))
    copy_ = pickle.loads(pickle.dumps(state))
    assert copy_.history() == state.history()
    assert copy_.information_state_string(2) == state.information_state_string(2)


def test_a_seat_sees_only_its_own_cards() -> None:
    # Two deals where seat 0 holds the same cards and the others' cards are swapped: seat 0's
    # strings and tensors agree, seat 1's differ.
    game = cos.load("calabresella")
    a = game.new_initial_state()
    b = game.new_initial_state()
    order = list(range(40))
    random.Random(5).shuffle(order)
    swapped = order[:12] + order[24:36] + order[12:24] + order[36:]
    for state, cards in ((a, order), (b, swapped)):
        state.apply_action(0)
        for c in cards:
            state.apply_action(c)
    for perfect_recall in (False, True):
        observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=perfect_recall))
        observer.set_from(a, 0)
        seen_a = observer.tensor.copy()
        observer.set_from(b, 0)
        np.testing.assert_array_equal(seen_a, observer.tensor)
        assert observer.string_from(a, 0) == observer.string_from(b, 0)
        assert observer.string_from(a, 1) != observer.string_from(b, 1)
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.observation_tensor(0) == b.observation_tensor(0)
    assert a.information_state_tensor(1) != b.information_state_tensor(1)
    # While dealing, a seat's string shows its own cards so far and nothing else.
    c = game.new_initial_state()
    c.apply_action(0)
    for card in order[:14]:
        c.apply_action(card)
    assert c.information_state_string(0).split()[3:] == [cos.DECK[x] for x in order[:12]]
    assert c.information_state_string(1).split()[3:] == [cos.DECK[x] for x in order[12:14]]


def test_returns_are_the_engines_points() -> None:
    rng = random.Random(2)
    for game in cb.GAMES:
        state = cos.load(game).new_initial_state()
        _deal_out(state, rng)
        while not state.is_terminal():
            assert state.returns() == [0.0] * state.num_players()
            state.apply_action(rng.choice(state.legal_actions()))
        assert state.engine is not None
        assert state.returns() == state.engine.returns()


def test_options_are_checked() -> None:
    assert cos.parse_options("aperta=true; stramazzo:false target=31") == {
        "aperta": True,
        "stramazzo": False,
        "target": 31,
    }
    with pytest.raises(cb.NotationError, match="key=value"):
        cos.parse_options("aperta")
    with pytest.raises(cb.NotationError, match="players"):
        pyspiel.load_game("python_calabresella", {"options": "players=4"})
    with pytest.raises(cb.CalabresellaError):
        pyspiel.load_game("python_calabresella", {"options": "no_such_option=1"})
    with pytest.raises(cb.CalabresellaError):
        pyspiel.load_game("python_tressette", {"players": 3})
    with pytest.raises(cb.NotationError, match="unknown game"):
        cos.load("scopa")
    # What chance decides is not an option.
    for reserved in ("seed:3", "dealer:1", "monte:4b", "deal:x", "stock:3b"):
        with pytest.raises(cb.NotationError, match="not a rule option"):
            pyspiel.load_game("python_calabresella", {"options": reserved})
    with pytest.raises(cb.NotationError, match="not a rule option"):
        cos.load("calabresella", seed=3)
    # Tighter bounds where an option rules points out.
    assert cos.load("tressette", accusi=False).max_utility() == 11
    assert cos.load("briscola-chiamata", bid_multiplier=False).max_utility() == 8
    four = cos.load("calabresella", players=4, aperta=True)
    assert four.num_players() == 4
    assert four.get_parameters() == {"players": 4, "options": "aperta:true"}
    # The game string round-trips through OpenSpiel's parser.
    again = pyspiel.load_game(str(cos.load("calabresella", aperta=True, max_deals=3)))
    assert again.get_parameters()["options"] == "aperta:true;max_deals:3"


def test_the_rl_environment_plays_a_hand() -> None:
    env = rl_environment.Environment(cos.load("tressette-in-due"), seed=3)
    rng = random.Random(3)
    step = env.reset()
    total = [0.0, 0.0]
    while not step.last():
        player = step.observations["current_player"]
        legal = step.observations["legal_actions"][player]
        assert len(step.observations["info_state"][player]) == _core.INFORMATION_STATE_SIZE
        step = env.step([rng.choice(legal)])
        total = [t + r for t, r in zip(total, step.rewards, strict=True)]
    assert total == env.get_state.returns()


def test_openspiel_mcts_plays_through_the_adapter() -> None:
    spec = importlib.util.spec_from_file_location("openspiel_mcts", EXAMPLES / "openspiel_mcts.py")
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    result = example.play("tressette-in-due", deals=2, simulations=20, seed=1)
    assert result["deals"] == 2
    assert np.isfinite(result["margin"])
    lo, hi = result["margin_ci95"]
    assert lo <= result["margin"] <= hi
    # Both bots scored something over four hands of Tressette in Due (11 points a hand).
    assert result["mcts_points_per_hand"] + result["heuristic_points_per_hand"] >= 11
