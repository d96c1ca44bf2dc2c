"""Submitted bots: the same :class:`~calabresella.bots.Bot` that plays in-process and on a
server, run by a server over standard input and output (the ``calabresella-bot/1`` protocol,
docs/SUBMISSIONS.md). A submitted ``.py`` file ends with::

    from calabresella.stdio import serve

    class MyBot:
        def act(self, observation):
            return observation.legal_actions[0]

    serve(MyBot())

and is submitted with ``calabresella submit --name my-bot my_bot.py``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import IO, Any

from calabresella._core import Observation
from calabresella.bots import Action, Bot, as_policy

PROTOCOL = "calabresella-bot/1"
"""The protocol's name and version, as the server's ``start`` line gives it."""


class ProtocolError(Exception):
    """The server sent something this version of the protocol does not know."""


def serve(
    bot: Bot | Callable[[Observation], Action],
    *,
    stdin: IO[str] | None = None,
    stdout: IO[str] | None = None,
) -> dict[str, Any] | None:
    """Plays a match over standard input and output: reads the server's lines and, at every
    turn, answers with the action ``bot`` chooses for the turn's observation. Returns the
    ``end`` line's result (a dict of the proto3 JSON ``MatchEnded``), or ``None`` when the input
    ends first. Write logs to standard error: standard output is the protocol's."""
    policy = as_policy(bot)
    source = stdin if stdin is not None else sys.stdin
    sink = stdout if stdout is not None else sys.stdout
    for line in source:
        if not line.strip():
            continue
        message = json.loads(line)
        kind = message.get("type")
        if kind == "start":
            if message.get("protocol") != PROTOCOL:
                raise ProtocolError(
                    f"the server speaks {message.get('protocol')!r}, not {PROTOCOL}"
                )
        elif kind == "observe":
            if "turn" not in message:
                continue
            observation = Observation.from_json(json.dumps(message["observation"]))
            answer = observation.notation(policy(observation))
            sink.write(answer + "\n")
            sink.flush()
        elif kind == "end":
            result: dict[str, Any] = message.get("result") or {}
            return result
        else:
            raise ProtocolError(f"unknown message type {kind!r}")
    return None
