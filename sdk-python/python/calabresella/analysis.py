"""Analysis of a recorded match: where each player lost points (docs/ANALYSIS.md).

Every decision with a choice is scored from the decider's own information (the deals its view
allows, searched as the ``pimc`` bot does), the chosen action's loss against the best is taken
in the game's points, and card play with few tricks left also gets exact values with every hand
known. The same analysis as ``calabresella analyse RECORD --json``.

>>> import calabresella as cb
>>> state = cb.new_match("tressette-in-due", seed=5, target=5)
>>> while not state.is_terminal():
...     state.apply_action(state.observation().legal_actions[0])
>>> a = cb.analyse(state.to_record(), budget="worlds=4:work=200")
>>> sorted(s.seat for s in a.seats)
[0, 1]
>>> all(d.loss >= 0 for d in a.decisions)
True
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from calabresella import _core

FORMAT = "calabresella-analysis/1"
"""The analysis format this version writes."""


@dataclass(frozen=True)
class ActionValue:
    """One legal action of a decision with its values, in the game's points for the decider's
    side."""

    action: str
    """The action (record notation)."""
    value: float
    """Its mean value over the deals the decider's view allows."""
    exact: int | None
    """Its exact value with every hand known, once few tricks are left; else ``None``."""


@dataclass(frozen=True)
class Decision:
    """One decision with a choice, scored."""

    hand: int
    """The hand (0-based)."""
    index: int
    """The action's place in the hand's actions (0-based)."""
    seat: int
    """The seat that decided (for a dummy's card, the seat playing it)."""
    phase: str
    """``auction`` (bids, calls, discards) or ``play``."""
    chosen: str
    """The action taken."""
    best: str
    """The best action by value."""
    loss: float
    """The best action's value less the chosen one's (0 or more)."""
    exact_loss: int | None
    """The same with every hand known, where exact values were computed."""
    large: bool
    """Whether the loss is above the large-error threshold."""
    actions: tuple[ActionValue, ...]
    """Every legal action, in legal order."""


@dataclass(frozen=True)
class SeatSummary:
    """One seat's figures over its decisions with a choice."""

    seat: int
    decisions: int
    mean_loss: float
    """Mean loss per decision, in points."""
    total_loss: float
    large_errors: int
    """Decisions with a loss above the threshold."""
    accuracy: float
    """Percent of decisions within a tenth of the threshold of the best."""


@dataclass(frozen=True)
class Analysis:
    """A whole match analysed (:func:`analyse`)."""

    game: str
    budget: str
    """The search per decision, as ``pimc`` parameters."""
    seed: int
    large: float
    """The large-error threshold, in points."""
    decisions: tuple[Decision, ...]
    seats: tuple[SeatSummary, ...]

    def rows(self) -> list[dict[str, Any]]:
        """One flat row per decision (for ``pandas.DataFrame(analysis.rows())``): its place,
        seat, phase, the chosen and best actions with their values, the losses."""
        out = []
        for d in self.decisions:
            values = {v.action: v.value for v in d.actions}
            out.append(
                {
                    "hand": d.hand,
                    "index": d.index,
                    "seat": d.seat,
                    "phase": d.phase,
                    "chosen": d.chosen,
                    "chosen_value": values[d.chosen],
                    "best": d.best,
                    "best_value": values[d.best],
                    "loss": d.loss,
                    "exact_loss": d.exact_loss,
                    "large": d.large,
                    "actions": len(d.actions),
                }
            )
        return out

    def seat_rows(self) -> list[dict[str, Any]]:
        """One row per seat with its figures."""
        return [vars(s).copy() for s in self.seats]


def analyse(
    record: str | Mapping[str, Any],
    *,
    budget: str | None = None,
    budget_ms: int | None = None,
    seed: int = 0,
    large: float = 1.0,
) -> Analysis:
    """Analyses every decision of a game record (JSON text, or the record as a dict).

    ``budget``: the search per decision as ``pimc`` parameters (``"worlds=64:work=12000"``);
    ``budget_ms``: milliseconds per decision instead (the figures then depend on the machine);
    neither: the default budget, the same figures anywhere for a ``seed``. ``large``: the loss,
    in points, above which a decision is a large error.

    Raises :class:`calabresella.InvalidRecordError` for a record that does not parse or replay,
    :class:`ValueError` for a bad budget or threshold.
    """
    text = record if isinstance(record, str) else json.dumps(dict(record))
    found = json.loads(
        _core.analyse_record(text, budget=budget, budget_ms=budget_ms, seed=seed, large=large)
    )
    return Analysis(
        game=found["game"],
        budget=found["budget"],
        seed=found["seed"],
        large=found["large"],
        decisions=tuple(
            Decision(
                hand=d["hand"],
                index=d["index"],
                seat=d["seat"],
                phase=d["phase"],
                chosen=d["chosen"],
                best=d["best"],
                loss=d["loss"],
                exact_loss=d.get("exact_loss"),
                large=d["large"],
                actions=tuple(
                    ActionValue(action=v["action"], value=v["value"], exact=v.get("exact"))
                    for v in d["actions"]
                ),
            )
            for d in found["decisions"]
        ),
        seats=tuple(SeatSummary(**s) for s in found["seats"]),
    )
