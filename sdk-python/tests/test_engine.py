"""The in-process engine API on every game: invariants over random play, records, clones."""

from __future__ import annotations

import contextlib
import copy
import functools
import json
import pickle
import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import calabresella as cb

# Every registered game with its defaults, then option sets worth a look of their own.
GAMES: list[tuple[str, dict[str, Any]]] = [(g, {}) for g in cb.GAMES] + [
    ("calabresella", {"players": 4}),
    ("calabresella", {"aperta": True}),
    ("calabresella", {"a_due": True}),
    ("calabresella", {"preset": "terziglio", "only_chiamo": True}),
]


# The calling games: zero-sum payouts and a fixed number of hands instead of a target.
CALLING = ("tressette-chiamata", "briscola-chiamata")


def short(game: str) -> dict[str, Any]:
    """Options for a short match of `game`."""
    return {"hands": 2} if game in CALLING else {"target": 5}


def check_state(s: cb.State) -> None:
    """Invariants at one step: legal ids, strings and the mask agree; the decider's observation
    has the same legal actions; every seat's observation reads the same from the engine (the
    fast fields of an in-process observation) as from its wire form (a pickled copy, which
    parses the full view)."""
    ids = s.legal_actions()
    names = s.legal_action_strings()
    assert len(ids) == len(names) == len(set(ids))
    mask = s.legal_actions_mask()
    assert mask.dtype == np.bool_ and mask.shape == (cb.NUM_ACTIONS,)
    assert sorted(np.flatnonzero(mask).tolist()) == sorted(ids)
    for i, n in zip(ids, names, strict=True):
        assert s.action_to_string(i) == n
        assert s.string_to_action(n) == i
    player = s.current_player()
    if s.is_terminal():
        assert player == cb.TERMINAL and ids == []
        return
    assert ids, "a live state always has a legal action"
    obs = s.observation()
    assert obs.viewer == player and obs.decider == player
    assert obs.legal_actions == ids
    for seat in range(s.num_players):
        fast = s.observation_tensor(seat)
        mine = s.observation(seat)
        wire = pickle.loads(pickle.dumps(mine))
        assert fast.dtype == np.float32 and fast.shape == (cb.OBSERVATION_SIZE,)
        np.testing.assert_array_equal(fast, mine.tensor())
        np.testing.assert_array_equal(fast, wire.tensor())
        assert mine.hand == wire.hand
        assert mine.legal_actions == wire.legal_actions
        assert mine.legal_action_strings == wire.legal_action_strings
        np.testing.assert_array_equal(mine.legal_actions_mask(), wire.legal_actions_mask())
        for a in mine.legal_actions:
            assert mine.action_to_string(a) == wire.action_to_string(a)
            assert wire.string_to_action(mine.action_to_string(a)) == a
        np.testing.assert_array_equal(
            mine.information_state_tensor(), wire.information_state_tensor()
        )
        assert mine == wire
        assert fast.min() >= 0.0 and fast.max() <= 1.0
        if seat != player:
            assert mine.legal_actions == []
    public = s.public_observation()
    np.testing.assert_array_equal(public.tensor(), pickle.loads(pickle.dumps(public)).tensor())
    info = s.information_state_tensor()
    assert info.shape == (cb.INFORMATION_STATE_SIZE,)
    np.testing.assert_array_equal(info[: cb.OBSERVATION_SIZE], s.observation_tensor())


@functools.cache
def deck() -> tuple[str, ...]:
    """Card names by the engine's card index, read from the `play` action ids."""
    names = cb.new_hand("calabresella", seed=0)
    plays = []
    for i in range(cb.NUM_ACTIONS):
        with contextlib.suppress(cb.CalabresellaError):
            words = names.action_to_string(i).split()
            if words[0] == "play" and len(words) == 2:
                plays.append(words[1])
    assert len(set(plays[:40])) == 40
    return tuple(plays[:40])


def decode_blocks(tensor: np.ndarray) -> dict[str, Any]:
    """The observation tensor's card blocks and counts read back by `OBSERVATION_LAYOUT`, with
    cards named by the engine's card index (an encoder independent of the one under test)."""
    layout = {name: (at, n) for name, at, n in cb.OBSERVATION_LAYOUT}

    def cards(name: str, k: int = 0) -> set[str]:
        at, _ = layout[name]
        block = tensor[at + 40 * k : at + 40 * (k + 1)]
        assert set(np.unique(block).tolist()) <= {0.0, 1.0}
        return {deck()[i] for i in np.flatnonzero(block)}

    at, _ = layout["hand_sizes"]
    return {
        "hand": cards("hand"),
        "visible": [cards("visible_hands", k) for k in range(4)],
        "trick": [cards("trick", k) for k in range(5)],
        "called": cards("called"),
        "played": cards("played"),
        "hand_sizes": (tensor[at : at + 5] * 16).round().astype(int).tolist(),
    }


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_the_observation_tensor_holds_what_the_observation_shows(
    game: str, options: dict[str, Any]
) -> None:
    rng = random.Random(5)
    for seed in range(3):
        s = cb.new_hand(game, seed=seed, **options)
        played: set[str] = set()
        while not s.is_terminal():
            # The cards won so far only grow, and none of them is in a hand or on the table.
            now = decode_blocks(s.observation_tensor(0))["played"]
            assert played <= now
            played = now
            for seat in range(s.num_players):
                o = s.observation(seat)
                got = decode_blocks(s.observation_tensor(seat))
                n = s.num_players

                def rel(x: int, seat: int = seat, n: int = n) -> int:
                    return (x - seat) % n

                assert got["hand"] == set(o.hand)
                for k in range(4):
                    shown = {c for x, h in o.visible_hands.items() if rel(x) == k + 1 for c in h}
                    assert got["visible"][k] == shown
                for k in range(5):
                    assert got["trick"][k] == {c for x, c in o.trick if rel(x) == k}
                assert got["called"] == ({o.called} if o.called else set())
                assert got["played"] == played
                assert not played & (set(o.hand) | {c for _, c in o.trick})
                sizes = [0] * 5
                for x, size in enumerate(o.hand_sizes):
                    sizes[rel(x)] = size
                assert got["hand_sizes"] == sizes
            s.apply_action(rng.choice(s.legal_actions()))


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_random_hands_keep_every_invariant(game: str, options: dict[str, Any]) -> None:
    rng = random.Random(11)
    for seed in range(6):
        s = cb.new_hand(game, seed=seed, **options)
        steps = 0
        while not s.is_terminal():
            check_state(s)
            before = s.clone()
            illegal = next(a for a in range(cb.NUM_ACTIONS) if a not in s.legal_actions())
            with pytest.raises(cb.CalabresellaError):
                s.apply_action(illegal)
            assert s == before, "a refused action changes nothing"
            s.apply_action(rng.choice(s.legal_actions()))
            steps += 1
        check_state(s)
        assert steps > 0
        returns = s.returns()
        assert len(returns) == s.num_players
        if game in CALLING:
            # The calling games pay zero-sum: the caller's side against the defenders.
            assert sum(returns) == 0 and any(r != 0 for r in returns)
        else:
            assert min(returns) >= 0


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), game=st.sampled_from([g for g, _ in GAMES]))
def test_matches_end_and_records_round_trip(seed: int, game: str) -> None:
    s = cb.new_match(game, seed=seed, **short(game))
    rng = random.Random(seed)
    while not s.is_terminal():
        s.apply_action(rng.choice(s.legal_actions()))
    assert s.winners() is not None
    text = s.to_record({"seed": seed})
    record = json.loads(text)
    assert record["game"] == game and record["meta"] == {"seed": seed}
    back = cb.load_record(text)
    assert back == s and back.returns() == s.returns() and back.is_terminal()


def test_seeds_are_deterministic_and_clones_independent() -> None:
    a = cb.new_match("calabresella", seed=99)
    b = cb.new_match("calabresella", seed=99)
    assert a == b and a.observation(0) == b.observation(0)
    c = copy.deepcopy(a)
    a.apply_action(a.legal_actions()[0])
    assert c == b and c != a


def test_explicit_deal_and_hand_checked_example() -> None:
    # Seat 0 holds every card of bastoni and coppe it can: a hand-checked deal.
    hands = [
        ["3b", "2b", "Ab", "Kb", "Cb", "Fb", "7b", "6b", "5b", "4b", "3c", "2c"],
        ["Ac", "Kc", "Cc", "Fc", "7c", "6c", "5c", "4c", "3d", "2d", "Ad", "Kd"],
        ["Cd", "Fd", "7d", "6d", "5d", "4d", "3s", "2s", "As", "Ks", "Cs", "Fs"],
    ]
    s = cb.new_hand(deal=hands, monte=["7s", "6s", "5s", "4s"], dealer=2)
    assert s.observation(0).hand == hands[0]
    assert s.current_player() == 0, "eldest hand (right of the dealer) bids first"
    assert s.legal_action_strings()[0] == "pass"
    s.apply_action("bid solissimo")
    assert s.observation(1).highest_bid == (0, "solissimo")
    with pytest.raises(cb.NotationError):
        cb.new_hand(deal=hands, monte=["7s", "6s", "5s"])
    with pytest.raises(cb.NotationError):
        cb.new_hand(deal=[hands[0], hands[0], hands[2]], monte=["7s", "6s", "5s", "4s"])


def test_hidden_cards_never_reach_another_seat() -> None:
    # Re-deal what seat 0 cannot see: its observation must not change.
    s = cb.new_hand(seed=5)
    obs0 = s.observation(0)
    mine = set(obs0.hand)
    rest = [c for h in (s.observation(1).hand, s.observation(2).hand) for c in h]
    other_deal = [obs0.hand, rest[12:], rest[:12]]
    monte = [c for c in _deck() if c not in mine and c not in rest]
    t = cb.new_hand(deal=other_deal, monte=monte, dealer=obs0.dealer)
    assert t.observation(0).hand == obs0.hand
    np.testing.assert_array_equal(t.observation_tensor(0), s.observation_tensor(0))
    assert t.observation(0).events == obs0.events


def _deck() -> list[str]:
    return [r + s for s in "bcds" for r in ["3", "2", "A", "K", "C", "F", "7", "6", "5", "4"]]


def test_observation_fields_are_python_values() -> None:
    s = cb.new_hand("tressette", seed=3)
    o = s.observation()
    assert o.game == "tressette" and o.num_players == 4 and o.phase == "play"
    assert len(o.hand) == 10 and all(isinstance(c, str) for c in o.hand)
    assert o.legal_action_strings[0].startswith("play ")
    s.apply_action(o.legal_actions[0])
    o2 = s.observation()
    assert len(o2.trick) == 1 and o2.trick[0][0] == o.viewer
    assert "Observation(" in repr(o2)
    assert s.public_observation().hand == []


@pytest.mark.parametrize("game", cb.GAMES)
def test_a_seeded_hand_is_the_first_hand_of_the_seeded_match(game: str) -> None:
    for seed in range(5):
        hand = cb.new_hand(game, seed=seed)
        match = cb.new_match(game, seed=seed)
        for seat in range(hand.num_players):
            assert hand.observation(seat) == match.observation(seat)
        while not hand.is_terminal():
            a = hand.legal_actions()[0]
            hand.apply_action(a)
            match.apply_action(a)
        assert hand.hand_number == 0 and len(hand.history()) > 0


def test_observe_into_matches_the_separate_calls() -> None:
    obs = np.zeros(cb.OBSERVATION_SIZE, dtype=np.float32)
    mask = np.zeros(cb.NUM_ACTIONS, dtype=np.bool_)
    for game in ("calabresella", "tressette"):
        s = cb.new_hand(game, seed=9)
        while not s.is_terminal():
            legal = s.observe_into(obs, mask)
            assert legal == s.legal_actions()
            np.testing.assert_array_equal(obs, s.observation_tensor())
            np.testing.assert_array_equal(mask, s.legal_actions_mask())
            s.apply_action(legal[-1])
    with pytest.raises(cb.NotationError):
        s.observe_into(np.zeros(3, dtype=np.float32), mask)


def test_the_information_state_records_accusi_declared() -> None:
    # Tressette: an accuso shows cards; the information state marks them for the declarer's
    # seat (relative to the viewer) in its `accusi` block, from every seat's view.
    layout = {name: (at, n) for name, at, n in cb.INFORMATION_STATE_LAYOUT}
    at, size = layout["accusi"]
    found = 0
    for seed in range(40):
        s = cb.new_hand("tressette-in-due", seed=seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            s.apply_action(rng.choice(s.legal_actions()))
        for viewer in range(s.num_players):
            declared = [e for e in s.observation(viewer).events if " declares " in e]
            block = s.information_state_tensor(viewer)[at : at + size]
            assert bool(block.any()) == bool(declared), (seed, viewer, declared)
            found += bool(declared)
    assert found > 0, "no accuso was declared in 40 hands"


def test_take_ids_still_name_cards_after_a_scegliete_hand() -> None:
    # The open monte of a finished scegliete hand: an in-process observation and its pickled
    # (wire) copy name `take` ids alike.
    s = cb.new_hand("calabresella", seed=1)
    s.apply_action("bid scegliete")
    while not s.is_terminal():
        s.apply_action(s.legal_actions()[0])
    for seat in range(3):
        o = s.observation(seat)
        copy_ = pickle.loads(pickle.dumps(o))
        for take in range(6, 22):
            assert o.action_to_string(take) == copy_.action_to_string(take)


def test_each_game_declares_its_own_facts() -> None:
    """Zero-sum or not and the bounds of one hand's award come from the engine, for every game
    and option set; the engine's sweep checks that every hand keeps within them."""
    calling = {"tressette-chiamata", "briscola-chiamata"}
    for game, options in cb._core.option_sets():
        facts = cb.game_facts(game, **options)
        assert facts["zero_sum"] == (game in calling), (game, options)
        assert facts["distinct_actions"] == cb.NUM_ACTIONS
        low, high = facts["min_hand_award"], facts["max_hand_award"]
        assert (low == -high) if facts["zero_sum"] else (low == 0 < high), (game, options, facts)
    assert cb.game_facts("calabresella", stramazzo=False)["max_hand_award"] == 32
    assert cb.game_facts("calabresella")["max_hand_award"] == 48
    assert cb.game_facts("tressette", accusi=False)["max_hand_award"] == 11
    with pytest.raises(cb.NotationError):
        cb.game_facts("no-such-game")
    with pytest.raises(cb.NotationError):
        cb.game_facts("tressette", no_such_option=1)
