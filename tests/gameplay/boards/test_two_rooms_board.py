"""Two Rooms and a Boom's board presenter (gameplay/boards/two_rooms_and_a_boom.py) over the seeded random playouts
of tests/engines/two_rooms_playouts.py, every seat and the public at every step:

- it draws what the template tags it replaced drew (card panel, styled log lines, grouped controls with the partner
  names), against digests recorded from those tags (data/two_rooms_board.json: gameplay/templatetags/two_rooms_tags.py
  and tests/gameplay/boards/record_two_rooms_board_golden.py, both removed since; see this branch's history);
- its rows are the observation's log facts, in order, each line the one the seat's observation text shows;
- its controls carry exactly the view's actions, named by the seats in their ids;
- a viewer's context never holds another seat's card or colour before the rules show it to that viewer (a share,
  a public reveal, the end), and its card panel is its own card.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

import pytest

from gameplay.boards import presenter_for
from gameplay.boards.two_rooms_and_a_boom import TwoRoomsBoard
from gameplay.engines.two_rooms_and_a_boom.cards import CARD_NAMES, TEAM_COLOURS, team_of
from tests.engines.two_rooms_playouts import PLAYOUTS, digest, load_golden, playout_key, steps, viewers

GOLDEN = Path(__file__).resolve().parent / "data" / "two_rooms_board.json"
PRESENTER = TwoRoomsBoard()


def _pairs(items, key):
    return [[item["id"], item[key]] if isinstance(item, dict) else [item.id, getattr(item, key)] for item in items]


def view_record(board: dict) -> dict:
    """The presenter's context in the shape the golden digests were recorded in."""
    c = board["controls"]
    one = {k: [c[k].id, c[k].label] if c[k] is not None else None for k in ("reveal", "done", "parley_pass")}
    return {
        "card": board["card"],
        "rows": [[row["kind"], row["text"]] for row in board["rows"]],
        "controls": {
            "any": c["any"], "offer": bool(c["offer"]),
            "say": c["say"].id if c["say"] else None, "parley_say": c["parley_say"].id if c["parley_say"] else None,
            "whisper": _pairs(c["whisper"], "name"),
            "accept": _pairs(c["accept"], "label"), "nominate": _pairs(c["nominate"], "label"),
            "hostages": _pairs(c["hostages"], "label"),
            "offer_card": _pairs(c["offer_card"], "name"), "offer_color": _pairs(c["offer_color"], "name"),
            "vote": _pairs(c["vote"], "name"), "abdicate": _pairs(c["abdicate"], "name"),
            "gamble": [[a["id"], a["label"], a["team"]] for a in c["gamble"]],
            **one,
        },
    }


def test_the_game_is_drawn_by_this_presenter():
    presenter = presenter_for("two_rooms_and_a_boom")
    assert isinstance(presenter, TwoRoomsBoard)
    assert presenter.template == "games/two_rooms_and_a_boom/board.html"
    assert presenter.css == ("css/two_rooms.css",)


@pytest.mark.parametrize("playout", PLAYOUTS, ids=lambda p: playout_key(*p))
def test_the_board_draws_what_the_template_tags_drew(playout):
    expected = load_golden(GOLDEN)[playout_key(*playout)]
    got = [digest([view_record(PRESENTER.context(state.seat_view(v))) for v in viewers(state)])
           for state, _ in steps(*playout)]
    assert len(got) == len(expected), "the playout took a different course"
    for step, (mine, theirs) in enumerate(zip(got, expected, strict=True)):
        assert mine == theirs, f"step {step} draws differently"


def _check_rows(view, board) -> None:
    log = view.facts["log"]
    assert [(r["kind"], r["text"], r["seat"]) for r in board["rows"]] == [(e["kind"], e["text"], e["seat"])
                                                                            for e in log]
    shown = [line.removeprefix("- ") for line in view.text.splitlines() if line.startswith("- ")]
    assert shown == [e["text"] for e in log]
    for e in log:
        assert e["kind"] in ("say", "whisper", "parley", "share", "exchange", "event")
        for seat in (e["seat"], e["target"]):
            assert seat is None or 0 <= seat < view.num_seats
        if e["kind"] in ("say", "whisper", "parley"):
            assert f'"{e["words"]}"' in e["text"]


def _check_controls(view, board) -> None:
    c = board["controls"]
    offered = {a.id for a in view.legal_actions} | {t.id for t in view.text_actions}
    grouped = {x["id"] if isinstance(x, dict) else x.id
               for key, value in c.items() if key not in ("any", "offer")
               for x in (value if isinstance(value, list) else [value] if value is not None else [])}
    assert grouped == offered and c["any"] == bool(offered)
    for key in ("whisper", "offer_card", "offer_color", "vote", "abdicate"):
        for option in c[key]:
            seat = int(option["id"].split(":")[1])
            words = "Yourself" if key == "vote" and seat == view.seat else view.seat_names[seat]
            assert option["name"] == words


def _check_no_foreign_cards(state, viewer, board) -> None:
    """Before the end, the context of ``viewer`` holds no sentence about another seat's card or colour that the
    viewer does not know itself, and names a card only when the viewer knows who holds it."""
    text = json.dumps(board, default=asdict, ensure_ascii=False)
    secrets = state.secrets()
    own = set(secrets.get(viewer, ())) if viewer is not None else set()
    for other, lines in secrets.items():
        for line in lines:
            if other != viewer and line not in own:
                assert line not in text, f"{viewer} holds {line!r}"
    known = {viewer} if viewer is not None else set()
    if viewer is not None and not state.game.simplified:
        known |= {int(s) for s, level in state.known[viewer].items() if level == "card"}
    for code, name in CARD_NAMES.items():
        if name in text:
            assert any(state.cards[s] == code for s in known), f"{viewer} holds the name {name!r}"


@pytest.mark.parametrize("playout", PLAYOUTS, ids=lambda p: playout_key(*p))
def test_rows_controls_and_cards_agree_with_the_facts_and_never_leak(playout):
    for state, _ in steps(*playout):
        for viewer in viewers(state):
            view = state.seat_view(viewer)
            board = PRESENTER.context(view)
            _check_rows(view, board)
            _check_controls(view, board)
            if viewer is None:
                assert board["card"] is None
            else:
                card = state.cards[viewer]
                name = None if state.game.simplified else CARD_NAMES[card]
                assert (board["card"]["name"], board["card"]["css"]) == (name, TEAM_COLOURS[team_of(card)])
            if not state.is_terminal():
                _check_no_foreign_cards(state, viewer, board)
