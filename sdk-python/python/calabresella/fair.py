"""Checking that a record's deals are the ones its server committed to.

A table's deals come from a secret the server drew and committed to (its SHA-256 is published
when the table opens) and from every player's contribution; the record of a finished match
reveals the secret, so anyone can re-derive every hand (docs/RECORDS.md, "Deals"). Seeded
records (simulation) are re-derived from their seed and reported as such.

>>> import calabresella as cb
>>> state = cb.new_match("calabresella", seed=3, target=5)
>>> while not state.is_terminal():
...     state.apply_action(state.observation().legal_actions[0])
>>> record = state.to_record(meta={"deals": {"scheme": "seeded", "seed": "3"}})
>>> cb.verify_record(record).seeded
True
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from calabresella import _core

SCHEME = "calabresella-deal/1"
"""The committed scheme this version checks."""


@dataclass(frozen=True)
class DealVerification:
    """What :func:`verify_record` found: every hand's deal is the derived one."""

    scheme: str
    """``calabresella-deal/1`` (committed) or ``seeded``."""
    hands: int
    """Hands re-derived and found equal."""
    commitment: str | None
    """The commitment (64 hex digits) of a committed record; ``None`` when seeded."""
    seed: int | None
    """The seed of a seeded record; ``None`` when committed."""
    summary: str
    """One line for a person: ``deals verified: ...`` or ``seeded by the creator: ...``."""

    @property
    def seeded(self) -> bool:
        """Whether the creator chose the seed: reproducible, not committed."""
        return self.scheme == "seeded"


def verify_record(record: str | Mapping[str, Any]) -> DealVerification:
    """Checks a game record (JSON text, or the record as a dict): it replays, its secret hashes
    to its commitment, and every hand's deal is the one derived from the secret, the context and
    the contributions (or from the seed of a seeded record).

    Raises :class:`calabresella.DealMismatchError` naming the first mismatch, or
    :class:`calabresella.InvalidRecordError` for a record that does not parse or replay.
    """
    text = record if isinstance(record, str) else json.dumps(dict(record))
    found = _core.verify_record(text)
    return DealVerification(
        scheme=found["scheme"],
        hands=found["hands"],
        commitment=found["commitment"],
        seed=found["seed"],
        summary=found["summary"],
    )
