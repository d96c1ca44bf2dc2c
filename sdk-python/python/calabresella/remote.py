"""Remote play: the same bots on a calabresella server, over gRPC (tonic, inside the
extension; the GIL is released while waiting)."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from typing import Any

from calabresella._core import Client, Observation
from calabresella.bots import Action, Bot


def connect(
    address: str,
    *,
    timeout: float = 10.0,
    ca_cert: str | os.PathLike[str] | None = None,
    client_cert: str | os.PathLike[str] | None = None,
    client_key: str | os.PathLike[str] | None = None,
    key: str | None = None,
) -> Client:
    """A client for the server at ``address``: ``"127.0.0.1:50051"`` or an ``http://`` URL in
    plain text, an ``https://`` URL over TLS, verified against the system's root certificates
    or the CA certificate in the PEM file ``ca_cert``; ``client_cert`` and ``client_key`` (PEM
    files) answer a server that asks for a client certificate. Raises
    :class:`ConnectionLostError` when it cannot be reached (or a certificate is refused) within
    ``timeout`` seconds, :class:`NotationError` for a bad address or certificate file.
    ``key`` is a registered player's API key (``calabresella players add NAME`` prints it):
    seats are then taken as that player; without a key, as a guest."""
    return Client(
        address,
        timeout=timeout,
        ca_cert=ca_cert,
        client_cert=client_cert,
        client_key=client_key,
        key=key,
    )


def play(
    bot: Bot | Callable[[Observation], Action],
    server: str | Client,
    table_id: str,
    *,
    seat: int | None = None,
    name: str | None = None,
    key: str | None = None,
) -> dict[str, Any]:
    """Joins ``table_id`` (at ``seat`` or the lowest open one) and plays it with ``bot`` until
    the match ends, resuming after dropped streams. Returns a summary: ``reason``,
    ``winners``, ``won``, ``totals``, ``decisions``, ``faults``, ``reconnects``... The seat is
    taken as the registered player whose API key is ``key`` (or the client's), else as the
    guest ``name`` (default ``"python"``)."""
    if isinstance(server, Client):
        if key is not None:
            raise ValueError("a Client carries its own key: give it to connect(), not to play()")
        client = server
    else:
        client = connect(server, key=key)
    return client.join(table_id, seat=seat, name=name).play(bot)


async def play_async(
    bot: Bot | Callable[[Observation], Action],
    server: str | Client,
    table_id: str,
    *,
    seat: int | None = None,
    name: str | None = None,
    key: str | None = None,
) -> dict[str, Any]:
    """:func:`play` for asyncio: runs in a worker thread, so the event loop stays free (the
    extension releases the GIL while it waits). The bot is called from that thread."""
    return await asyncio.to_thread(play, bot, server, table_id, seat=seat, name=name, key=key)
