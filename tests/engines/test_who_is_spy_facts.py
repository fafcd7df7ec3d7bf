"""Who is Spy's observation data are facts, per viewer: every talk entry as the state holds it (a wrong guess's
word only for its guesser until the end), votes only where this viewer may know them (its own; everyone's with
show_votes or at the end), the votes received in a count likewise, and never another seat's word during play."""

from __future__ import annotations

import json

import pytest

from .spy_playouts import CONFIGS, playout


def check_view(state, viewer):
    data = state.observation(viewer).data
    public = state.game.options["show_votes"] or state.is_terminal()
    assert data["waiting"] == state.current_seats()
    for r, facts in zip(state.rounds, data["rounds"], strict=True):
        assert facts["order"] == r["order"] and facts["number"] == r["n"]
        for entry, fact in zip(r["talk"], facts["talk"], strict=True):
            assert (fact["seat"], fact["you"]) == (entry["s"], entry["s"] == viewer)
            assert fact["name"] == state.game.seat_name(entry["s"])
            if "guess" in entry:
                known = entry["right"] or entry["s"] == viewer or state.is_terminal()
                assert fact["kind"] == "guess" and fact["right"] == entry["right"]
                assert fact["text"] == (entry["guess"] if known else None)
            elif entry.get("skip"):
                assert fact["kind"] == "pass" and fact["skip"] and fact["text"] == ""
            else:
                assert (fact["kind"], fact["text"], fact["struck"]) == ("describe", entry["text"], entry["struck"])
        cast = {v: r["votes"][v] for v in r["voters"] if r["votes"][v] is not None}
        shown = {vote["seat"]: vote["target"] for vote in facts["votes"]}
        expected = {v: (None if t < 0 else t) for v, t in cast.items() if public or v == viewer}
        assert shown == expected
        assert facts["voted"] == list(cast)
        if facts["outcome"] is not None:
            assert facts["outcome"]["kind"] == r["outcome"]["k"]
            assert (facts["outcome"]["tally"] is not None) == (public and r["outcome"]["k"] != "none")
    if not state.is_terminal():
        others = set(state.words) - ({state.words[viewer]} if viewer is not None else set())
        dumped = json.dumps(data).lower()
        assert not any(f'"{word.lower()}"' in dumped for word in others)
        assert "reveal" not in data


@pytest.mark.parametrize("index", range(len(CONFIGS)))
def test_every_view_holds_the_facts_it_may_know_and_no_more(index):
    seats, options = CONFIGS[index]
    for seed in range(4):
        for state in playout(seats, options, seed):
            for viewer in [*range(seats), None]:
                check_view(state, viewer)
