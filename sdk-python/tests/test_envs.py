"""The RL environments: PettingZoo and Gymnasium checkers, and batched-vs-single equivalence."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

import calabresella as cb
from calabresella.envs import VectorEnv, aec_env, gym_env


@pytest.mark.parametrize("game", cb.GAMES)
def test_pettingzoo_api(game: str) -> None:
    from pettingzoo.test import api_test

    api_test(aec_env(game), num_cycles=200)


def test_pettingzoo_episode_rewards_are_the_returns() -> None:
    env = aec_env("calabresella")
    env.reset(seed=3)
    total = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        total[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
    assert list(total.values()) == env.game.returns()


@pytest.mark.parametrize("game", ["calabresella", "tressette-in-due", "briscola-chiamata"])
def test_gymnasium_checker(game: str) -> None:
    from gymnasium.utils.env_checker import check_env

    check_env(gym_env(game, seat=1, opponents="heuristic"), skip_render_check=True)


def test_gym_agent_plays_against_callables_and_gets_its_points() -> None:
    env = gym_env(
        "calabresella", seat=0, opponents=[cb.FirstLegalBot(), lambda o: o.legal_actions[-1]]
    )
    total = 0.0
    for episode in range(5):
        obs, _ = env.reset(seed=episode)
        done = False
        while not done:
            action = int(np.flatnonzero(obs["action_mask"])[0])
            obs, reward, done, _, info = env.step(action)
            total += reward
        assert env.game.returns()[0] >= 0
    obs, _ = env.reset(seed=0)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = env.game.clone()
    _, reward, done, _, info = env.step(illegal)
    assert info == {"illegal": True} and reward == -1.0 and not done and env.game == before


@pytest.mark.parametrize(("game", "episode"), [("calabresella", "hand"), ("tressette", "match")])
def test_vector_env_matches_single_games(game: str, episode: str) -> None:
    short: dict[str, Any] = (
        {"hands": 2} if game in ("tressette-chiamata", "briscola-chiamata") else {"target": 5}
    )
    env = VectorEnv(game, num_envs=8, seed=5, episode=episode, **short)
    singles = [env.state(i) for i in range(env.num_envs)]
    for _ in range(400):
        actions = env.sample_actions()
        obs, masks, rewards, dones, players = env.step(actions)
        for i, s in enumerate(singles):
            before = s.returns()
            s.apply_action(int(actions[i]))
            delta = np.array(s.returns()) - np.array(before)
            np.testing.assert_allclose(rewards[i, : s.num_players], delta)
            assert dones[i] == s.is_terminal()
            if s.is_terminal():
                singles[i] = s = env.state(i)
            assert players[i] == s.current_player()
            np.testing.assert_array_equal(obs[i], s.observation_tensor())
            np.testing.assert_array_equal(masks[i], s.legal_actions_mask())
    assert env.steps == 400 * 8 and env.episodes > 0


def test_vector_env_is_seeded_and_refuses_illegal_batches() -> None:
    a = VectorEnv(num_envs=4, seed=1)
    b = VectorEnv(num_envs=4, seed=1)
    np.testing.assert_array_equal(a.observations, b.observations)
    for _ in range(30):
        acts = a.sample_actions()
        np.testing.assert_array_equal(acts, b.sample_actions())
        a.step(acts)
        b.step(acts)
    np.testing.assert_array_equal(a.observations, b.observations)
    snapshot = [a.state(i) for i in range(4)]
    bad = a.sample_actions()
    bad[2] = 301 if not a.masks[2, 301] else 0
    with pytest.raises(cb.IllegalActionError, match="game 2"):
        a.step(bad)
    assert [a.state(i) for i in range(4)] == snapshot
    with pytest.raises(cb.NotationError):
        a.step(np.zeros(3, dtype=np.int64))
    obs, _masks, _players = a.reset(seed=1)
    c = VectorEnv(num_envs=4, seed=1)
    np.testing.assert_array_equal(obs, c.observations)


@pytest.mark.parametrize("game", cb.GAMES)
def test_the_vector_env_gives_information_states_on_request(game: str) -> None:
    env = VectorEnv(game, num_envs=6, seed=2, information_state=True, threads=2)
    plain = VectorEnv(game, num_envs=6, seed=2)
    assert env.observations.shape == (6, cb.INFORMATION_STATE_SIZE)
    rng = np.random.default_rng(1)
    for _ in range(150):
        for i in range(6):
            s = env.state(i)
            np.testing.assert_array_equal(
                env.observations[i], s.information_state_tensor(env.decider(i))
            )
        # The first part is the observation tensor; the games are the plain env's.
        np.testing.assert_array_equal(
            env.observations[:, : cb.OBSERVATION_SIZE], plain.observations
        )
        np.testing.assert_array_equal(env.masks, plain.masks)
        # Not sample_actions(): it draws from the generator that deals the next games.
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in plain.masks])
        env.step(acts)
        plain.step(acts)


@pytest.mark.parametrize("game", ["calabresella", "tressette-in-due", "briscola-chiamata"])
def test_a_threaded_vector_env_steps_the_same_games(game: str) -> None:
    # Worker threads step shards of the games; auto-resets draw seeds in game order, so the
    # games are the same for any number of threads (200 games: several shards per thread).
    one = VectorEnv(game, num_envs=200, seed=9)
    many = VectorEnv(game, num_envs=200, seed=9, threads=3)
    every_core = VectorEnv(game, num_envs=200, seed=9, threads=0)
    rng = np.random.default_rng(0)
    for _ in range(120):
        legal = [np.flatnonzero(m) for m in one.masks]
        acts = np.array([rng.choice(ids) for ids in legal], dtype=np.int64)
        outs = [env.step(acts) for env in (one, many, every_core)]
        for other in outs[1:]:
            for x, y in zip(outs[0], other, strict=True):
                np.testing.assert_array_equal(x, y)
    assert one.episodes == many.episodes == every_core.episodes > 0
    bad = one.sample_actions()
    bad[150] = np.flatnonzero(many.masks[150] == 0)[0]
    before = [many.state(i) for i in range(200)]
    with pytest.raises(cb.IllegalActionError, match="game 150"):
        many.step(bad)
    assert [many.state(i) for i in range(200)] == before
    for count in (5000, -1):
        with pytest.raises(cb.NotationError, match="threads"):
            VectorEnv(game, num_envs=2, threads=count)


@pytest.mark.parametrize(
    ("game", "options"),
    cb._core.option_sets(),
    ids=[f"{g}-{'-'.join(f'{k}={v}' for k, v in o.items())}" for g, o in cb._core.option_sets()],
)
def test_every_game_and_option_set_passes_the_checkers(game: str, options: dict[str, Any]) -> None:
    from gymnasium.utils.env_checker import check_env
    from pettingzoo.test import api_test

    api_test(aec_env(game, **options), num_cycles=40)
    check_env(gym_env(game, seat=0, opponents="random", **options), skip_render_check=True)


def test_the_agent_always_has_a_decision_and_the_dummy_is_not_a_seat_to_play() -> None:
    # Four-player Calabresella: the idle dealer's hands are skipped.
    env = gym_env("calabresella", players=4, opponents="random")
    for seed in range(40):
        obs, _ = env.reset(seed=seed)
        assert obs["action_mask"].any(), seed
    # A due: seat 2 is the dummy, played by another seat.
    with pytest.raises(cb.NotationError, match="dummy"):
        gym_env("calabresella", seat=2, a_due=True)
    env = gym_env("calabresella", seat=0, a_due=True, opponents="heuristic")
    for seed in range(10):
        obs, _ = env.reset(seed=seed)
        assert obs["action_mask"].any()
        done = False
        while not done:
            action = int(np.flatnonzero(obs["action_mask"])[0])
            obs, _, done, _, _ = env.step(action)
    # A misspelt opponent is refused when the environment is made, not at reset.
    with pytest.raises(cb.NotationError, match="heurstic"):
        gym_env("calabresella", opponents="heurstic")


def test_gymnasium_make_knows_every_game() -> None:
    import gymnasium

    assert len(cb.GYM_IDS) == len(cb.GAMES)
    env = gymnasium.make("calabresella/TressetteInDue-v0", seat=1, opponents="heuristic")
    obs, _ = env.reset(seed=4)
    assert obs["action_mask"].any()
    assert env.unwrapped.game.game == "tressette-in-due"  # type: ignore[attr-defined]


def test_the_global_state_is_every_seats_observation() -> None:
    env = aec_env("tressette")
    env.reset(seed=2)
    state = env.state()
    assert env.state_space.contains(state)
    expected = np.concatenate([env.game.observation_tensor(s) for s in range(4)])
    np.testing.assert_array_equal(state, expected)


def test_vector_env_masks_are_int8_like_every_env_and_actions_come_as_any_integers() -> None:
    env = VectorEnv("calabresella", num_envs=4, seed=1)
    gym_mask = gym_env().observation_space["action_mask"]  # type: ignore[index]
    assert env.masks.dtype == np.int8 == gym_mask.dtype
    env.step(env.sample_actions().astype(np.int32))
    env.step([int(a) for a in env.sample_actions()])
    with pytest.raises(cb.NotationError, match="integer action ids"):
        env.step(env.sample_actions().astype(np.float64))
    with pytest.raises(cb.NotationError, match="2 entries; there are 4 games"):
        env.step([0, 0])


def test_states_and_environments_pickle_and_go_on_the_same() -> None:
    import pickle

    # A seeded match: the copy deals the same hands after this one.
    state = cb.new_match("calabresella", seed=5)
    for _ in range(5):
        state.apply_action(state.legal_actions()[0])
    copy = pickle.loads(pickle.dumps(state))
    assert copy == state
    while state.hand_number < 2 and not state.is_terminal():
        action = state.legal_actions()[0]
        state.apply_action(action)
        copy.apply_action(action)
    assert copy == state and not copy.needs_deal()
    # A hand dealt by hand, and a game from a batch.
    record = json.loads(cb.new_hand("calabresella", seed=3).to_record())["hands"][0]
    dealt = cb.new_hand(
        "calabresella",
        deal=record["deal"]["hands"],
        monte=record["deal"]["monte"],
        dealer=record["dealer"],
    )
    dealt.apply_action(dealt.legal_actions()[0])
    assert pickle.loads(pickle.dumps(dealt)) == dealt
    batch = VectorEnv("tressette", num_envs=2, seed=4, episode="match")
    assert pickle.loads(pickle.dumps(batch.state(1))) == batch.state(1)
    # The environments, mid-episode (multiprocessing and Ray send them to workers).
    for env in (gym_env("tressette", opponents="heuristic"), aec_env("briscola-chiamata")):
        env.reset(seed=1)
        assert pickle.loads(pickle.dumps(env)).game == env.game
    with pytest.raises(cb.InvalidRecordError, match="not a State pickle"):
        cb.State._from_pickle('{"format": 2}')
    # Observations (a bot's input, sent to a worker process).
    calling = cb.new_hand("briscola-chiamata", seed=3)
    for _ in range(4):
        calling.apply_action(calling.legal_actions()[0])
    for obs in (calling.observation(), calling.public_observation(), state.observation(1)):
        back = pickle.loads(pickle.dumps(obs))
        assert (back.hand, back.legal_actions, back.events, back.phase) == (
            obs.hand,
            obs.legal_actions,
            obs.events,
            obs.phase,
        )
        np.testing.assert_array_equal(back.tensor(), obs.tensor())
        np.testing.assert_array_equal(
            back.information_state_tensor(), obs.information_state_tensor()
        )


def test_gymnasium_vector_envs_run_the_single_agent_env() -> None:
    import gymnasium

    envs = gymnasium.vector.SyncVectorEnv(
        [lambda: gym_env("tressette-in-due", seat=0, opponents="heuristic") for _ in range(3)],
        autoreset_mode=gymnasium.vector.AutoresetMode.SAME_STEP,
    )
    obs, _ = envs.reset(seed=1)
    finished = 0
    for _ in range(150):
        actions = np.array([np.flatnonzero(m)[0] for m in obs["action_mask"]])
        obs, _, terminated, _, _ = envs.step(actions)
        finished += int(terminated.sum())
        assert obs["action_mask"].any(axis=1).all(), "every env waits for the agent"
    assert finished > 0
