"""Codenames endings: why the game ended (State.end_reason) and the whole key shown at the end."""

from __future__ import annotations

from gameplay.engines.codenames.words import IDENTITY_NAMES

from .codenames_support import ASSASSIN_CELL, BLUE_CELL, KEY, clue, guess, position

# --- why the game ended (State.end_reason) and the key shown at the end -----------------------------------


def test_end_reason_the_assassin():
    state = position(seats=6)
    clue(state, "fruit,3")
    guess(state, 0)
    assert state.end_reason() is None
    guess(state, ASSASSIN_CELL)
    assert state.end_reason() == "Player 3 (Red Operative) picked the assassin, ZEBRA."


def test_end_reason_the_last_agent_found_by_its_own_team():
    state = position()
    for cell in range(8):
        state.revealed[cell] = True
    clue(state, "fruit,1")
    guess(state, 8)
    assert state.winning_team == 0
    assert state.end_reason() == "All 9 Red agents are revealed; Player 3 (Red Operative) guessed the last one, ISLAND."


def test_end_reason_the_last_agent_revealed_by_the_other_team():
    state = position()
    for cell in range(BLUE_CELL, BLUE_CELL + 7):
        state.revealed[cell] = True
    clue(state, "fruit,2")
    guess(state, 0)
    guess(state, 16)
    assert state.end_reason() == "All 8 Blue agents are revealed; Player 3 (Red Operative) guessed the last one, QUEEN."


def test_end_reason_the_last_agent_covered_as_the_penalty():
    state = position(options={"invalid_clue_penalty": True})
    for cell in range(9, 16):
        state.revealed[cell] = True
    clue(state, "apple,2")
    state.apply_action(1, "cover:16")
    assert state.end_reason() == ("All 8 Blue agents are revealed; Player 2 (Blue Spymaster) covered the last one, "
                                  "QUEEN, as the penalty for Red's invalid clue.")


def _capped(options, red_guesses, key=KEY):
    """Ten team turns (max_turns 10) of a clue and End turn; Red guesses its first ``red_guesses`` agents first."""
    state = position(options={"gamebench_end_turn_anytime": True, "max_turns": 10, **options})
    state.key = list(key)
    for turn in range(10):
        assert state.end_reason() is None
        clue(state, "fruit,2")
        if turn == 0:
            for cell in range(red_guesses):
                guess(state, cell)
        state.apply_action(state.current_seats()[0], "end_turn")
    assert state.is_terminal() and state.ending == "cap"
    return state


def test_end_reason_the_turn_cap_with_fewer_agents_left():
    state = _capped({}, 2)
    assert state.scores() == [0.5, 0.0, 0.5, 0.0]
    assert state.end_reason() == "The turn cap of 10 team turns was reached; Red has fewer agents left (7 to 8)."
    assert state.result_text() == "The turn cap ended the game (agents left Red 7, Blue 8): Red wins."


def test_end_reason_the_turn_cap_with_as_many_agents_left_is_a_draw():
    state = _capped({}, 0, key=["red"] * 8 + ["bystander"] + KEY[9:])
    assert state.scores() == [0.25] * 4
    assert state.end_reason() == "The turn cap of 10 team turns was reached with 8 agents left to each team."
    assert state.result_text() == "The turn cap ended the game (agents left Red 8, Blue 8): a draw."


def test_end_reason_the_turn_cap_decided_by_gamebench_scores():
    state = _capped({"gamebench_scores": True}, 1)  # Red 9 agents, 1 found; Blue 8, none: 8 left each
    assert state.winning_team is None and state.scores() == [0.5, 0.0, 0.5, 0.0]
    assert state.end_reason() == ("The turn cap of 10 team turns was reached with 8 agents left to each team; by "
                                  "GameBench's scores Red found more (1 agent to 0).")
    assert state.result_text() == "The turn cap ended the game (agents left Red 8, Blue 8): Red wins."


def test_the_end_shows_the_whole_key_to_everyone_and_keeps_the_reason_on_a_round_trip():
    state = position()
    for cell in range(BLUE_CELL, BLUE_CELL + 7):
        state.revealed[cell] = True
    clue(state, "fruit,2")
    guess(state, 0)
    assert state.secrets()[0] and "key" not in state.observation(2).data["cards"][1]
    guess(state, 16)
    assert all(pieces == [] for pieces in state.secrets().values())
    for viewer in (None, 0, 1, 2, 3):
        obs = state.observation(viewer)
        assert [c["identity"] for c in obs.data["cards"]] == [IDENTITY_NAMES[k] for k in KEY]
        assert "24 ZEBRA (assassin, never revealed)" in obs.text and "1 BANK (Red agent, never revealed)" in obs.text
        assert obs.data["end_reason"] == state.end_reason() and state.end_reason() in obs.text
    assert state.to_json()["payload"]["end_reason"] == "agents"
    again = state.clone()
    assert again.ending == "agents" and again.end_reason() == state.end_reason()
