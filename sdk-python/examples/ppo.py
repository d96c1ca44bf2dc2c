"""PPO with action masks, in numpy only, learning a card game from self-play.

One policy plays every seat of ``calabresella.envs.VectorEnv`` (N games stepped together in
Rust). The algorithm follows CleanRL's ``ppo.py`` (separate actor and critic MLPs, Adam, GAE,
clipped surrogate, value loss, entropy bonus, minibatches, learning-rate annealing), with
the forward and backward passes written by hand so that nothing beyond numpy is needed.

The one thing self-play changes is whose reward is whose. ``VectorEnv.step`` plays the
deciding seat's action and returns ``rewards[N, players]``: the points each *seat* won by that
step (in every game here they all arrive on the step that scores the hand). So each seat has
its own trajectory, made of its own decisions only: a decision's return is the points its seat
wins later in the same hand, never the next actor's (see :func:`gae`).

Evaluation is a duplicate tournament against the engine's bots (``"heuristic"``,
``"random"``), with the greedy policy (the most likely legal action) as a ``Bot``.

Run from the repository root (``OPENBLAS_NUM_THREADS=1`` keeps it on one core)::

    .venv/bin/python sdk-python/examples/ppo.py --game tressette-in-due --out ppo-out

It writes ``ppo-<game>.npz`` (the weights), ``ppo-<game>.csv`` (the learning curve),
``ppo-<game>.png`` (its plot) and ``ppo-<game>.json`` (the final figures) into ``--out``.
"""

from __future__ import annotations

import argparse
import csv
import itertools
import json
import math
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

import calabresella as cb
from calabresella.envs import VectorEnv

F32 = npt.NDArray[np.float32]
Layer = tuple[F32, F32]
"""One dense layer: weights ``[in, out]`` and bias ``[out]``."""
MLP = list[Layer]

NEG = np.float32(-1e9)
"""The logit given to illegal actions. Not -inf: 0 * -inf is NaN in the entropy and the
gradients, while exp(-1e9 - max) is exactly 0 in float32, so illegal actions get no mass."""

REWARD_SCALE = {
    "tressette-in-due": 11.0,  # 11 card points per hand (plus accusi)
    "tressette": 11.0,
    "calabresella": 10.0,  # awards 1..48, standard deviation about 10 under random play
    "tressette-chiamata": 2.0,  # zero-sum payouts of 1..4
    "briscola-chiamata": 2.0,
}
"""Points are divided by this so that returns, and so the critic's targets, are of order 1."""


# ----------------------------------------------------------------------------------------------
# The network: MLPs with tanh hidden layers, forward and backward by hand.


def init_mlp(rng: np.random.Generator, sizes: Sequence[int], out_std: float) -> MLP:
    """An MLP with layer widths ``sizes``, initialised as in CleanRL: orthogonal weights with
    gain sqrt(2) in the hidden layers and ``out_std`` in the last one, zero biases."""
    layers: MLP = []
    for i, (n_in, n_out) in enumerate(itertools.pairwise(sizes)):
        gain = out_std if i == len(sizes) - 2 else math.sqrt(2.0)
        # QR of a Gaussian matrix gives an orthogonal one; the sign fix makes it uniform.
        a = rng.standard_normal((max(n_in, n_out), min(n_in, n_out)))
        q, r = np.linalg.qr(a)
        q *= np.sign(np.diag(r))
        w = q if n_in >= n_out else q.T
        layers.append(((gain * w).astype(np.float32), np.zeros(n_out, dtype=np.float32)))
    return layers


def mlp_forward(mlp: MLP, x: F32) -> tuple[F32, list[F32]]:
    """The MLP's output for the rows of ``x``, and every layer's input (kept for
    :func:`mlp_backward`)."""
    inputs = [x]
    h = x
    for i, (w, b) in enumerate(mlp):
        h = h @ w + b
        if i < len(mlp) - 1:
            h = np.tanh(h)
            inputs.append(h)
    return h, inputs


def mlp_backward(mlp: MLP, inputs: list[F32], grad_out: F32) -> MLP:
    """Gradients of the weights and biases given the gradient of a loss with respect to the
    MLP's output (the loss already averaged over the rows)."""
    grads: MLP = []
    g = grad_out
    for i in range(len(mlp) - 1, -1, -1):
        w, _ = mlp[i]
        grads.append((inputs[i].T @ g, g.sum(axis=0)))
        if i > 0:
            # inputs[i] is tanh(pre-activation), and tanh' = 1 - tanh^2. The input layer needs
            # no gradient, which saves the widest product.
            g = (g @ w.T) * (1.0 - inputs[i] * inputs[i])
    grads.reverse()
    return grads


def masked_log_softmax(logits: F32, mask: npt.NDArray[np.bool_]) -> F32:
    """Log-probabilities over the legal actions (``mask`` true); illegal ones get about -1e9,
    so their probability is exactly 0."""
    z = np.where(mask, logits, NEG)
    z = z - z.max(axis=1, keepdims=True)
    out: F32 = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
    return out


@dataclass
class Params:
    """The policy (``actor``: observation to one logit per action id) and the value function
    (``critic``: observation to the deciding seat's expected points, scaled)."""

    actor: MLP
    critic: MLP

    def arrays(self) -> list[F32]:
        """Every weight and bias, actor first, in a fixed order."""
        return [a for layer in self.actor + self.critic for a in layer]

    def copy(self) -> Params:
        """A deep copy (the training updates arrays in place)."""
        return Params(
            [(w.copy(), b.copy()) for w, b in self.actor],
            [(w.copy(), b.copy()) for w, b in self.critic],
        )


def init_params(rng: np.random.Generator, hidden: int = 256, layers: int = 2) -> Params:
    """Fresh networks with ``layers`` hidden layers of ``hidden`` units each. The policy's last
    layer starts near zero (std 0.01), so the initial policy is near uniform over legal
    actions."""
    body = [cb.OBSERVATION_SIZE] + [hidden] * layers
    return Params(
        actor=init_mlp(rng, [*body, cb.NUM_ACTIONS], out_std=0.01),
        critic=init_mlp(rng, [*body, 1], out_std=1.0),
    )


def save_params(params: Params, path: Path, config: dict[str, Any]) -> None:
    """Saves the weights and the training configuration (JSON) as an ``.npz``."""
    arrays = {
        f"actor_{i}_{k}": a
        for i, layer in enumerate(params.actor)
        for k, a in zip("wb", layer, strict=True)
    }
    arrays |= {
        f"critic_{i}_{k}": a
        for i, layer in enumerate(params.critic)
        for k, a in zip("wb", layer, strict=True)
    }
    np.savez(path, config=np.array(json.dumps(config)), **arrays)  # type: ignore[arg-type]


def load_params(path: Path | str) -> Params:
    """The weights saved by :func:`save_params`."""
    with np.load(path) as f:
        nets: dict[str, MLP] = {"actor": [], "critic": []}
        for name, layers in nets.items():
            i = 0
            while f"{name}_{i}_w" in f:
                layers.append((f[f"{name}_{i}_w"], f[f"{name}_{i}_b"]))
                i += 1
    return Params(nets["actor"], nets["critic"])


class Adam:
    """Adam over a list of arrays, updated in place (eps 1e-5 as in CleanRL)."""

    def __init__(self, params: list[F32], betas: tuple[float, float] = (0.9, 0.999)) -> None:
        self.m = [np.zeros_like(p) for p in params]
        self.v = [np.zeros_like(p) for p in params]
        self.b1, self.b2 = betas
        self.t = 0

    def step(self, params: list[F32], grads: list[F32], lr: float, eps: float = 1e-5) -> None:
        """One update of every array in ``params`` against ``grads``."""
        self.t += 1
        # Bias correction folded into the step size, as in the Adam paper's last form.
        a = lr * math.sqrt(1 - self.b2**self.t) / (1 - self.b1**self.t)
        for p, g, m, v in zip(params, grads, self.m, self.v, strict=True):
            m *= self.b1
            m += (1 - self.b1) * g
            v *= self.b2
            v += (1 - self.b2) * (g * g)
            p -= a * m / (np.sqrt(v) + eps)


# ----------------------------------------------------------------------------------------------
# Rollouts: the seam for a distributed version (run `collect` in a worker, ship the Batch).


class EnvLike(Protocol):
    """What :func:`collect` needs of an environment: ``calabresella.envs.VectorEnv``'s
    interface (its arrays hold the current decision point of every game between calls)."""

    @property
    def num_envs(self) -> int: ...
    @property
    def num_players(self) -> int: ...
    @property
    def observations(self) -> F32: ...
    @property
    def masks(self) -> npt.NDArray[np.int8]: ...
    @property
    def players(self) -> npt.NDArray[np.int64]: ...
    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[F32, npt.NDArray[np.int8], F32, npt.NDArray[np.bool_], npt.NDArray[np.int64]]: ...
    def state(self, i: int) -> cb.State: ...


@dataclass
class Batch:
    """One rollout, flattened over (step, game), ready for :func:`ppo_update`."""

    obs: F32
    masks: npt.NDArray[np.bool_]
    actions: npt.NDArray[np.int64]
    logp: F32
    """Log-probability of the action under the policy that chose it."""
    values: F32
    advantages: F32
    returns: F32
    """Targets of the critic: advantages + values (scaled points)."""
    hands: int
    """Hands finished during the rollout."""
    points: float
    """Mean points per seat per finished hand (unscaled)."""

    @staticmethod
    def join(batches: Sequence[Batch]) -> Batch:
        """Several rollouts (one per Ray actor) as one batch."""
        hands = sum(b.hands for b in batches)
        points = (
            sum(b.points * b.hands for b in batches if b.hands) / hands if hands else float("nan")
        )
        return Batch(
            obs=np.concatenate([b.obs for b in batches]),
            masks=np.concatenate([b.masks for b in batches]),
            actions=np.concatenate([b.actions for b in batches]),
            logp=np.concatenate([b.logp for b in batches]),
            values=np.concatenate([b.values for b in batches]),
            advantages=np.concatenate([b.advantages for b in batches]),
            returns=np.concatenate([b.returns for b in batches]),
            hands=hands,
            points=points,
        )


def gae(
    rewards: F32,
    dones: npt.NDArray[np.bool_],
    players: npt.NDArray[np.int64],
    values: F32,
    last_values: F32,
    gamma: float = 1.0,
    gae_lambda: float = 0.95,
) -> tuple[F32, F32]:
    """Advantages and returns with GAE(lambda), one trajectory per seat.

    ``rewards[T, N, P]`` are the points each seat won at step ``t`` of game ``n``,
    ``dones[T, N]`` whether that step ended the hand, ``players[T, N]`` the seat that decided
    at step ``t``, ``values[T, N]`` the critic's estimate there, and ``last_values[N, P]`` each
    seat's value after the last step (the bootstrap for hands still going on).

    A seat's trajectory skips the other seats' decisions: the "next state" of its decision is
    its own next decision in the hand, and a reward goes to the seat's latest decision at or
    before the step that paid it. ``gamma`` discounts per own decision.
    """
    steps, n = values.shape
    rows = np.arange(n)
    adv = np.zeros((steps, n), dtype=np.float32)
    # Per game and seat, walking backwards in time: the value of the seat's next decision (or
    # of its view after the rollout), the GAE sum from there on, and the rewards received
    # since its next decision that no decision of it has claimed yet.
    next_value = last_values.astype(np.float32).copy()
    running = np.zeros_like(next_value)
    pending = np.zeros_like(next_value)
    for t in range(steps - 1, -1, -1):
        ended = dones[t]
        # Nothing after the end of a hand belongs to the decisions of that hand.
        next_value[ended] = 0.0
        running[ended] = 0.0
        pending[ended] = 0.0
        pending += rewards[t]
        p = players[t]
        delta = pending[rows, p] + gamma * next_value[rows, p] - values[t]
        running[rows, p] = delta + gamma * gae_lambda * running[rows, p]
        adv[t] = running[rows, p]
        next_value[rows, p] = values[t]
        pending[rows, p] = 0.0
    return adv, adv + values


def collect(
    env: EnvLike,
    params: Params,
    steps: int,
    rng: np.random.Generator,
    *,
    gamma: float = 1.0,
    gae_lambda: float = 0.95,
    reward_scale: float = 1.0,
) -> Batch:
    """Plays ``steps`` steps in every game of ``env`` with the sampling policy of ``params``
    (every seat) and returns them with their advantages and returns.

    The environment carries the games over from one call to the next (a rollout starts where
    the previous one stopped, usually mid-hand), so it can live in a worker process that
    receives ``params`` and sends back the :class:`Batch`.
    """
    n, seats, d, a = env.num_envs, env.num_players, cb.OBSERVATION_SIZE, cb.NUM_ACTIONS
    obs = np.empty((steps, n, d), dtype=np.float32)
    masks = np.empty((steps, n, a), dtype=np.bool_)
    actions = np.empty((steps, n), dtype=np.int64)
    logp = np.empty((steps, n), dtype=np.float32)
    players = np.empty((steps, n), dtype=np.int64)
    rewards = np.empty((steps, n, seats), dtype=np.float32)
    dones = np.empty((steps, n), dtype=np.bool_)
    rows = np.arange(n)
    # The arrays are rewritten in place by every step, so each is copied into the buffers.
    o, m, p = env.observations, env.masks, env.players
    for t in range(steps):
        obs[t] = o
        masks[t] = m.view(np.bool_)  # the masks are 0/1 int8
        players[t] = p
        logits, _ = mlp_forward(params.actor, obs[t])
        lp = masked_log_softmax(logits, masks[t])
        # Gumbel-max sampling: argmax(log p + Gumbel noise) is a sample from p, with no
        # cumulative sums whose rounding could pick an illegal action.
        u = rng.random(lp.shape, dtype=np.float32)
        choice = np.argmax(lp - np.log(-np.log(u + np.float32(1e-20))), axis=1)
        actions[t] = choice
        logp[t] = lp[rows, choice]
        o, m, r, done, p = env.step(choice)
        rewards[t] = r
        dones[t] = done
    rewards /= np.float32(reward_scale)
    # The critic runs once over the whole rollout (its weights do not change during it), and
    # on every seat's own view of the games as they stand, to bootstrap unfinished hands.
    values = mlp_forward(params.critic, obs.reshape(steps * n, d))[0].reshape(steps, n)
    views = np.empty((n, seats, d), dtype=np.float32)
    for i in range(n):
        state = env.state(i)
        for s in range(seats):
            if s == p[i]:
                views[i, s] = o[i]
            else:
                state.observation_tensor(s, out=views[i, s])
    last = mlp_forward(params.critic, views.reshape(n * seats, d))[0].reshape(n, seats)
    adv, ret = gae(rewards, dones, players, values, last, gamma, gae_lambda)
    hands = int(dones.sum())
    points = float(rewards[dones].mean() * reward_scale) if hands else float("nan")
    return Batch(
        obs=obs.reshape(steps * n, d),
        masks=masks.reshape(steps * n, a),
        actions=actions.reshape(-1),
        logp=logp.reshape(-1),
        values=values.reshape(-1),
        advantages=adv.reshape(-1),
        returns=ret.reshape(-1),
        hands=hands,
        points=points,
    )


# ----------------------------------------------------------------------------------------------
# The PPO update.


@dataclass
class Config:
    """Hyper-parameters and run settings (the command-line options)."""

    game: str = "tressette-in-due"
    iterations: int = 150
    envs: int = 128
    rollout: int = 128
    """Steps per game per iteration."""
    seed: int = 0
    hidden: int = 256
    layers: int = 2
    lr: float = 1e-3
    anneal_lr: bool = True
    epochs: int = 4
    minibatches: int = 8
    gamma: float = 1.0
    gae_lambda: float = 0.95
    clip: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    reward_scale: float = 0.0
    """0: the game's entry in ``REWARD_SCALE``."""
    eval_every: int = 10
    curve_deals: int = 200
    """Deals of each learning-curve evaluation against the heuristic."""
    eval_deals: int = 1000
    """Deals of the final evaluations."""
    ray_actors: int = 0
    """0: collect in this process; N: on N Ray actors of ``envs`` games each
    (``calabresella.ray.RolloutPool``), joined into one batch per iteration."""


def ppo_loss(
    params: Params, batch: Batch, idx: npt.NDArray[np.int64], cfg: Config
) -> tuple[float, list[F32], dict[str, float]]:
    """The PPO loss on the rows ``idx`` of ``batch`` (clipped surrogate - ``ent_coef`` x
    entropy + ``vf_coef`` x value loss), its gradient (arrays in :meth:`Params.arrays` order)
    and its parts."""
    n = len(idx)
    rows = np.arange(n)
    x, act = batch.obs[idx], batch.actions[idx]
    adv = batch.advantages[idx]
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    # Policy: clipped surrogate and entropy bonus, differentiated by hand w.r.t. the logits.
    logits, a_in = mlp_forward(params.actor, x)
    lp = masked_log_softmax(logits, batch.masks[idx])
    log_ratio = lp[rows, act] - batch.logp[idx]
    ratio = np.exp(log_ratio)
    pg1 = -adv * ratio
    pg2 = -adv * np.clip(ratio, 1 - cfg.clip, 1 + cfg.clip)
    probs = np.exp(lp)
    entropy = -(probs * lp).sum(axis=1)
    # The max picks the unclipped term unless the clip binds; then the gradient is 0.
    d_logp = (np.where(pg1 >= pg2, -adv * ratio, 0.0) / n).astype(lp.dtype)
    # d log p_a / d z_j = [j = a] - p_j;  d(-H) / d z_j = p_j (log p_j + H). Illegal actions
    # have p_j = 0 exactly, so they get no gradient.
    g_logits = -probs * d_logp[:, None]
    g_logits[rows, act] += d_logp
    g_logits += (cfg.ent_coef / n) * probs * (lp + entropy[:, None])
    # Value: squared error to the GAE returns.
    v, c_in = mlp_forward(params.critic, x)
    err = v[:, 0] - batch.returns[idx]
    g_v = ((cfg.vf_coef / n) * err[:, None]).astype(v.dtype)
    grads = mlp_backward(params.actor, a_in, g_logits) + mlp_backward(params.critic, c_in, g_v)
    pg_loss = float(np.maximum(pg1, pg2).mean())
    v_loss = float(0.5 * (err * err).mean())
    ent = float(entropy.mean())
    parts = {
        "pg": pg_loss,
        "v": v_loss,
        "ent": ent,
        "kl": float(((ratio - 1) - log_ratio).mean()),
        "clip": float((np.abs(ratio - 1) > cfg.clip).mean()),
    }
    loss = pg_loss - cfg.ent_coef * ent + cfg.vf_coef * v_loss
    return loss, [a for layer in grads for a in layer], parts


def ppo_update(
    params: Params, opt: Adam, batch: Batch, rng: np.random.Generator, cfg: Config, lr: float
) -> dict[str, float]:
    """``cfg.epochs`` passes of minibatch Adam steps on :func:`ppo_loss`; returns the mean
    losses, entropy, approximate KL and clipped fraction of the last epoch."""
    size = len(batch.actions)
    mb = size // cfg.minibatches
    weights = params.arrays()
    stats: list[dict[str, float]] = []
    for epoch in range(cfg.epochs):
        order = rng.permutation(size)
        for start in range(0, mb * cfg.minibatches, mb):
            _, grads, parts = ppo_loss(params, batch, order[start : start + mb], cfg)
            # Global gradient-norm clipping, over both networks as in CleanRL.
            norm = math.sqrt(sum(float((g * g).sum()) for g in grads))
            if norm > cfg.max_grad_norm:
                grads = [g * np.float32(cfg.max_grad_norm / norm) for g in grads]
            opt.step(weights, grads, lr)
            if epoch == cfg.epochs - 1:
                stats.append(parts)
    return {k: float(np.mean([s[k] for s in stats])) for k in stats[0]}


# ----------------------------------------------------------------------------------------------
# Evaluation: the greedy policy as a Bot in duplicate tournaments.


class GreedyBot:
    """The policy's most likely legal action: a ``calabresella.Bot``."""

    def __init__(self, params: Params) -> None:
        self.actor = params.actor

    def act(self, observation: cb.Observation) -> int:
        """The legal action with the highest logit."""
        logits, _ = mlp_forward(self.actor, observation.tensor()[None, :])
        return int(np.argmax(np.where(observation.legal_actions_mask(), logits[0], -np.inf)))


@dataclass
class Evaluation:
    """Points per hand of the policy and its opponent over the same duplicate deals."""

    opponent: str
    deals: int
    mean: float
    ci95: tuple[float, float]
    opponent_mean: float
    per_deal: list[float] = field(repr=False)
    """The policy's points per hand in each deal (its seats and seatings averaged), to pair
    two evaluations over the same deals."""
    opponent_per_deal: list[float] = field(repr=False)
    """The opponent's, likewise."""

    def margin(self) -> tuple[float, tuple[float, float]]:
        """Policy minus opponent, points per hand, paired over the deals."""
        return mean_ci(np.subtract(self.per_deal, self.opponent_per_deal))


def per_deal_points(result: cb.TournamentResult, bot: int) -> npt.NDArray[np.float64]:
    """Bot ``bot``'s points per hand in each deal of a duplicate tournament: the mean over
    the seats it held in each match, then over the deal's seatings (as ``BotResult.mean``)."""
    held = result.seatings == bot
    per_match = (result.returns * held).sum(axis=1) / held.sum(axis=1)
    return np.asarray(per_match.reshape(result.deals, -1).mean(axis=1), dtype=np.float64)


def mean_ci(values: npt.ArrayLike) -> tuple[float, tuple[float, float]]:
    """Mean and normal 95% confidence interval."""
    v = np.asarray(values, dtype=np.float64)
    half = 1.96 * float(v.std(ddof=1)) / math.sqrt(len(v)) if len(v) > 1 else 0.0
    mean = float(v.mean())
    return mean, (mean - half, mean + half)


def evaluate(
    params: Params, game: str, opponent: str, deals: int, seed: int, *, ppo_first: bool = True
) -> Evaluation:
    """A duplicate tournament of single hands between the greedy policy and a built-in bot.

    With more seats than bots the first bot listed fills the extra seats: in three-player
    Calabresella ``ppo_first`` gives the policy two seats of every seating and the opponent
    one; ``ppo_first=False`` the other way round (the policy alone against two opponents).
    """
    bots: dict[str, cb.BotLike] = {"ppo": GreedyBot(params), opponent: opponent}
    if not ppo_first:
        bots = dict(reversed(bots.items()))
    result = cb.tournament(
        bots,
        game,
        deals=deals,
        seed=seed,
        duplicate=True,
        episode="hand",
        progress=False,
        threads=1,
        ratings=False,
    )
    if result.first_error is not None:
        raise RuntimeError(result.first_error)
    me, them = (0, 1) if ppo_first else (1, 0)
    ppo, opp = result.bots[me], result.bots[them]
    return Evaluation(
        opponent,
        deals,
        ppo.mean,
        ppo.ci95,
        opp.mean,
        per_deal_points(result, me).tolist(),
        per_deal_points(result, them).tolist(),
    )


# ----------------------------------------------------------------------------------------------
# Training.


@dataclass
class TrainResult:
    """What :func:`train` returns."""

    params: Params
    initial: Params
    curve: list[dict[str, float]]
    seconds: float
    """Wall time of the training, learning-curve evaluations included."""
    steps: int


def _rollout(
    env: EnvLike, params: Params, rng: np.random.Generator, cfg: Config, scale: float
) -> Batch:
    """One iteration's rollout with the configuration's steps and discounting."""
    return collect(
        env,
        params,
        cfg.rollout,
        rng,
        gamma=cfg.gamma,
        gae_lambda=cfg.gae_lambda,
        reward_scale=scale,
    )


def _collect_on_actor(
    env: EnvLike, actor: int, params: Params, it: int, cfg: Config, scale: float
) -> Batch:
    """One Ray actor's rollout: its own random stream from the seed, iteration and actor."""
    return _rollout(env, params, np.random.default_rng([cfg.seed, it, actor]), cfg, scale)


def train(cfg: Config, log: Callable[[str], None] = print) -> TrainResult:
    """Trains a policy by self-play with ``cfg``, evaluating it against the heuristic every
    ``cfg.eval_every`` iterations (``cfg.curve_deals`` deals; 0 for no curve). With
    ``cfg.ray_actors`` the rollouts run on Ray actors (Ray must be initialised) and the
    update here."""
    rng = np.random.default_rng(cfg.seed)
    scale = cfg.reward_scale or REWARD_SCALE.get(cfg.game, 10.0)
    pool: Any = None
    if cfg.ray_actors:
        import ray

        import calabresella.ray as cbray

        # The actors cannot import this example: its functions travel by value.
        ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])  # type: ignore[no-untyped-call]
        pool = cbray.RolloutPool(
            cfg.game, actors=cfg.ray_actors, envs_per_actor=cfg.envs, seed=cfg.seed
        )
    env = VectorEnv(cfg.game, num_envs=cfg.envs, seed=cfg.seed, episode="hand")
    params = init_params(rng, cfg.hidden, cfg.layers)
    initial = params.copy()
    opt = Adam(params.arrays())
    curve: list[dict[str, float]] = []
    start = time.perf_counter()
    steps = 0

    def point(it: int, extra: dict[str, float]) -> None:
        # The same deals every time (fixed seed), so that the curve's steps are not deal luck.
        ev = evaluate(params, cfg.game, "heuristic", cfg.curve_deals, seed=cfg.seed + 1)
        row = {
            "iteration": float(it),
            "steps": float(steps),
            "seconds": time.perf_counter() - start,
            "mean": ev.mean,
            "ci_low": ev.ci95[0],
            "ci_high": ev.ci95[1],
            "heuristic_mean": ev.opponent_mean,
            **extra,
        }
        curve.append(row)
        log(
            f"iter {it:4d}  steps {steps:9d}  {row['seconds']:7.1f}s  vs heuristic "
            f"{ev.mean:6.3f} [{ev.ci95[0]:6.3f}, {ev.ci95[1]:6.3f}] "
            f"(heuristic {ev.opponent_mean:6.3f})"
            + "".join(f"  {k} {v:.4f}" for k, v in extra.items())
        )

    if cfg.curve_deals:
        point(0, {})
    for it in range(1, cfg.iterations + 1):
        frac = 1.0 - (it - 1) / cfg.iterations if cfg.anneal_lr else 1.0
        if pool is not None:
            batch = Batch.join(pool.map_indexed(_collect_on_actor, params, it, cfg, scale))
            steps += cfg.rollout * cfg.envs * cfg.ray_actors
        else:
            batch = _rollout(env, params, rng, cfg, scale)
            steps += cfg.rollout * cfg.envs
        stats = ppo_update(params, opt, batch, rng, cfg, cfg.lr * frac)
        if cfg.curve_deals and (it % cfg.eval_every == 0 or it == cfg.iterations):
            point(it, {"hand_points": batch.points, **stats})
    if pool is not None:
        pool.close()
    return TrainResult(params, initial, curve, time.perf_counter() - start, steps)


def compare(before: Evaluation, after: Evaluation) -> tuple[float, tuple[float, float]]:
    """The gain from ``before`` to ``after`` in points per hand, paired over the same deals."""
    return mean_ci(np.subtract(after.per_deal, before.per_deal))


def plot(curve: list[dict[str, float]], game: str, path: Path) -> None:
    """Plots the learning curve (points per hand against the heuristic, with the 95% CI)."""
    import matplotlib

    matplotlib.use("Agg")  # no display: write the file only
    import matplotlib.pyplot as plt

    x = np.array([r["steps"] for r in curve]) / 1e6
    mean = np.array([r["mean"] for r in curve])
    fig, ax = plt.subplots(figsize=(8, 4.5), dpi=100)
    ax.fill_between(
        x, [r["ci_low"] for r in curve], [r["ci_high"] for r in curve], alpha=0.25, label="95% CI"
    )
    ax.plot(x, mean, marker="o", markersize=3, label="PPO (greedy)")
    ax.plot(
        x,
        [r["heuristic_mean"] for r in curve],
        linestyle="--",
        color="gray",
        label="heuristic, same deals",
    )
    ax.set_xlabel("self-play steps (millions)")
    ax.set_ylabel("points per hand")
    ax.set_title(f"PPO self-play on {game}: duplicate hands against the heuristic")
    ax.grid(alpha=0.3)
    ax.legend(loc="best")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def parse_args(argv: Sequence[str] | None = None) -> tuple[Config, Path]:
    """The configuration and output folder from the command line."""
    d = Config()
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    ap.add_argument("--game", default=d.game, choices=cb.GAMES)
    ap.add_argument("--iterations", type=int, default=d.iterations, help="PPO iterations")
    ap.add_argument(
        "--steps", type=int, default=0, help="total self-play steps (overrides --iterations)"
    )
    ap.add_argument("--envs", type=int, default=d.envs, help="games stepped together")
    ap.add_argument("--rollout", type=int, default=d.rollout, help="steps per game per iteration")
    ap.add_argument("--seed", type=int, default=d.seed)
    ap.add_argument("--out", type=Path, default=Path("ppo-out"), help="folder for the outputs")
    ap.add_argument(
        "--eval-deals", type=int, default=d.eval_deals, help="deals of the final evaluations"
    )
    ap.add_argument("--curve-deals", type=int, default=d.curve_deals, help="deals per curve point")
    ap.add_argument(
        "--eval-every", type=int, default=d.eval_every, help="iterations between curve points"
    )
    ap.add_argument("--hidden", type=int, default=d.hidden)
    ap.add_argument("--layers", type=int, default=d.layers)
    ap.add_argument("--lr", type=float, default=d.lr)
    ap.add_argument("--epochs", type=int, default=d.epochs)
    ap.add_argument("--minibatches", type=int, default=d.minibatches)
    ap.add_argument("--gamma", type=float, default=d.gamma)
    ap.add_argument("--gae-lambda", type=float, default=d.gae_lambda)
    ap.add_argument("--clip", type=float, default=d.clip)
    ap.add_argument("--ent-coef", type=float, default=d.ent_coef)
    ap.add_argument("--vf-coef", type=float, default=d.vf_coef)
    ap.add_argument("--max-grad-norm", type=float, default=d.max_grad_norm)
    ap.add_argument("--reward-scale", type=float, default=d.reward_scale, help="0: per game")
    ap.add_argument(
        "--ray-actors",
        type=int,
        default=d.ray_actors,
        help="collect on N Ray actors (the cluster in RAY_ADDRESS, else a local one)",
    )
    args = vars(ap.parse_args(argv))
    out: Path = args.pop("out")
    total: int = args.pop("steps")
    cfg = Config(**args)
    if total:
        per_iteration = cfg.envs * cfg.rollout * max(1, cfg.ray_actors)
        cfg.iterations = max(1, -(-total // per_iteration))
    if cfg.envs * cfg.rollout * max(1, cfg.ray_actors) < cfg.minibatches:
        ap.error("fewer decisions per iteration than minibatches: raise --envs or --rollout")
    return cfg, out


def main(argv: Sequence[str] | None = None) -> None:
    """Trains, evaluates before and after against the heuristic and random, and writes the
    checkpoint, the curve (CSV and PNG) and the figures (JSON) into the output folder."""
    cfg, out = parse_args(argv)
    out.mkdir(parents=True, exist_ok=True)
    if cfg.ray_actors:
        import os

        import ray

        os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
        # The cluster named by RAY_ADDRESS (ray start --head prints it); without it, Ray
        # starts a local one on this machine.
        ray.init()
    stem = out / f"ppo-{cfg.game}"
    print(f"config: {json.dumps(asdict(cfg))}", flush=True)
    res = train(cfg, log=lambda s: print(s, flush=True))
    save_params(res.params, stem.with_suffix(".npz"), asdict(cfg))
    if res.curve:
        with stem.with_suffix(".csv").open("w", newline="") as f:
            keys = list(dict.fromkeys(k for r in res.curve for k in r))
            w = csv.DictWriter(f, fieldnames=keys)
            w.writeheader()
            w.writerows(res.curve)
        plot(res.curve, cfg.game, stem.with_suffix(".png"))
    # Final figures on deals the curve never saw; before and after on the same deals.
    t0 = time.perf_counter()
    figures: dict[str, Any] = {
        "config": asdict(cfg),
        "train_seconds": res.seconds,
        "steps": res.steps,
    }
    seats = cb.new_hand(cfg.game, seed=0).num_players
    for opp in ("heuristic", "random"):
        # With more seats than two bots, the first listed fills the extra seats: both orders
        # when that changes the policy's share (three seats: two, or one alone).
        held = {True: (seats + 1) // 2, False: seats // 2}
        for ppo_first in (True, False) if held[True] != held[False] else (True,):
            key = opp if ppo_first else f"{opp}, ppo in {held[False]} of {seats} seats"
            seed = cfg.seed + 1000
            before = evaluate(res.initial, cfg.game, opp, cfg.eval_deals, seed, ppo_first=ppo_first)
            after = evaluate(res.params, cfg.game, opp, cfg.eval_deals, seed, ppo_first=ppo_first)
            gain, gain_ci = compare(before, after)
            figures[key] = {"deals": cfg.eval_deals, "gain": {"mean": gain, "ci95": gain_ci}}
            for name, ev in (("untrained", before), ("trained", after)):
                margin, margin_ci = ev.margin()
                figures[key][name] = {
                    "mean": ev.mean,
                    "ci95": ev.ci95,
                    "opponent_mean": ev.opponent_mean,
                    "margin": {"mean": margin, "ci95": margin_ci},
                }
                print(
                    f"vs {key:20s} {name:9s} {ev.mean:6.3f} [{ev.ci95[0]:6.3f}, "
                    f"{ev.ci95[1]:6.3f}] points per hand, {opp} {ev.opponent_mean:6.3f}, "
                    f"margin {margin:+.3f} [{margin_ci[0]:+.3f}, {margin_ci[1]:+.3f}]",
                    flush=True,
                )
            print(
                f"vs {key:20s} gain from training {gain:+.3f} [{gain_ci[0]:+.3f}, "
                f"{gain_ci[1]:+.3f}] points per hand ({cfg.eval_deals} duplicate deals, 95% CI)",
                flush=True,
            )
    figures["eval_seconds"] = time.perf_counter() - t0
    stem.with_suffix(".json").write_text(json.dumps(figures, indent=2) + "\n")
    print(f"trained {res.steps} steps in {res.seconds:.1f}s; outputs in {out}/", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
