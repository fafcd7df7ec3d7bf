"""Records data/two_rooms_board.json from the template tags the board presenter replaces
(gameplay/templatetags/two_rooms_tags.py: tr_card, tr_line_kind, tr_controls, tr_after_colon), in the same shape
test_two_rooms_board.board_record builds from the presenter. Run once, before the tags are removed:
``python -m tests.gameplay.boards.record_two_rooms_board_golden``."""

from __future__ import annotations

from pathlib import Path

import django

django.setup()

from gameplay.templatetags.two_rooms_tags import tr_after_colon, tr_card, tr_controls, tr_line_kind  # noqa: E402
from tests.engines.two_rooms_playouts import viewers, write_golden  # noqa: E402

GOLDEN = Path(__file__).resolve().parent / "data" / "two_rooms_board.json"


def _pairs(items, key):
    return [[item["id"], item[key]] if isinstance(item, dict) else [item.id, getattr(item, key)] for item in items]


def old_view_record(view) -> dict:
    obs = view.facts
    c = tr_controls(view)
    one = {k: [c[k].id, c[k].label] if c[k] is not None else None for k in ("reveal", "done", "parley_pass")}
    return {
        "card": tr_card(obs["card_text"]) if obs.get("card_text") else None,
        "rows": [[tr_line_kind(line), line] for line in obs["log"]],
        "controls": {
            "any": c["any"], "offer": bool(c["offer"]),
            "say": c["say"].id if c["say"] else None, "parley_say": c["parley_say"].id if c["parley_say"] else None,
            "whisper": [[t.id, t.label.replace("Whisper to ", "")] for t in c["whisper"]],
            "accept": _pairs(c["accept"], "label"), "nominate": _pairs(c["nominate"], "label"),
            "hostages": _pairs(c["hostages"], "label"),
            "offer_card": _pairs(c["offer_card"], "name"), "offer_color": _pairs(c["offer_color"], "name"),
            "vote": _pairs(c["vote"], "name"), "abdicate": _pairs(c["abdicate"], "name"),
            "gamble": [[a.id, a.label, tr_after_colon(a.id)] for a in c["gamble"]],
            **one,
        },
    }


def old_record(state, move) -> list[dict]:
    return [old_view_record(state.seat_view(v)) for v in viewers(state)]


if __name__ == "__main__":
    write_golden(GOLDEN, old_record)
