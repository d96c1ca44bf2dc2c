"""Analysis from Python: every decision of a record valued, rows for pandas, the same figures
for a seed, and bad records and budgets refused."""

from __future__ import annotations

import json

import pytest

import calabresella as cb

SMALL = "worlds=4:work=300"


def _record(game: str, seed: int) -> str:
    state = cb.new_match(game, seed=seed, target=2)
    while not state.is_terminal():
        legal = state.observation().legal_actions
        state.apply_action(legal[len(legal) // 2])
    return state.to_record()


@pytest.mark.parametrize("game", ["calabresella", "tressette", "tressette-in-due"])
def test_every_decision_with_a_choice_is_valued(game: str) -> None:
    a = cb.analyse(_record(game, 3), budget=SMALL)
    assert isinstance(a, cb.Analysis)
    assert a.game == game and a.budget == SMALL and a.seed == 0
    assert a.decisions
    for d in a.decisions:
        assert len(d.actions) > 1
        values = {v.action: v.value for v in d.actions}
        assert values[d.best] == max(values.values())
        assert d.loss == pytest.approx(values[d.best] - values[d.chosen])
        assert d.large == (d.loss > a.large)
    assert sum(s.decisions for s in a.seats) == len(a.decisions)
    rows = a.rows()
    assert len(rows) == len(a.decisions)
    wanted = {"hand", "seat", "chosen", "best", "loss", "chosen_value", "best_value"}
    assert wanted <= rows[0].keys()
    assert [r["seat"] for r in a.seat_rows()] == [s.seat for s in a.seats]


def test_the_same_seed_gives_the_same_analysis_and_a_dict_record_works() -> None:
    text = _record("calabresella", 5)
    one = cb.analyse(text, budget=SMALL, seed=4)
    assert one == cb.analyse(json.loads(text), budget=SMALL, seed=4)
    assert one != cb.analyse(text, budget=SMALL, seed=5)


def test_bad_records_and_budgets_are_refused() -> None:
    text = _record("tressette", 2)
    broken = json.loads(text)
    broken["hands"][0]["actions"][2] = "Zz"
    with pytest.raises(cb.InvalidRecordError, match="hand 0, action 2"):
        cb.analyse(broken)
    with pytest.raises(cb.InvalidRecordError):
        cb.analyse("not json")
    with pytest.raises(ValueError, match="unknown pimc parameter"):
        cb.analyse(text, budget="depth=3")
    with pytest.raises(ValueError, match="not both"):
        cb.analyse(text, budget=SMALL, budget_ms=5)
    with pytest.raises(ValueError, match="large"):
        cb.analyse(text, budget=SMALL, large=0)


def test_a_tournament_reports_each_bots_mean_loss_with_its_interval() -> None:
    r = cb.tournament(
        ["heuristic", "random"],
        "tressette-in-due",
        deals=12,
        progress=False,
        analyse=True,
    )
    heuristic, random = r.bots
    assert heuristic.decisions > 0 and random.decisions > 0
    assert heuristic.mean_loss is not None and random.mean_loss is not None
    assert heuristic.mean_loss_ci95 is not None and random.mean_loss_ci95 is not None
    lo, hi = heuristic.mean_loss_ci95
    assert lo <= heuristic.mean_loss <= hi
    # The heuristic plays better: it loses less per decision, its interval below random's.
    assert hi < random.mean_loss_ci95[0], (heuristic, random)
    # Without analyse, nothing is analysed.
    plain = cb.tournament(["heuristic", "random"], "tressette-in-due", deals=2, progress=False)
    assert all(b.mean_loss is None and b.decisions == 0 for b in plain.bots)
