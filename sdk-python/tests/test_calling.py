"""The calling games from Python: the secret partner in every observation and tensor, the
public facts (caller, bid, trump, target), zero-sum returns and five-seat batches."""

from __future__ import annotations

import random

import numpy as np
import pytest

import calabresella as cb
from calabresella.envs import VectorEnv

CALLING = ["tressette-chiamata", "briscola-chiamata"]


def play_to_the_call(s: cb.State, rng: random.Random) -> None:
    """Random actions until a card has been called (re-dealing after void deals)."""
    while s.observation().called is None:
        assert not s.is_terminal()
        s.apply_action(rng.choice(s.legal_actions()))


@pytest.mark.parametrize("game", CALLING)
def test_only_the_holder_knows_the_partner_until_the_called_card_is_played(game: str) -> None:
    rng = random.Random(4)
    revealed = 0
    for seed in range(20):
        s = cb.new_match(game, seed=seed)
        play_to_the_call(s, rng)
        first = s.observation(0)
        called, caller = first.called, first.soloist
        assert called is not None and caller is not None
        holder = next(p for p in range(5) if called in s.observation(p).hand)
        while not s.is_terminal():
            views = [s.observation(p) for p in range(5)]
            if views[0].hand_number != first.hand_number:
                break  # the called card came out in the hand's last trick
            if any(f"plays {called}" in e for e in views[0].events):
                # Once the called card is out the partnership is public to all.
                alone = holder == caller
                assert all(v.partner == (None if alone else holder) for v in views)
                assert all(v.alone == alone for v in views)
                revealed += 1
                break
            for p, o in enumerate(views):
                if p == holder and p != caller:
                    assert o.partner == p and o.role == "partner"
                else:
                    assert o.partner is None, f"seat {p} may not know the partner yet"
                    assert o.role in ("caller", "caller_alone", "defender")
                assert o.soloist == caller and o.called == called
            s.apply_action(rng.choice(s.legal_actions()))
    assert revealed >= 15


def test_briscola_observations_name_the_trump_and_the_target() -> None:
    rng = random.Random(9)
    s = cb.new_match("briscola-chiamata", seed=2)
    play_to_the_call(s, rng)
    o = s.observation(0)
    assert o.called is not None and o.trump == o.called[-1]
    assert o.target is not None and 61 <= o.target <= 120
    assert o.bid is not None and o.highest_bid is not None


@pytest.mark.parametrize("game", CALLING)
def test_matches_pay_zero_sum_and_end_after_the_fixed_number_of_hands(game: str) -> None:
    rng = random.Random(1)
    s = cb.new_match(game, seed=5, hands=3)
    while not s.is_terminal():
        s.apply_action(rng.choice(s.legal_actions()))
    returns = s.returns()
    assert len(returns) == 5 and sum(returns) == 0
    winners = s.winners()
    assert winners and all(returns[w] == max(returns) for w in winners)


@pytest.mark.parametrize("game", CALLING)
def test_batches_have_a_reward_column_per_seat_and_pay_zero_sum(game: str) -> None:
    env = VectorEnv(game, num_envs=16, seed=3)
    obs, masks, _players = env.reset()
    assert obs.shape == (16, cb.OBSERVATION_SIZE) and env.rewards.shape == (16, 5)
    total = np.zeros((16, 5))
    rng = np.random.default_rng(0)
    for _ in range(400):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        _obs, masks, rewards, _dones, _players = env.step(actions)
        total += rewards
        assert abs(rewards.sum(axis=1)).max() < 1e-6, "each step's rewards sum to zero"
    assert np.abs(total).sum() > 0, "some hands were scored"
