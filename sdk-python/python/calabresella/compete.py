"""Competing on a server: :func:`compete` keeps a bot playing every table the server schedules
for a registered player (tournaments, and matchmaking when asked), reconnecting as needed."""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from typing import Any

from calabresella._core import BotError, Client, ConnectionLostError, Observation, ServerError
from calabresella.bots import Action, Bot

_log = logging.getLogger("calabresella.compete")

# Server answers after which a new connection may succeed: the server restarting, the network.
_TRANSIENT = {"UNAVAILABLE", "DEADLINE_EXCEEDED", "UNKNOWN", "INTERNAL", "CANCELLED"}


def _stopped(stop: threading.Event | Callable[[], bool] | None) -> bool:
    if stop is None:
        return False
    if isinstance(stop, threading.Event):
        return stop.is_set()
    return bool(stop())


def compete(
    bot: Bot | Callable[[Observation], Action],
    address: str,
    key: str,
    *,
    max_tables: int = 1,
    seek: dict[str, Any] | None = None,
    stop: threading.Event | Callable[[], bool] | None = None,
    retry_s: float = 1.0,
    timeout: float = 10.0,
    ca_cert: str | os.PathLike[str] | None = None,
    on_match: Callable[[dict[str, Any]], None] | None = None,
) -> list[dict[str, Any]]:
    """Plays with ``bot`` every table the server at ``address`` schedules for the registered
    player whose API key is ``key``, until ``stop`` (an :class:`threading.Event`, or a
    callable polled about twice a second) says so; returns one summary per table played
    (:meth:`RemoteSeat.play`'s, with ``table_id``, ``seat`` and ``tournament_id``; a table whose
    play failed has ``error`` instead).

    Tournament tables arrive on a long-lived call; up to ``max_tables`` are played at once,
    each on its own thread (so the bot is called from several threads when ``max_tables`` is
    above 1). When the call drops (the server restarts, the network fails) it reconnects every
    ``retry_s`` seconds, and the server hands back the unfinished tables with fresh seat
    tokens (each drop and reconnection is logged on the ``calabresella.compete`` logger). The
    first connection must succeed: a wrong address raises :class:`ConnectionLostError` at
    once. ``seek``, when given, also plays matchmaking matches one after another: its items
    are :meth:`Client.seek`'s arguments (``game``, ``bots_after_ms``, ``rating_window``, the
    clock and the rule options). A bad or disabled key raises :class:`ServerError` at once.
    ``on_match`` is called with each summary as it ends."""
    results: list[dict[str, Any]] = []
    lock = threading.Lock()
    threads: list[threading.Thread] = []

    def play_one(client: Client, a: dict[str, Any]) -> None:
        info = {
            "table_id": a["table_id"],
            "seat": a["seat"],
            "tournament_id": a.get("tournament_id", ""),
        }
        try:
            summary = client.seat(a["table_id"], a["seat"], a["seat_token"]).play(bot)
            summary.update(info)
        except ServerError as e:
            if e.reason == "BAD_TOKEN":
                # A newer connection was handed a fresh token for this seat: it plays on.
                return
            summary = {**info, "error": f"{e.reason or e.code}: {e.message}"}
        except BotError as e:
            # The seat stays taken: the table's clock plays for it from here.
            summary = {**info, "error": f"bot: {e}"}
        with lock:
            results.append(summary)
        if on_match is not None:
            on_match(summary)

    def start(client: Client, a: dict[str, Any]) -> None:
        t = threading.Thread(target=play_one, args=(client, a), daemon=True)
        t.start()
        with lock:
            threads[:] = [x for x in threads if x.is_alive()]
            threads.append(t)

    def connect_now() -> Client:
        return Client(address, timeout=timeout, ca_cert=ca_cert, key=key)

    def seeking() -> None:
        assert seek is not None
        while not _stopped(stop):
            try:
                client = connect_now()
                a = client.seek(**seek)
            except ServerError as e:
                if e.code not in _TRANSIENT:
                    raise
                time.sleep(retry_s)
                continue
            play_one(client, a)

    if seek is not None:
        seeker = threading.Thread(target=seeking, daemon=True)
        seeker.start()

    connected = False
    while not _stopped(stop):
        try:
            client = connect_now()
            tables = client.compete(max_tables=max_tables)
            if connected:
                _log.warning("reconnected to %s", address)
            connected = True
            while not _stopped(stop) and not tables.closed:
                a = tables.next(timeout=0.5)
                if a is not None:
                    start(client, a)
            tables.close()
            if not _stopped(stop):
                _log.warning("the server closed the Compete call; reconnecting")
        except ConnectionLostError as e:
            if not connected:
                raise
            _log.warning("connection to %s lost (%s); reconnecting", address, e)
        except ServerError as e:
            if not connected or e.code not in _TRANSIENT:
                raise
            _log.warning("the server answered %s; reconnecting", e.code)
        if not _stopped(stop):
            time.sleep(retry_s)
    with lock:
        running = list(threads)
    for t in running:
        t.join()
    return results
