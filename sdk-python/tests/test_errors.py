"""Bad input gets a clear error from the CalabresellaError hierarchy and changes nothing."""

from __future__ import annotations

import numpy as np
import pytest

import calabresella as cb


def test_hierarchy() -> None:
    for e in (
        cb.IllegalActionError,
        cb.NotationError,
        cb.InvalidRecordError,
        cb.BotError,
        cb.ServerError,
        cb.ConnectionLostError,
    ):
        assert issubclass(e, cb.CalabresellaError)
    assert issubclass(cb.ConnectionLostError, cb.ServerError)


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (lambda: cb.new_hand("scopa"), cb.NotationError, "unknown game"),
        (lambda: cb.new_hand(players=5), cb.NotationError, "players"),
        (lambda: cb.new_hand(colour="red"), cb.NotationError, "colour"),
        (lambda: cb.new_hand("tressette", players=3), cb.NotationError, "4 players"),
        (lambda: cb.new_hand(dealer=3), cb.NotationError, "seat 3"),
        (lambda: cb.new_hand(seed=1, deal=[[]]), cb.NotationError, "either a seed or a deal"),
        (lambda: cb.load_record("{"), cb.InvalidRecordError, ""),
        (lambda: cb.load_record('{"format": "calabresella-record/v9"}'), cb.InvalidRecordError, ""),
    ],
)
def test_bad_input_is_refused_clearly(call: object, error: type[Exception], words: str) -> None:
    with pytest.raises(error) as info:
        call()  # type: ignore[operator]
    assert words in str(info.value)


def test_bad_actions_leave_the_state_alone() -> None:
    s = cb.new_hand(seed=4)
    before = s.clone()
    for bad in ("play Zz", "fly away", 9999, -1, 3.5, None):
        with pytest.raises(cb.NotationError):
            s.apply_action(bad)  # type: ignore[arg-type]
    with pytest.raises(cb.IllegalActionError):
        s.apply_action("play 3b")  # no card play during the auction
    other = (s.current_player() + 1) % 3
    with pytest.raises(cb.IllegalActionError):
        s.apply_action_as(other, "pass")
    with pytest.raises(cb.NotationError):
        s.observation(7)
    assert s == before


def test_a_finished_hand_refuses_actions() -> None:
    s = cb.new_hand(seed=2)
    while not s.is_terminal():
        s.apply_action(s.legal_actions()[0])
    with pytest.raises(cb.IllegalActionError):
        s.apply_action("pass")
    assert s.legal_actions() == [] and not s.legal_actions_mask().any()


def test_argument_mistakes_say_what_was_expected() -> None:
    state = cb.new_hand("calabresella", seed=1)
    with pytest.raises(cb.NotationError, match="seats are 0 to 2"):
        state.observation(3)
    with pytest.raises(cb.NotationError, match=f"ids are 0 to {cb.NUM_ACTIONS - 1}"):
        state.action_to_string(cb.NUM_ACTIONS)
    with pytest.raises(cb.NotationError, match=r"1-d bool numpy array of .* got a 1-d int32"):
        state.legal_actions_mask(out=np.zeros(cb.NUM_ACTIONS, dtype=np.int32))
    with pytest.raises(cb.NotationError, match=r"float32 numpy array .* got a list"):
        state.observation_tensor(out=[0.0] * cb.OBSERVATION_SIZE)  # type: ignore[arg-type]
    for make in (
        lambda: cb.new_match("calabresella", seed=-1),
        lambda: cb.envs.VectorEnv("calabresella", num_envs=2, seed=-5),
        lambda: state.bot_action(seed=-1),
    ):
        with pytest.raises(cb.NotationError, match=r"seed must be between 0 and 2\*\*64 - 1"):
            make()
    with pytest.raises(TypeError, match="seed must be an integer"):
        cb.new_match("calabresella", seed="7")  # type: ignore[arg-type]
    assert cb.new_match("calabresella", seed=2**64 - 1).num_players == 3
