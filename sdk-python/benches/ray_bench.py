"""Tournament throughput over Ray against one local thread, in the same run.

Starts a local Ray cluster of ``--nodes`` nodes with one CPU each (``ray.cluster_utils``, every
address 127.0.0.1), plays the same tournament locally on one thread and sharded over the
cluster, and prints matches per second (medians of ``--runs``) and their ratio. Run it where Ray
reaches only loopback:

    unshare -n bash -c 'ip link set lo up && RAY_USAGE_STATS_ENABLED=0 \\
        .venv/bin/python sdk-python/benches/ray_bench.py'
"""

from __future__ import annotations

import argparse
import logging
import statistics
import time

import ray
from ray.cluster_utils import Cluster

import calabresella as cb
import calabresella.ray as cbray


def main() -> None:
    """Command line: ``--game``, ``--deals``, ``--nodes``, ``--runs``."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="calabresella")
    parser.add_argument("--deals", type=int, default=4000)
    parser.add_argument("--nodes", type=int, default=2)
    parser.add_argument("--runs", type=int, default=3)
    a = parser.parse_args()
    cluster = Cluster(
        initialize_head=True,
        head_node_args={"num_cpus": 1, "node_ip_address": "127.0.0.1", "include_dashboard": False},
    )
    for _ in range(a.nodes - 1):
        cluster.add_node(num_cpus=1, node_ip_address="127.0.0.1")
    cluster.wait_for_nodes()
    ray.init(address=cluster.address, logging_level=logging.WARNING, log_to_driver=False)
    bots = ["heuristic", "random", "heuristic"]
    args = {"deals": a.deals, "seed": 1, "episode": "hand", "ratings": False}
    try:
        cbray.tournament(bots, a.game, **{**args, "deals": 50})  # warm the workers up
        local, remote = [], []
        for _ in range(a.runs):
            t = time.perf_counter()
            res = cb.tournament(bots, a.game, threads=1, progress=False, **args)
            local.append(res.num_matches / (time.perf_counter() - t))
            t = time.perf_counter()
            res = cbray.tournament(bots, a.game, **args)
            remote.append(res.num_matches / (time.perf_counter() - t))
    finally:
        ray.shutdown()
        cluster.shutdown()  # type: ignore[no-untyped-call]
    lm, rm = statistics.median(local), statistics.median(remote)
    print(
        f"{a.game}, {res.num_matches} hands (duplicate), medians of {a.runs}:\n"
        f"  one local thread      {lm:10.0f} hands/s\n"
        f"  Ray, {a.nodes} nodes x 1 CPU  {rm:10.0f} hands/s  ({rm / lm:.2f}x)"
    )


if __name__ == "__main__":
    main()
