"""The numpy PPO example (examples/ppo.py): its pieces, and a short run that must learn."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import calabresella as cb


def _load() -> ModuleType:
    # examples/ is not a package: load the script by path, once.
    path = Path(__file__).resolve().parents[1] / "examples" / "ppo.py"
    spec = importlib.util.spec_from_file_location("ppo_example", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while being created
    spec.loader.exec_module(module)
    return module


ppo = _load()


def _as64(params: Any) -> Any:
    """The networks in float64, so that finite differences are accurate."""
    return ppo.Params(
        [(w.astype(np.float64), b.astype(np.float64)) for w, b in params.actor],
        [(w.astype(np.float64), b.astype(np.float64)) for w, b in params.critic],
    )


def test_mlp_gradient_matches_finite_differences() -> None:
    rng = np.random.default_rng(0)
    mlp = [
        (w.astype(np.float64), (b + 0.1).astype(np.float64))
        for w, b in ppo.init_mlp(rng, [7, 5, 4, 3], 1.0)
    ]
    x = rng.standard_normal((6, 7))
    target = rng.standard_normal((6, 3))

    def loss() -> float:
        out, _ = ppo.mlp_forward(mlp, x)
        return float(0.5 * ((out - target) ** 2).sum() / len(x))

    out, inputs = ppo.mlp_forward(mlp, x)
    grads = ppo.mlp_backward(mlp, inputs, (out - target) / len(x))
    eps = 1e-6
    for (w, b), (gw, gb) in zip(mlp, grads, strict=True):
        for arr, grad in ((w, gw), (b, gb)):
            for k in range(arr.size):
                i = np.unravel_index(k, arr.shape)
                old = arr[i]
                arr[i] = old + eps
                up = loss()
                arr[i] = old - eps
                down = loss()
                arr[i] = old
                assert grad[i] == pytest.approx((up - down) / (2 * eps), rel=1e-5, abs=1e-8)


def test_ppo_loss_gradient_matches_finite_differences() -> None:
    # The whole loss (clipped surrogate, entropy over legal actions, value) on a tiny batch,
    # with small networks over the real observation and action sizes.
    rng = np.random.default_rng(1)
    params = _as64(ppo.init_params(rng, hidden=8, layers=1))
    n = 12
    masks = rng.random((n, cb.NUM_ACTIONS)) < 0.02
    masks[:, 5] = True
    actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
    batch = ppo.Batch(
        obs=(rng.random((n, cb.OBSERVATION_SIZE)) < 0.1).astype(np.float64),
        masks=masks,
        actions=actions,
        logp=np.log(1 / masks.sum(axis=1)) + 0.3 * rng.standard_normal(n),
        values=np.zeros(n),
        advantages=rng.standard_normal(n),
        returns=rng.standard_normal(n),
        hands=0,
        points=0.0,
    )
    cfg = ppo.Config(clip=0.2, ent_coef=0.05, vf_coef=0.5)
    idx = np.arange(n)
    _, grads, _ = ppo.ppo_loss(params, batch, idx, cfg)
    arrays = params.arrays()
    eps = 1e-6
    checked = 0
    for arr, grad in zip(arrays, grads, strict=True):
        # A sample of entries per array: the input layer has thousands.
        for k in rng.choice(arr.size, size=min(arr.size, 15), replace=False):
            i = np.unravel_index(k, arr.shape)
            old = arr[i]
            arr[i] = old + eps
            up = ppo.ppo_loss(params, batch, idx, cfg)[0]
            arr[i] = old - eps
            down = ppo.ppo_loss(params, batch, idx, cfg)[0]
            arr[i] = old
            assert grad[i] == pytest.approx((up - down) / (2 * eps), rel=1e-4, abs=1e-8)
            checked += 1
    assert checked > 50


def test_masked_softmax_gives_illegal_actions_no_mass() -> None:
    rng = np.random.default_rng(2)
    logits = (rng.standard_normal((64, cb.NUM_ACTIONS)) * 30).astype(np.float32)
    logits[:, 0] = 1e6  # a huge illegal logit must not leak either
    mask = rng.random((64, cb.NUM_ACTIONS)) < 0.05
    mask[:, 0] = False
    mask[np.arange(64), rng.integers(1, cb.NUM_ACTIONS, 64)] = True
    p = np.exp(ppo.masked_log_softmax(logits, mask))
    assert np.all(p[~mask] == 0.0)
    np.testing.assert_allclose(p.sum(axis=1), 1.0, rtol=1e-5)
    assert np.all(np.isfinite(p))


def test_gae_credits_each_seat_its_own_points() -> None:
    v = np.array([[0.1], [0.2], [0.3], [0.4]], dtype=np.float32)
    # Seats 0, 1, 0, 1 decide; the hand ends on the last step, paying 3 to seat 0 and 8 to
    # seat 1. With gamma 1 and lambda 1/2, each seat's chain skips the other seat's decisions.
    rewards = np.zeros((4, 1, 2), dtype=np.float32)
    rewards[3, 0] = [3.0, 8.0]
    dones = np.array([[False], [False], [False], [True]])
    players = np.array([[0], [1], [0], [1]])
    last = np.full((1, 2), 99.0, dtype=np.float32)  # the hand is over: never used
    adv, ret = ppo.gae(rewards, dones, players, v, last, gamma=1.0, gae_lambda=0.5)
    a3 = 8.0 - 0.4
    a2 = 3.0 - 0.3
    a1 = (0.4 - 0.2) + 0.5 * a3
    a0 = (0.3 - 0.1) + 0.5 * a2
    np.testing.assert_allclose(adv[:, 0], [a0, a1, a2, a3], rtol=1e-6)
    np.testing.assert_allclose(ret, adv + v, rtol=1e-6)

    # The hand ends at step 1 (seat 0 decided last at step 0, so the 5 points it wins at step 1
    # are its own); a new hand starts and is cut by the end of the rollout: bootstrap values.
    rewards = np.zeros((4, 1, 2), dtype=np.float32)
    rewards[1, 0] = [5.0, 6.0]
    dones = np.array([[False], [True], [False], [False]])
    last = np.array([[1.5, 2.5]], dtype=np.float32)
    adv, _ = ppo.gae(rewards, dones, players, v, last, gamma=1.0, gae_lambda=0.5)
    np.testing.assert_allclose(adv[:, 0], [5.0 - 0.1, 6.0 - 0.2, 1.5 - 0.3, 2.5 - 0.4], rtol=1e-6)


def test_short_training_beats_random() -> None:
    # About 20 s on one core: 160k self-play steps, then 300 duplicate deals against random
    # for the trained and the untrained policy (the untrained greedy policy is not random and
    # may already beat it a little, so the gain is checked too).
    cfg = ppo.Config(
        game="tressette-in-due", iterations=20, envs=128, rollout=64, hidden=128, seed=0
    )
    cfg.curve_deals = 0
    res = ppo.train(cfg, log=lambda _: None)
    after = ppo.evaluate(res.params, cfg.game, "random", deals=300, seed=11)
    before = ppo.evaluate(res.initial, cfg.game, "random", deals=300, seed=11)
    margin, (low, _) = after.margin()
    assert low > 0, f"trained policy vs random: margin {margin:.3f}, CI low {low:.3f}"
    gain, (low, _) = ppo.compare(before, after)
    assert low > 0, f"trained vs untrained against random: gain {gain:.3f}, CI low {low:.3f}"
