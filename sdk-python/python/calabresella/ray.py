"""Scale-out over a Ray cluster: tournaments sharded over Ray tasks, and a pool of Ray actors
stepping :class:`~calabresella.VectorEnv` for self-play rollouts. Needs the ``ray`` extra
(``pip install calabresella[ray]``) and the same ``calabresella`` wheel on every node.

A sharded tournament plays exactly the matches :func:`calabresella.tournament` plays for the
same arguments (the plan of seeds and seatings is fixed first), so it pools into the same
result: the same per-match returns, means, CIs and ratings. Bots travel to the workers by
pickling: built-in names, functions and picklable objects. A bot that keeps state between
matches (a learning bot, a shared random generator) gets a fresh copy per shard, so its
results can differ from one process's run. A bot or policy defined in a script travels by
value; one defined in a module of yours needs that module on every node (installed, or shipped
with ``ray.init(runtime_env={"py_modules": [...]})``, or
``ray.cloudpickle.register_pickle_by_value(module)``).

>>> import ray, calabresella.ray as cbray
>>> ray.init()                                                  # doctest: +SKIP
>>> result = cbray.tournament(["heuristic", "random"], "calabresella", deals=1000)  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import ray

from calabresella import _core
from calabresella.bots import BotLike
from calabresella.tournament import (
    Plan,
    TournamentResult,
    _progress_bar,
    plan,
    play_shard,
    pool_shards,
    summarise,
)


def _shard_bounds(total: int, shards: int) -> list[tuple[int, int]]:
    """``shards`` contiguous ranges covering ``0..total``, as even as can be."""
    shards = max(1, min(shards, total))
    step = total / shards
    cuts = [round(i * step) for i in range(shards + 1)]
    return [(cuts[i], cuts[i + 1]) for i in range(shards) if cuts[i] < cuts[i + 1]]


@ray.remote
def _play(p: Plan, start: int, stop: int, records: bool, threads: int) -> dict[str, Any]:
    # A task plays one shard on the cores it reserved (one by default): Ray spreads the tasks.
    return play_shard(p, start, stop, threads=threads, records=records)


def tournament(
    bots: Sequence[BotLike] | Mapping[str, BotLike],
    game: str = "calabresella",
    *,
    deals: int = 100,
    seed: int = 0,
    duplicate: bool = True,
    episode: str = "match",
    threads: int = 1,
    progress: bool = True,
    shards: int | None = None,
    records: str | Path | None = None,
    keep_records: bool = False,
    ratings: bool = True,
    move_limit_ms: float | None = None,
    on_slow: str = "fallback",
    **options: Any,
) -> TournamentResult:
    """:func:`calabresella.tournament` with its matches spread over Ray tasks.

    ``shards`` is the number of tasks (default: four per CPU of the cluster, at most one per
    match); each task reserves ``threads`` CPUs and plays its shard on that many threads. The
    progress bar moves as shards finish. The other arguments and the result are
    :func:`calabresella.tournament`'s. Ray must be initialised (``ray.init(address=...)``);
    otherwise Ray starts a local one-machine cluster.
    """
    p = plan(
        bots,
        game,
        deals=deals,
        seed=seed,
        duplicate=duplicate,
        episode=episode,
        move_limit_ms=move_limit_ms,
        on_slow=on_slow,
        **options,
    )
    if shards is None:
        resources: dict[str, float] = ray.cluster_resources()  # type: ignore[no-untyped-call]
        cpus = int(resources.get("CPU", 1))
        shards = 4 * max(cpus, 1)
    if shards < 1:
        raise _core.NotationError("shards must be at least 1")
    if threads < 1:
        raise _core.NotationError("threads (CPUs per task) must be at least 1")
    nodes = ray.nodes()  # type: ignore[no-untyped-call]
    widest = max((n["Resources"].get("CPU", 0) for n in nodes if n["Alive"]), default=0)
    if threads > widest:
        # Ray would wait for ever for a node with that many CPUs.
        raise _core.NotationError(
            f"threads={threads} CPUs per task, but the largest node has {widest:g}"
        )
    keep = keep_records or records is not None
    plan_ref = ray.put(p)
    task = _play.options(num_cpus=threads)
    bounds = _shard_bounds(p.num_matches, shards)
    futures = [task.remote(plan_ref, a, b, keep, threads) for a, b in bounds]
    bar = _progress_bar(p.num_matches, progress)
    size = {f: b - a for f, (a, b) in zip(futures, bounds, strict=True)}
    pending = list(futures)
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            if bar is not None:
                bar.update(sum(size[f] for f in done))
    finally:
        if bar is not None:
            bar.close()
    out = pool_shards(ray.get(futures))
    return summarise(p, out, ratings=ratings, records=records, keep_records=keep_records)


Policy = Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]
"""A batched policy: ``(observations, masks, players) -> actions``, one action per env."""


def collect(env: _core.VectorEnv, policy: Policy, steps: int) -> dict[str, np.ndarray]:
    """Steps ``env`` ``steps`` times with ``policy`` and returns the trajectory, time first:
    ``observations`` ``[steps, envs, OBSERVATION_SIZE]``, ``masks``, ``players`` (who
    decided), ``actions``, then ``rewards`` (``[steps, envs, players]``: each seat's points
    from that step) and ``dones`` as ``step`` returned them."""
    obs, masks, players = env.observations, env.masks, env.players
    n = env.num_envs
    batch: dict[str, np.ndarray] = {
        "observations": np.empty((steps, n, obs.shape[1]), np.float32),
        "masks": np.empty((steps, n, masks.shape[1]), np.int8),
        "players": np.empty((steps, n), np.int64),
        "actions": np.empty((steps, n), np.int64),
        "rewards": np.empty((steps, *env.rewards.shape), np.float32),
        "dones": np.empty((steps, n), np.bool_),
    }
    for t in range(steps):
        batch["observations"][t] = obs
        batch["masks"][t] = masks
        batch["players"][t] = players
        actions = np.asarray(policy(obs, masks, players), dtype=np.int64)
        batch["actions"][t] = actions
        obs, masks, rewards, dones, players = env.step(actions)
        batch["rewards"][t] = rewards
        batch["dones"][t] = dones
    return batch


@ray.remote
class _EnvActor:
    """One Ray actor holding one VectorEnv between calls (its state survives rollouts)."""

    def __init__(self, game: str, num_envs: int, seed: int, episode: str, options: dict[str, Any]):
        self.env = _core.VectorEnv(game, num_envs, seed=seed, episode=episode, **options)
        self.env.reset()

    def run(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
        return fn(self.env, *args)


class RolloutPool:
    """Ray actors, each stepping its own :class:`~calabresella.VectorEnv` (``envs_per_actor``
    games), for self-play rollouts over a cluster. Actor ``i`` is seeded ``seed + i``, so a
    pool replays the same games for the same seeds and policies.

    >>> pool = RolloutPool("tressette-in-due", actors=4, envs_per_actor=256)   # doctest: +SKIP
    >>> batches = pool.rollout(policy, steps=128)   # one dict of arrays per actor  # doctest: +SKIP
    """

    def __init__(
        self,
        game: str = "calabresella",
        *,
        actors: int = 2,
        envs_per_actor: int = 64,
        seed: int = 0,
        episode: str = "hand",
        num_cpus: float = 1.0,
        **options: Any,
    ) -> None:
        if actors < 1 or envs_per_actor < 1:
            raise _core.NotationError("actors and envs_per_actor must be at least 1")
        # Made here first so a wrong game or option fails in the caller, not in an actor.
        _core.VectorEnv(game, 1, seed=seed, episode=episode, **options)
        self.game = game
        """The game played."""
        self.envs_per_actor = envs_per_actor
        """Games per actor."""
        # ray.remote made _EnvActor an ActorClass, which the type checker cannot see.
        actor = _EnvActor.options(num_cpus=num_cpus)  # type: ignore[attr-defined]
        self.actors = [
            actor.remote(game, envs_per_actor, seed + i, episode, dict(options))
            for i in range(actors)
        ]
        """The Ray actor handles."""

    @property
    def num_envs(self) -> int:
        """Games over all actors."""
        return len(self.actors) * self.envs_per_actor

    def map(self, fn: Callable[..., Any], *args: Any) -> list[Any]:
        """Runs ``fn(env, *args)`` in every actor on its VectorEnv, in parallel; the results in
        actor order. ``fn`` and ``args`` are pickled to the actors (a policy's weights go in
        ``args``)."""
        return ray.get([a.run.remote(fn, args) for a in self.actors])

    def map_indexed(self, fn: Callable[..., Any], *args: Any) -> list[Any]:
        """Like :meth:`map`, with the actor's index: ``fn(env, i, *args)`` (to seed each
        actor's own random choices differently)."""
        return ray.get([a.run.remote(fn, (i, *args)) for i, a in enumerate(self.actors)])

    def rollout(self, policy: Policy, steps: int) -> list[dict[str, np.ndarray]]:
        """Every actor steps its games ``steps`` times with ``policy`` (see :func:`collect`)."""
        if steps < 1:
            raise _core.NotationError("steps must be at least 1")
        results: list[dict[str, np.ndarray]] = self.map(collect, policy, steps)
        return results

    def close(self) -> None:
        """Stops the actors."""
        for a in self.actors:
            ray.kill(a)
        self.actors = []

    def __enter__(self) -> RolloutPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def concat(batches: Sequence[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """Actor batches joined along the env axis (axis 1), as if one VectorEnv had stepped."""
    if not batches:
        raise _core.NotationError("no batches to join")
    return {k: np.concatenate([b[k] for b in batches], axis=1) for k in batches[0]}


__all__ = [
    "Policy",
    "RolloutPool",
    "collect",
    "concat",
    "tournament",
]
