"""The search surface from Python: sampled worlds and the PIMC bot by name."""

import pytest

import calabresella as cb

GAMES = ["calabresella", "tressette", "tressette-in-due", "tressette-chiamata", "briscola-chiamata"]


def _advance(state: cb.State, steps: int, seed: int) -> None:
    """Plays ``steps`` random decisions within the first hand."""
    for i in range(steps):
        if state.is_terminal() or state.hand_number > 0:
            return
        state.apply_action(state.bot_action("random", seed=seed + i))


@pytest.mark.parametrize("game", GAMES)
def test_worlds_look_the_same_to_the_seat_and_differ_elsewhere(game: str) -> None:
    state = cb.new_match(game, seed=11)
    _advance(state, 9, 3)
    seat = state.current_player()
    mine = state.observation(seat)
    worlds = state.sample_worlds(seat, count=12, seed=5)
    assert len(worlds) == 12
    for w in worlds:
        # The seat's view of the world is its view of the real game.
        view = w.observation(seat)
        assert view.hand == mine.hand
        assert view.legal_actions == mine.legal_actions
        assert view.events == mine.events
    # Other seats' cards vary between worlds: the sampler deals what the seat cannot see.
    other = (seat + 1) % state.num_players
    hands = {tuple(sorted(w.observation(other).hand)) for w in worlds}
    assert len(hands) > 1
    # Deterministic for a seed.
    again = state.sample_worlds(seat, count=12, seed=5)
    assert [w.observation(other).hand for w in again] == [w.observation(other).hand for w in worlds]


def test_sample_worlds_refuses_bad_requests_and_changes_nothing() -> None:
    state = cb.new_match("tressette", seed=1)
    before = state.clone()
    with pytest.raises(ValueError, match="at most"):
        state.sample_worlds(count=1_000_000)
    with pytest.raises(cb.CalabresellaError, match="not a seat"):
        state.sample_worlds(seat=9)
    assert state == before


def test_best_and_ismcts_play_by_name_in_every_game() -> None:
    assert {"ismcts", "best"} <= set(cb.BOT_NAMES)
    for game in cb.GAMES:
        state = cb.new_match(game, seed=4)
        for bot in ("best", "best:ms=50", "ismcts:iterations=50"):
            assert state.bot_action(bot, seed=1) in state.legal_actions(), (game, bot)
    state = cb.new_match("tressette", seed=4)
    # The same seed and observation, the same choice (a budget in iterations, no time cap).
    assert state.bot_action("best", seed=3) == state.bot_action("best", seed=3)
    with pytest.raises(cb.CalabresellaError, match="unknown best parameter"):
        state.bot_action("best:worlds=3")


def test_pimc_plays_by_name_and_beats_random() -> None:
    assert "pimc" in cb.BOT_NAMES
    state = cb.new_match("tressette-in-due", seed=2)
    action = state.bot_action("pimc:worlds=4", seed=1)
    assert action in state.legal_actions()
    with pytest.raises(cb.CalabresellaError, match="unknown pimc parameter"):
        state.bot_action("pimc:depth=3")
    result = cb.tournament(
        ["pimc:worlds=8", "random"],
        "tressette-in-due",
        deals=6,
        episode="hand",
        progress=False,
        ratings=False,
    )
    pimc, rand = result.bots
    assert pimc.mean > rand.mean
