"""UHP notation (equivalent move strings, game strings), observations, options and presets."""

from __future__ import annotations

import json
import random

import pytest

from gameplay.engines.api import EngineError, IllegalActionError, InvalidOptionsError
from gameplay.engines.hive import HiveGame, game_string, load_game_string, normalise_move

from .hive_helpers import LINE, position

OBSERVATION_KEYS = {
    "pieces", "hands", "to_move", "you", "turn", "last_move", "last_from", "last_to", "status",
    "game_string", "expansions", "pinned", "result",
}


def test_equivalent_strings_map_to_the_canonical_id():
    state = position(LINE)  # (0,-1) is north-west of wS1 and north-east of wQ
    assert "wA1 \\wS1" in {a.id for a in state.legal_actions(0)}
    for text in ("wA1 \\wS1", "wA1 wQ/", "  wa1   wQ/ ", "WA1 wq/"):
        assert normalise_move(state, text) == "wA1 \\wS1"
    state.apply_action(0, "wA1 wQ/")
    assert state.log[-1].action_id == "wA1 \\wS1"
    assert state.observation(0).data["last_move"] == "wA1 \\wS1"


def test_an_equivalent_string_is_labelled_as_its_canonical_move():
    """Issue 37: the label an action reads with (stored in its event) is the move's own, never the text as sent."""
    state = position(LINE)
    canonical = state.action_labels(0, "wA1 \\wS1")
    assert canonical.public.startswith("Place White Ant 1")
    for text in ("wA1 wQ/", "wA1 \\wS1 ", "  wa1   wQ/ "):
        assert state.action_labels(0, text) == canonical
    assert state.action_labels(0, "hello").public == "hello"  # no move at all: refused by apply_action, not here
    state.apply_action(0, "wA1 \\wS1 ")
    assert state.log[-1].action_id == "wA1 \\wS1"


def test_equivalent_movement_and_climb_strings():
    state = position(LINE + ["wB1 -wQ", "bA1 bQ-"])  # wB1 at (-2,0)
    assert normalise_move(state, "wB1 wQ") == "wB1 wQ"  # on top
    # (-1,-1): north-west of wQ, or north-east of the beetle's own cell (the mover is ignored).
    canonical = normalise_move(state, "wB1 \\wQ")
    assert normalise_move(state, "wB1 wB1/") == canonical
    assert canonical in {a.id for a in state.legal_actions(0)}


@pytest.mark.parametrize("text,reason", [
    ("hello", "not a UHP move string"),
    ("wA2 wQ/", "place wA1 before wA2"),
    ("bA1 bQ-", "White's turn"),
    ("wA1 bQ-", "must touch your own pieces"),
    ("wA1 -wQ/", "one direction marker"),
    ("wA1 wB1-", "not on the board"),
    ("wM wQ-", "not in this game"),
    ("wS wQ-", "needs a number"),
    ("wQ wS1", "cannot reach"),
    ("pass", "pass only"),
])
def test_bad_strings_give_clear_errors(text, reason):
    state = position(LINE)
    before = json.dumps(state.to_json(), sort_keys=True)
    with pytest.raises(IllegalActionError, match=reason):
        state.apply_action(0, text)
    assert json.dumps(state.to_json(), sort_keys=True) == before


def test_capabilities_measures_and_typed_moves():
    spec = HiveGame.spec
    assert spec.typed_moves == "UHP" and spec.has_image
    assert not (spec.has_chat or spec.chat_in_state or spec.round_sequence)
    assert not HiveGame().chat_enabled() and HiveGame().next_round_options() is None
    state = HiveGame().new_initial_state(0)
    assert state.measures(0) == {"turns": 0}
    for text in ("wS1", "bS1 -wS1", "wQ wS1-"):
        state.apply_action(state.current_seats()[0], state.parse_move(text))
    assert state.measures(0) == state.measures(1) == {"turns": 3}
    parsed = state.parse_move("bQ -bS1")
    assert parsed in {a.id for a in state.legal_actions(1)} and state.parse_move(parsed) == parsed
    with pytest.raises(IllegalActionError):
        state.parse_move("not a move")


def test_game_string_round_trip():
    text = "Base+MLP;InProgress;White[3];wS1;bP wS1-;wQ -wS1;bQ bP-"
    state = load_game_string(text)
    assert game_string(state) == text
    assert state.observation(None).data["game_string"] == text
    again = load_game_string(game_string(state))
    assert again.to_json() == state.to_json()
    assert game_string(HiveGame().new_initial_state(0)) == "Base;NotStarted;White[1]"


def test_game_string_canonicalises_moves_and_reports_the_state():
    state = load_game_string("Base+M;InProgress;White[1];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 wQ/")
    assert game_string(state) == "Base+M;InProgress;Black[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 \\wS1"
    assert state.pos.expansions == "M"


def test_game_string_errors():
    with pytest.raises(EngineError, match="GameTypeString"):
        load_game_string("Base+X;InProgress;White[1]")
    with pytest.raises(EngineError, match="GameStateString"):
        load_game_string("Base;Playing;White[1]")
    with pytest.raises(EngineError, match="TurnString"):
        load_game_string("Base;InProgress;Red[1]")
    with pytest.raises(IllegalActionError, match="move 2"):
        load_game_string("Base;InProgress;White[2];wS1;bQ wS1-")


def test_observation_data_and_text():
    state = position(LINE + ["wB1 \\wQ", "bA1 bQ-", "wB1 wQ"])
    obs = state.observation(1)
    data = obs.data
    assert set(data) >= OBSERVATION_KEYS
    assert data["you"] == 1 and data["to_move"] == 1 and data["turn"] == 4
    assert data["status"] == "InProgress" and data["result"] is None and data["expansions"] == ""
    assert data["last_move"] == "wB1 wQ" and data["last_from"] == [-1, -1] and data["last_to"] == [-1, 0]
    assert data["hands"]["w"] == [["Q", 0], ["S", 1], ["B", 1], ["G", 3], ["A", 3]]
    assert {"id": "wB1", "color": "w", "bug": "B", "q": -1, "r": 0, "height": 1, "top": True} in data["pieces"]
    assert {"id": "wQ", "color": "w", "bug": "Q", "q": -1, "r": 0, "height": 0, "top": False} in data["pieces"]
    assert "wB1+1" in obs.text and "Black[4]" in obs.text and data["game_string"] in obs.text
    assert state.observation(None).data["you"] is None
    json.dumps(obs.to_json())


def test_actions_have_labels_and_click_paths():
    state = position(LINE)
    by_id = {a.id: a for a in state.legal_actions(0)}
    place = by_id["wA1 -wQ"]
    assert place.label == "Place White Ant 1 west of White Queen" and place.path == ("hand:wA", "-2,0")
    step = by_id["wQ \\wS1"]
    assert step.label == "Move White Queen to north-west of White Spider 1" and step.path == ("-1,0", "0,-1")


def test_gamebench_preset_has_no_beetles_and_a_250_turn_draw():
    game = HiveGame({"gamebench": True})
    assert game.max_actions() == 250
    state = game.new_initial_state(0)
    assert [bug for bug, _ in state.observation(0).data["hands"]["w"]] == ["Q", "S", "G", "A"]
    assert sorted(a.id for a in state.legal_actions(0)) == ["wA1", "wG1", "wS1"]
    with pytest.raises(IllegalActionError, match="not in this game"):
        state.apply_action(0, "wB1")
    assert HiveGame({"gamebench": True, "max_turns": 40}).max_actions() == 40


def test_options_validation():
    with pytest.raises(InvalidOptionsError):
        HiveGame({"max_turns": -1})
    with pytest.raises(InvalidOptionsError):
        HiveGame({"queen_first": True})
    assert HiveGame({"pillbug": "true"}).expansions == "P"


def test_rules_topics():
    topics = HiveGame.rules.topics
    for name in ("placement", "queen", "beetle", "spider", "grasshopper", "ant", "mosquito", "ladybug",
                 "pillbug", "one_hive", "freedom_to_move", "passing", "winning", "notation"):
        assert HiveGame.rules.topic(name)
    assert "500" in topics["winning"]


def test_state_parse_move_helper():
    state = position(LINE)
    assert state.parse_move("wA1 wQ/") == "wA1 \\wS1"
    with pytest.raises(IllegalActionError):
        state.parse_move("wA1 bQ-")


@pytest.mark.parametrize("options", [{}, {"mosquito": True, "ladybug": True, "pillbug": True}])
def test_the_ids_without_labels_are_the_labelled_actions_ids_in_order(options):
    """legal_action_ids builds the canonical ids without labels (a search asks at every position it visits): a game
    played through the ids alone lists, at every position, exactly the ids legal_actions gives a copy played alongside,
    in the same order, and applies them to the same moves."""
    rng = random.Random(len(options))
    game = HiveGame(options)
    for _game in range(4):
        fast, labelled = game.new_initial_state(0), game.new_initial_state(0)  # only the second is ever labelled
        while not fast.is_terminal() and len(fast.log) < 120:
            (seat,) = fast.current_seats()
            ids = fast.legal_action_ids(seat)
            assert ids == [a.id for a in labelled.legal_actions(seat)]
            assert fast.legal_action_ids(1 - seat) == []
            choice = rng.choice(ids)
            fast.apply_action(seat, choice)
            labelled.apply_action(seat, choice)
            assert fast.pos.stacks == labelled.pos.stacks, choice
