"""Are You the Traitor?'s board presenter (gameplay/boards/are_you_the_traitor.py): its context is the engine's
facts arranged, never sentences read back. Over seeded random playouts at every seat count, for every seat and the
public at every step: the table rows, the talk, the resolved round, the end and the controls agree with the state,
and a viewer's context holds no other seat's character of the round in play unless the rules showed it to that
viewer (the eyes-closed reveals), nor another seat's secret sentence; the board renders from it."""

from __future__ import annotations

import json
import random

import pytest
from django.template.loader import render_to_string

from gameplay.boards import presenter_for
from gameplay.boards.are_you_the_traitor import TraitorBoard
from gameplay.engines.are_you_the_traitor import TraitorGame
from gameplay.engines.are_you_the_traitor.deck import KEYHOLDER, WIZARD, character_name, points, team_of
from gameplay.engines.registry import GAMES
from gameplay.engines.seat_view import SeatView

BOARD = TraitorBoard()
# Said at the table: none names a character, so a character name in a context can only come from a fact.
SAYINGS = ("hello", "Player 2: \u201cI am honest\u201d", "passed.", "trust me", "Round 1: me")
CHARACTER_NAMES = ("Keyholder", "Guard", "Traitor", "Good Wizard", "Evil Wizard")
CASES = [(4, {"max_rounds": 4}, 3), (5, {"max_rounds": 3}, 2), (6, {"max_rounds": 3, "ticks_before_handoff": 1}, 2),
         (7, {"max_rounds": 2, "ticks_before_handoff": 1}, 2), (8, {"max_rounds": 2, "ticks_before_handoff": 1}, 2),
         (10, {"max_rounds": 2, "ticks_before_handoff": 1}, 2),
         (4, {"ticks_before_handoff": 0, "target_points": 60, "max_rounds": 30}, 1),
         (5, {"gamebench_fixed_roles": True, "gamebench_team_win": True, "max_rounds": 3}, 1)]


def view_of(facts: dict, seat: int | None = 1, num_seats: int = 4, **extra) -> SeatView:
    names = tuple(f"Player {s + 1}" for s in range(num_seats))
    game = GAMES["are_you_the_traitor"]
    return SeatView(game_id="are_you_the_traitor", spec=game.spec, rules=game.rules, seat=seat, num_seats=num_seats,
                    seat_names=names, options={}, facts=facts, text="", **extra)


def test_the_registry_gives_the_traitor_board():
    presenter = presenter_for("are_you_the_traitor")
    assert isinstance(presenter, TraitorBoard)
    assert presenter.template == "games/are_you_the_traitor/board.html"
    assert presenter.css == ("css/are_you_the_traitor.css",)


def test_talk_and_the_round_come_from_facts_whatever_was_said():
    """What the filters once read back from the wording (traitor_tags), now read from the facts."""
    facts = {
        "card_counts": [0, 0, 0, 0],
        "talk_entries": [
            {"seat": 0, "name": "Player 1", "you": False, "text": "I: am \u201chonest\u201d", "passed": False},
            {"seat": 1, "name": "Player 2", "you": True, "text": "", "passed": True},
            {"seat": 2, "name": "Player 3", "you": False, "text": "", "passed": True}],
        "round_result": {"round": 2, "caller": 2, "target": 0, "handoff": True, "team": "Evil", "characters": [
            {"seat": 0, "name": "Player 1", "character": "Evil Wizard", "team": "Evil"},
            {"seat": 1, "name": "Player 2", "character": "Traitor", "team": "Evil"},
            {"seat": 2, "name": "Player 3", "character": "Keyholder", "team": "Good"},
            {"seat": 3, "name": "Player 4", "character": "Guard", "team": "Good"}],
            "lines": ["Player 1 drew a treasure card."]},
    }
    board = BOARD.context(view_of(facts))
    talk = board["talk"]
    assert {k: talk[0][k] for k in ("who", "mine", "text", "passed")} == {
        "who": "Player 1", "mine": False, "text": "I: am \u201chonest\u201d", "passed": False}
    assert talk[1]["mine"] and talk[1]["passed"] and talk[1]["who"] == "You" and talk[2]["who"] == "Player 3"
    r = board["last"]
    assert r["handoff"] and r["team"] == "Evil" and r["round"] == 2
    assert (r["caller"], r["target"]) == ("Player 3", "Player 1")
    assert [row["won"] for row in r["rows"]] == [True, True, False, False]
    assert [row["caller"] for row in r["rows"]] == [False, False, True, False]
    assert r["rows"][1]["you"] and r["rest"] == ["Player 1 drew a treasure card."]
    assert BOARD.context(view_of({"card_counts": [0, 0, 0, 0]}))["last"] is None


def test_a_stop_hands_over_the_key_by_the_keyholder_fact_not_by_its_label():
    from gameplay.engines.api import Action

    role = {"character": "Keyholder", "team": "Good", "wizard": False, "keyholder": True, "shown": []}
    stops = (Action("stop:3", "anything at all"),)
    board = BOARD.context(view_of({"my_role": role, "wizard_seats": [3]}, seat=2, legal_actions=stops, to_act=(2,)))
    assert board["moves"]["key"] and board["moves"]["stops"] == [
        {"id": "stop:3", "seat": 3, "name": "Player 4", "label": "anything at all", "wizard": True}]
    guard = {**role, "character": "Guard", "keyholder": False}
    labelled = (Action("stop:3", "Hand the Key to Player 4 (a Wizard): Stop"),)
    board = BOARD.context(view_of({"my_role": guard}, seat=2, legal_actions=labelled, to_act=(2,)))
    assert not board["moves"]["key"] and board["moves"]["aim"] == "traitor"
    evil = {**role, "character": "Evil Wizard", "team": "Evil", "wizard": True, "keyholder": False}
    assert BOARD.context(view_of({"my_role": evil}, seat=2, legal_actions=labelled))["moves"]["aim"] == "keyholder"


# --- random playouts ------------------------------------------------------------------------------------------


def check_rows(state, viewer, board) -> None:
    n, hidden = state.game.num_seats, state.phase in ("talk", "handoff")
    rows = board["seats"]
    assert [r["seat"] for r in rows] == list(range(n))
    for seat, row in enumerate(rows):
        assert row["name"] == state.game.seat_name(seat)
        assert row["you"] == (seat == viewer)
        assert row["wizard"] == (hidden and state.characters[seat] == WIZARD)
        assert row["to_act"] == (not state.is_terminal() and seat in state.current_seats())
        assert row["cards"] == len(state.hands[seat]) and row["rounds_won"] == state.rounds_won[seat]
        assert row["points"] == (points(state.hands[seat]) if seat == viewer else None)
    assert board["to_act"] == ([] if state.is_terminal() else [state.game.seat_name(s) for s in state.current_seats()])
    assert board["phase"] == state.phase and board["round"] == state.round_no


def check_talk(state, viewer, board) -> None:
    events = state.talk[-40:] if state.phase in ("talk", "handoff") else []
    assert [(line["seat"], line["mine"], line["passed"], line["text"]) for line in board["talk"]] == [
        (e["s"], e["s"] == viewer, e["k"] == "pass", e.get("t") or "") for e in events]
    assert all(line["who"] == ("You" if line["mine"] else f"Player {line['seat'] + 1}") for line in board["talk"])


def check_last(state, viewer, board) -> None:
    last, r = state.last, board["last"]
    if last is None:
        assert r is None
        return
    caller, target = last["caller"], last["target"]
    assert r["round"] == last["round"] and r["team"] == last["team"].capitalize()
    assert r["handoff"] == (last["characters"][caller] == KEYHOLDER)
    assert (r["caller"], r["target"]) == (state.game.seat_name(caller), state.game.seat_name(target))
    for seat, row in enumerate(r["rows"]):
        character, alignment = last["characters"][seat], last["alignments"][seat]
        assert row["seat"] == seat and row["you"] == (seat == viewer)
        assert row["character"] == character_name(character, alignment)
        assert row["won"] == (team_of(character, alignment) == last["team"])
        assert (row["caller"], row["target"]) == (seat == caller, seat == target)
    assert len(r["rows"]) == state.game.num_seats
    assert r["rest"] == state.last_round_lines(viewer)[2:]


def check_final(state, viewer, board) -> None:
    if not state.is_terminal():
        assert board["final"] == [] and board["winners"] == []
        return
    totals = state.totals()
    assert [r["points"] for r in board["final"]] == sorted(totals, reverse=True)
    for row in board["final"]:
        assert row["points"] == totals[row["seat"]] and row["winner"] == (row["seat"] in state.winners)
        assert row["you"] == (row["seat"] == viewer)
    assert board["winners"] == [state.game.seat_name(s) for s in state.winners]


def check_moves(state, viewer, board, view) -> None:
    moves = board["moves"]
    legal = [a.id for a in view.legal_actions]
    assert [s["id"] for s in moves["stops"]] == [a for a in legal if a.startswith("stop:")]
    assert [a.id for a in moves["rings"]] == [a for a in legal if a.startswith("ring:")]
    assert (moves["pass"] is not None) == ("pass" in legal) and (moves["keep"] is not None) == ("keep_ring" in legal)
    assert (moves["say"] is not None) == any(t.id == "say" for t in view.text_actions)
    assert moves["key"] == (bool(moves["stops"]) and state.characters[viewer] == KEYHOLDER)
    assert moves["any"] == bool(legal or view.text_actions)


def foreign_secrets(state, viewer) -> list[str]:
    """The secret sentences of other seats that ``viewer`` (None: the public) may not know."""
    secrets = state.secrets()
    own = set(secrets.get(viewer, ())) if viewer is not None else set()
    return [value for seat, values in secrets.items() if seat != viewer for value in values if value not in own]


def check_no_hidden_roles(state, viewer, board) -> None:
    """While the round's characters are hidden, the context names a character only of a seat the rules showed to
    the viewer: its own role card and the eyes-closed reveals; the resolved round (``last``) is public."""
    hidden = state.phase in ("talk", "handoff")
    role = board["role"]
    if viewer is None or not hidden:
        assert role is None
    else:
        known = state.known_seats(viewer)
        assert role["character"] == character_name(state.characters[viewer], state.alignments[viewer])
        assert [o["seat"] for o in role["others"]] == known[1:]
        for other in role["others"]:
            assert other["character"] == character_name(state.characters[other["seat"]],
                                                        state.alignments[other["seat"]])
    rest = json.dumps({k: v for k, v in board.items() if k not in ("role", "last")}, default=lambda o: o.label)
    assert not [name for name in CHARACTER_NAMES if name in rest]
    everything = json.dumps(board, default=lambda o: o.label)
    leaked = [value for value in foreign_secrets(state, viewer) if value in everything]
    assert not leaked, f"seat {viewer}'s board holds another seat's secret {leaked[:1]}"


def check_page(state, viewer, board) -> None:
    html = render_to_string("games/are_you_the_traitor/board.html", {"board": board, "version": 1})
    assert ('data-character="' in html) == (board["role"] is not None)
    assert not [value for value in foreign_secrets(state, viewer) if value in html]


@pytest.mark.parametrize("seats,options,playouts", CASES)
def test_random_playouts_board_agrees_with_the_state_and_hides_what_the_rules_hide(seats, options, playouts):
    game = TraitorGame(options, seats)
    for seed in range(playouts):
        state, rng, step = game.new_initial_state(seed), random.Random(seed), 0
        while True:
            for viewer in [*range(seats), None]:
                view = state.seat_view(viewer)
                board = BOARD.context(view)
                check_rows(state, viewer, board)
                check_talk(state, viewer, board)
                check_last(state, viewer, board)
                check_final(state, viewer, board)
                check_no_hidden_roles(state, viewer, board)
                if viewer is not None:
                    check_moves(state, viewer, board, view)
                if step % 7 == 0 or state.is_terminal():
                    check_page(state, viewer, board)
            if state.is_terminal():
                break
            seat = state.current_seats()[0]
            texts = state.text_actions(seat)
            if texts and rng.random() < 0.5:
                state.apply_action(seat, "say", rng.choice(SAYINGS))
            else:
                state.apply_action(seat, rng.choice(state.legal_actions(seat)).id)
            step += 1
