"""Atari Boxing: the fact sheet's test facts (rules/atari_boxing.md section 7), the BCD decoding, knockouts and the
clock, replay frame for frame, and simultaneous choices kept hidden until both are in."""

from __future__ import annotations

import json
import random

import pytest
from ale_py import ALEInterface as SinglePlayerALE
from ale_py import roms

from gameplay.engines.api import IllegalActionError
from gameplay.engines.atari_boxing import BoxingGame, emulator
from gameplay.engines.atari_boxing.actions import JOYSTICK
from gameplay.engines.atari_boxing.ram import Ringside, bcd, clock_seconds, score

from .atari_boxing_support import scripted_vs_still
from .conformance import check_observation_leaks, check_round_trip


def play(state, policy, rng=None):
    """Play ``state`` to the end, asking ``policy(state, seat)`` for each choice."""
    while not state.is_terminal():
        for seat in list(state.current_seats()):
            state.apply_action(seat, policy(state, seat))
    return state


def random_policy(rng):
    return lambda state, seat: rng.choice(state.legal_actions(seat)).id


def test_fact1_the_ale_py_wheel_bundles_the_boxing_rom():
    assert roms.get_rom_path("boxing").exists()


def test_fact2_single_player_ale_takes_one_action_only():
    console = SinglePlayerALE()
    console.loadROM(roms.get_rom_path("boxing"))
    with pytest.raises(TypeError):
        console.act(0, 1, 2)  # a second player's action has nowhere to go
    with pytest.raises(TypeError):
        console.act([0, 1])


def test_fact3_the_two_player_build_runs_boxing_with_two_active_players():
    console = emulator._new_console()
    assert list(console.getAvailableModes(2)) == [2]
    assert console.numPlayersActive() == 2


def test_fact4_eighteen_actions_for_each_player():
    state = BoxingGame().new_initial_state(0)
    assert len(JOYSTICK) == 18
    assert [len(state.legal_actions(seat)) for seat in (0, 1)] == [18, 18]
    assert len(emulator._new_console().getMinimalActionSet()) == 18
    assert [j.ale for j in JOYSTICK] == list(range(18))


def test_fact5_score_bytes_are_binary_coded_decimal():
    assert bcd(0x27) == 27 and score(0x27) == 27  # not 39, as GameBench's plain reading gave
    assert score(0x00) == 0 and score(0x99) == 99
    assert score(0xC0) == 100  # the cartridge's knockout marker
    ram = [0] * 128
    ram[18], ram[19], ram[16], ram[17] = 0x27, 0x05, 0x1B, 0x59
    ringside = Ringside.from_ram(ram)
    assert ringside.scores == (27, 5) and ringside.seconds_left == 119 and clock_seconds(ram) == 119
    with pytest.raises(ValueError):
        bcd(0x2F)


def test_fact6_a_bout_without_knockout_lasts_two_minutes_of_frames():
    state = play(BoxingGame().new_initial_state(7), random_policy(random.Random(7)))
    assert not state.ringside.knockout
    assert 7130 <= state.frame <= 7150, state.frame  # 2:00 at 60 frames a second
    assert state.ringside.seconds_left == 0
    assert state.result_text().endswith("on points.") or state.result_text().startswith("A draw")
    white, black = state.ringside.scores
    if white == black:
        assert state.end_reason() == f"The two-minute clock ran out with the scores level at {white} to {black}."
    else:
        leader = "White" if white > black else "Black"
        assert state.end_reason() == (f"The two-minute clock ran out with {leader} ahead on points, "
                                      f"{max(white, black)} to {min(white, black)}.")


def test_the_clock_starts_near_two_minutes():
    state = BoxingGame().new_initial_state(0)
    assert 118 <= state.ringside.seconds_left <= 120
    assert state.observation(0).data["clock"] in ("2:00", "1:59", "1:58")


def test_fact7_same_actions_give_identical_ram_and_screens_at_every_frame():
    game = BoxingGame({"frames_per_decision": 1, "max_frames": 400})
    rng = random.Random(11)
    first = game.new_initial_state(3)
    second = game.new_initial_state(3)
    for _ in range(400):
        pair = [rng.choice(JOYSTICK).id for _ in (0, 1)]
        for state in (first, second):
            for seat in (0, 1):
                state.apply_action(seat, pair[seat])
        assert first.snapshot == second.snapshot and first.screen == second.screen
        if first.is_terminal():
            break
    assert first.frame == 400


def test_replay_from_the_log_reproduces_the_bout_frame_for_frame():
    game = BoxingGame({"max_frames": 900})
    state = play(game.new_initial_state(5), random_policy(random.Random(5)))
    replayed = game.replay(5, state.log)
    assert json.dumps(replayed.to_json()) == json.dumps(state.to_json())
    # and from any point: a restored mid-bout state continues exactly as the original did
    half = game.replay(5, state.log[:40])
    resumed = game.state_from_json(json.loads(json.dumps(half.to_json())))
    for record in state.log[40:]:
        resumed.apply_action(record.seat, record.action_id)
    assert resumed.to_json() == state.to_json()


def test_the_state_holds_the_console_snapshot_not_memory_per_step():
    state = play(BoxingGame({"max_frames": 600}).new_initial_state(1), random_policy(random.Random(1)))
    payload = state.to_json()["payload"]
    assert set(payload) == {"console", "screen", "ringside", "frame", "decision", "pending", "last", "status"}
    assert len(payload["console"]) < 4000  # one ALE snapshot, whatever the bout's length


def test_the_log_is_stored_compact_and_a_log_stored_as_lists_still_loads():
    """A live bout stores its whole state a dozen times a second, log included (State.COMPACT_LOG): each action is
    the string "seat:action id", and a state stored before, with a list per action, reads back the same."""
    game = BoxingGame({"max_frames": 120})
    state = play(game.new_initial_state(3), random_policy(random.Random(3)))
    data = json.loads(json.dumps(state.to_json()))
    assert data["log"][:2] == [f"{r.seat}:{r.action_id}" for r in state.log[:2]]
    assert game.state_from_json(data).log == state.log
    as_lists = {**data, "log": [[r.seat, r.action_id, None] for r in state.log]}
    assert game.state_from_json(as_lists).to_json() == state.to_json()


def test_knockout_ends_the_bout_early_and_wins():
    state = play(BoxingGame().new_initial_state(0), scripted_vs_still)
    assert state.ringside.knockout and state.ringside.scores[0] == 100
    assert state.frame < 7000 and state.ringside.seconds_left > 0
    assert state.scores() == [1.0, 0.0]
    assert state.result_text() == "White wins by knockout."
    assert state.end_reason() == f"White reached 100 points for a knockout (Black had {state.ringside.scores[1]})."
    assert state.measures(0)["knockout_win"] is True and state.measures(1)["points_against"] == 100


def test_a_tie_scores_half_each():
    state = play(BoxingGame({"max_frames": 60}).new_initial_state(0), lambda s, seat: "noop")
    assert state.ringside.scores == (0, 0)
    assert state.is_terminal() and state.scores() == [0.5, 0.5]
    assert state.result_text() == "A draw, 0-0."
    assert state.end_reason() == "The 60-frame cap was reached with the scores level at 0 to 0."


def test_max_frames_cuts_the_bout_as_gamebench_did():
    state = play(BoxingGame({"max_frames": 1000}).new_initial_state(0), random_policy(random.Random(2)))
    assert state.frame == 1000 and state.ringside.seconds_left > 100
    assert "cut short" in state.result_text() or state.result_text().startswith("A draw")
    assert state.end_reason().startswith("The 1,000-frame cap was reached with ")


@pytest.mark.parametrize("options,frame,scores,seconds,reason", [
    ({}, 3000, (41, 100), 70, "Black reached 100 points for a knockout (White had 41)."),
    ({}, 7140, (45, 30), 0, "The two-minute clock ran out with White ahead on points, 45 to 30."),
    ({}, 7140, (30, 30), 0, "The two-minute clock ran out with the scores level at 30 to 30."),
    ({"max_frames": 1000}, 1000, (8, 12), 103, "The 1,000-frame cap was reached with Black ahead on points, 12 to 8."),
    ({"max_frames": 120}, 120, (0, 0), 118, "The 120-frame cap was reached with the scores level at 0 to 0."),
])
def test_every_ending_says_why(options, frame, scores, seconds, reason):
    """The end reason of each way a bout ends (a knockout, the clock, the frame cap; a lead or a tie on points),
    with the scores that decided it, on the decoded ringside facts of a finished bout."""
    state = BoxingGame(options).new_initial_state(0)
    assert state.end_reason() is None
    state.ringside = Ringside(white=(30, 40), black=(100, 90), scores=scores, seconds_left=seconds)
    state.frame, state.status = frame, "over"
    assert state.end_reason() == reason
    white, black = scores
    assert state.scores() == ([0.5, 0.5] if white == black else [1.0, 0.0] if white > black else [0.0, 1.0])


def test_fact8_the_first_choice_is_hidden_until_both_are_in():
    game = BoxingGame({"frames_per_decision": 15})
    state = game.new_initial_state(0)
    labels = state.action_labels(0, "upfire")
    state.apply_action(0, "upfire")
    assert state.frame == 0 and state.current_seats() == [1]  # nothing played yet
    other = json.dumps(state.observation(1).to_json())
    public = json.dumps(state.observation(None).to_json())
    assert "upfire" not in other and "upfire" not in public
    assert state.observation(0).data["my_choice"] == "upfire"
    assert state.observation(1).data["boxers"][0]["has_chosen"] is True
    assert "upfire" not in labels.for_viewer(1) and "upfire" not in labels.public
    assert "upfire" in labels.for_viewer(0)
    check_observation_leaks(state)
    check_round_trip(state)
    with pytest.raises(IllegalActionError):
        state.apply_action(0, "fire")  # one choice per decision point
    reveal = state.action_labels(1, "left")
    state.apply_action(1, "left")
    assert state.frame == 15 and state.current_seats() == [0, 1]
    assert "Up + punch" in reveal.for_viewer(1) and "Left" in reveal.public
    assert state.observation(1).data["boxers"][0]["last_action"] == "upfire"


def test_a_seat_that_does_not_choose_keeps_its_last_action():
    state = BoxingGame().new_initial_state(0)
    assert state.idle_action(0) == "noop"
    state.apply_action(0, "right")
    state.apply_action(1, "downfire")
    assert [state.idle_action(s) for s in (0, 1)] == ["right", "downfire"]


def test_observation_text_is_from_the_readers_side():
    state = BoxingGame().new_initial_state(0)
    white, black = state.observation(0).text, state.observation(1).text
    assert "You are White" in white and "You are Black" in black
    assert "px to your right" in white and "px to your left" in black


def test_frames_kept_for_a_live_stream_are_pngs_of_each_frame():
    state = BoxingGame({"frames_per_decision": 4}).new_initial_state(0)
    state.keep_frames(True)
    state.apply_action(0, "right")
    state.apply_action(1, "left")
    frames = state.take_frames()
    assert len(frames) == 4 and all(f.startswith(b"\x89PNG") for f in frames)
    assert state.take_frames() == []
    assert state.to_json() == state.game.replay(0, state.log).to_json()  # kept frames never reach the JSON
