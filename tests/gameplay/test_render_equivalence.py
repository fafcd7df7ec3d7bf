"""The lean Santorini board (click_grid) and the action list (action_buttons): known positions, exact attributes,
and escaping of everything built in Python (issue 14 moved that markup out of per-cell template nodes)."""

from __future__ import annotations

import json
from html.parser import HTMLParser

import pytest
from django.template import Context, Template

from gameplay.engines.api import Action
from gameplay.reads import selectors
from gameplay.web import rendering
from gameplay.web.board_clicks import clicks_for
from gameplay.writes import services

pytestmark = pytest.mark.django_db


class Cells(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.cells: dict[str, tuple[str, dict]] = {}
        self.actions: list[dict] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("role") == "gridcell":
            self.cells[a["data-cell"]] = (tag, a)
        elif "data-action-id" in a:
            self.actions.append(a)


def parse(html: str) -> Cells:
    p = Cells()
    p.feed(html)
    return p


def test_santorini_cells_of_a_known_position():
    match = services.create_match("santorini", [services.SeatController("human")] * 2, seed=1, host_seat=0,
                                  schedule_agents=False)
    for seat, cell in [(0, "a1"), (0, "b1"), (1, "e5"), (1, "e4")]:
        match = services.submit_action(match.pk, seat, f"place:{cell}", expected_version=match.version,
                                       schedule_agents=False)
    seats = list(match.seats.all())
    view = selectors.seat_view(match, seats[0], seats=seats)
    cells = parse(rendering.seat_fragments(view, (), chat_full=False)).cells
    assert len(cells) == 25
    tag, a = cells["a1"]
    assert tag == "button" and a["class"] == "cell lvl0 pick" and "ws-send" in a
    assert json.loads(a["hx-vals"]) == {"kind": "select", "location": "a1"}
    assert a["aria-label"] == "A1, level 0, your worker A: select"
    tag, a = cells["e5"]  # placed in the newest turn: marked (issue 16.4)
    assert tag == "div" and a["class"] == "cell lvl0 last-place" and "hx-vals" not in a
    assert a["aria-label"] == "E5, level 0, opponent's worker A, last turn: placed here"
    tag, a = cells["c3"]
    assert tag == "div" and a["class"] == "cell lvl0" and a["aria-label"] == "C3, level 0"

    # With a1 selected: a1 steps back, its destinations submit a move at this version.
    parsed = parse(rendering.seat_fragments(view, ("a1",), chat_full=False))
    tag, a = parsed.cells["a1"]
    assert a["class"] == "cell lvl0 pick selected"
    assert a["aria-label"] == "A1, level 0, your worker A: selected, press again to cancel"
    tag, a = parsed.cells["a2"]
    vals = json.loads(a["hx-vals"])
    assert tag == "button" and a["class"] == "cell lvl0 target"
    assert vals["kind"] == "action" and vals["version"] == match.version
    action = next(x for x in view.legal_actions if x.id == vals["action_id"])
    assert action.path == ("a1", "a2") and a["title"] == action.label
    assert a["aria-label"] == f"A2, level 0: {action.label}"
    assert len(parsed.actions) == len(view.legal_actions)

    # The opponent sees no buttons; after the move, the moved worker's cell is marked.
    view1 = selectors.seat_view(match, seats[1], seats=seats)
    assert {t for t, _ in parse(rendering.seat_fragments(view1, (), chat_full=False)).cells.values()} == {"div"}
    match = services.submit_action(match.pk, 0, action.id, expected_version=match.version, schedule_agents=False)
    view1 = selectors.seat_view(match, seats[1], seats=seats)
    cells1 = parse(rendering.seat_fragments(view1, (), chat_full=False)).cells
    tag, a = cells1["a2"]
    assert tag == "div" and a["class"] == "cell lvl0 moved last-to"
    assert a["aria-label"].endswith(", last turn: moved here")
    assert cells1["a1"][1]["class"] == "cell lvl0 last-from"


def test_click_grid_and_action_buttons_escape_what_they_build():
    name = "<x\"'&>"
    actions = [Action("go:'\"</script>", 'Go "<b>"', (name,)), Action("pick", "Pick", ("b", "c"))]
    rows = [[{"name": name}, {"name": "b"}, {"name": "z"}]]
    template = Template(
        "{% load gameplay_tags %}{% click_grid rows clicks selection version mark='z' mark_class='m' as grid %}"
        "{% for row in grid %}{% for cell, open, classes, label, aria, close in row %}"
        '{{ open }} class="cell{{ classes }}" aria-label="{{ label }}{{ aria }}">{{ close }}'
        "{% endfor %}{% endfor %}<ul>{% action_buttons actions version %}</ul>"
    )
    html = template.render(Context({"rows": rows, "clicks": clicks_for(actions, ()), "selection": (),
                                    "version": 7, "actions": actions}))
    parsed = parse(html)
    tag, a = parsed.cells[name]
    assert tag == "button" and a["class"] == "cell target" and a["title"] == 'Go "<b>"'
    assert json.loads(a["hx-vals"]) == {"kind": "action", "action_id": "go:'\"</script>", "version": 7}
    assert a["aria-label"] == f"{name.upper()}: Go \"<b>\""
    assert "<b>" not in html and "</script>" not in html
    tag, a = parsed.cells["b"]
    assert tag == "button" and a["class"] == "cell pick" and json.loads(a["hx-vals"])["location"] == "b"
    tag, a = parsed.cells["z"]
    assert tag == "div" and a["class"] == "cell m" and a["aria-label"] == "Z"
    assert [(x["data-action-id"], json.loads(x["hx-vals"])["action_id"]) for x in parsed.actions] == [
        (a.id, a.id) for a in actions
    ]
