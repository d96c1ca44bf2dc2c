# Ray's own functions are not all annotated.
# mypy: disable-error-code="no-untyped-call"
"""Scale-out over Ray, on a local two-node cluster (``ray.cluster_utils.Cluster``): a sharded
tournament pools into exactly the local result, and a pool of actors steps VectorEnvs.

Ray binds the host's routable address by itself, so these tests run only in a network
namespace with nothing but loopback (``scripts/test-ray.sh`` starts one with ``unshare -n``);
elsewhere they are skipped, unless ``CALABRESELLA_REQUIRE_RAY=1`` makes that a failure."""

from __future__ import annotations

import importlib.util
import logging
import os
import socket
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import calabresella as cb
from calabresella import _core

ONLY_LOOPBACK = [name for _, name in socket.if_nameindex()] == ["lo"]

if not ONLY_LOOPBACK:
    if os.environ.get("CALABRESELLA_REQUIRE_RAY") == "1":
        raise RuntimeError(
            "CALABRESELLA_REQUIRE_RAY=1 but this network namespace has more than loopback: "
            "run the Ray tests through scripts/test-ray.sh"
        )
    pytest.skip(
        "Ray tests run in a loopback-only network namespace (scripts/test-ray.sh)",
        allow_module_level=True,
    )

os.environ["RAY_USAGE_STATS_ENABLED"] = "0"

import ray  # noqa: E402 (after the environment Ray reads at import)
from ray.cluster_utils import Cluster  # noqa: E402

import calabresella.ray as cbray  # noqa: E402


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    """A head and one worker node, one CPU each, every address on 127.0.0.1."""
    c = Cluster(
        initialize_head=True,
        head_node_args={
            "num_cpus": 1,
            "node_ip_address": "127.0.0.1",
            "include_dashboard": False,
        },
    )
    c.add_node(num_cpus=1, node_ip_address="127.0.0.1")
    c.wait_for_nodes()
    ray.init(address=c.address, logging_level=logging.WARNING, log_to_driver=False)
    # The workers cannot import this test module: its bots and policies travel by value.
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    try:
        assert len([n for n in ray.nodes() if n["Alive"]]) == 2
        yield c
    finally:
        ray.shutdown()
        c.shutdown()


def _same(local: cb.TournamentResult, remote: cb.TournamentResult) -> None:
    np.testing.assert_array_equal(local.seeds, remote.seeds)
    np.testing.assert_array_equal(local.seatings, remote.seatings)
    np.testing.assert_array_equal(local.returns, remote.returns)
    np.testing.assert_array_equal(local.won, remote.won)
    np.testing.assert_array_equal(local.hands, remote.hands)
    np.testing.assert_array_equal(local.actions, remote.actions)
    for a, b in zip(local.bots, remote.bots, strict=True):
        assert (a.name, a.matches, a.wins, a.faults) == (b.name, b.matches, b.wins, b.faults)
        assert a.mean == b.mean and a.ci95 == b.ci95
        assert a.rating == b.rating
    order = [b.name for b in sorted(local.bots, key=lambda b: -(b.rating or 0.0))]
    assert order == [b.name for b in sorted(remote.bots, key=lambda b: -(b.rating or 0.0))]


def first_legal(obs: cb.Observation) -> int:
    """A stateless Python bot: pickled to the workers, it plays as it does locally."""
    return obs.legal_actions[0]


@pytest.mark.parametrize(
    "game, bots, episode",
    [
        ("calabresella", ["heuristic", "random", "heuristic"], "hand"),
        ("tressette-in-due", ["heuristic", first_legal], "match"),
        ("briscola-chiamata", ["random", "heuristic"], "hand"),
    ],
)
def test_a_sharded_tournament_pools_into_the_local_result(
    cluster: Cluster, game: str, bots: list[Any], episode: str
) -> None:
    args: dict[str, Any] = {"deals": 12, "seed": 5, "episode": episode}
    local = cb.tournament(bots, game, progress=False, threads=1, keep_records=True, **args)
    remote = cbray.tournament(bots, game, shards=5, keep_records=True, progress=False, **args)
    _same(local, remote)
    assert local.records == remote.records
    # A different cut into shards changes nothing either.
    # A different cut into shards and the progress bar change nothing.
    _same(local, cbray.tournament(bots, game, shards=1, threads=1, progress=True, **args))


def test_tasks_run_on_both_nodes(cluster: Cluster) -> None:
    @ray.remote(num_cpus=1, scheduling_strategy="SPREAD")
    def node() -> str:
        time.sleep(0.5)
        return str(ray.get_runtime_context().get_node_id())

    # Two one-CPU nodes and two tasks holding a CPU at the same time: one on each node.
    seen = set(ray.get([node.remote() for _ in range(2)]))
    assert len(seen) == 2, ray.available_resources()


def test_tournament_arguments_are_checked(cluster: Cluster) -> None:
    with pytest.raises(cb.NotationError, match="shards"):
        cbray.tournament(["random"], "calabresella", deals=2, shards=0)
    with pytest.raises(cb.NotationError, match="threads"):
        cbray.tournament(["random"], "calabresella", deals=2, threads=0)
    # Each node has one CPU: a task of two would never start.
    with pytest.raises(cb.NotationError, match="largest node"):
        cbray.tournament(["random"], "calabresella", deals=2, threads=2)
    with pytest.raises(cb.NotationError, match="deals"):
        cbray.tournament(["random"], "calabresella", deals=0)
    with pytest.raises(cb.CalabresellaError):
        cbray.tournament(["random"], "calabresella", deals=2, no_such_option=True)


def greedy_first(obs: np.ndarray, masks: np.ndarray, players: np.ndarray) -> np.ndarray:
    """The first legal action in every env."""
    first: np.ndarray = np.argmax(masks, axis=1)
    return first


def _node(env: _core.VectorEnv) -> str:
    return str(ray.get_runtime_context().get_node_id())


def test_the_rollout_pool_steps_envs_on_both_nodes(cluster: Cluster) -> None:
    with cbray.RolloutPool("tressette-in-due", actors=2, envs_per_actor=8, seed=3) as pool:
        assert pool.num_envs == 16
        assert len(set(pool.map(_node))) == 2
        batches = pool.rollout(greedy_first, steps=50)
    assert len(batches) == 2
    for i, batch in enumerate(batches):
        # The same games as a local VectorEnv seeded like actor i.
        env = _core.VectorEnv("tressette-in-due", 8, seed=3 + i, episode="hand")
        env.reset()
        expected = cbray.collect(env, greedy_first, 50)
        for key, value in expected.items():
            np.testing.assert_array_equal(batch[key], value, err_msg=key)
        assert batch["observations"].shape == (50, 8, _core.OBSERVATION_SIZE)
        chosen = np.take_along_axis(batch["masks"], batch["actions"][..., None], axis=2)
        assert (chosen == 1).all(), "every action taken was legal"
        assert batch["dones"].any()
    joined = cbray.concat(batches)
    assert joined["actions"].shape == (50, 16)
    # The pool's actors keep their games between rollouts.


def test_rollout_pool_arguments_are_checked(cluster: Cluster) -> None:
    with pytest.raises(cb.NotationError):
        cbray.RolloutPool("tressette-in-due", actors=0)
    with pytest.raises(cb.CalabresellaError):
        cbray.RolloutPool("no-such-game", actors=1)
    with (
        cbray.RolloutPool("calabresella", actors=1, envs_per_actor=2) as pool,
        pytest.raises(cb.NotationError, match="steps"),
    ):
        pool.rollout(greedy_first, steps=0)


def test_the_ppo_example_collects_on_ray_actors(cluster: Cluster) -> None:
    path = Path(__file__).resolve().parents[1] / "examples" / "ppo.py"
    spec = importlib.util.spec_from_file_location("ppo_on_ray", path)
    assert spec is not None and spec.loader is not None
    ppo = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = ppo
    spec.loader.exec_module(ppo)
    cfg = ppo.Config(
        game="tressette-in-due", iterations=2, envs=16, rollout=16, curve_deals=0, ray_actors=2
    )
    res = ppo.train(cfg, log=lambda _: None)
    # Two actors of 16 games, 16 steps each, twice; the update moved the weights.
    assert res.steps == 2 * 2 * 16 * 16
    assert any(
        not np.array_equal(a, b)
        for a, b in zip(res.params.arrays(), res.initial.arrays(), strict=True)
    )
