"""Who is Spy's board presenter (gameplay/boards/who_is_spy.py) over seeded random playouts: for every view of
every step, its talk rows say what the view's facts say (and the state holds), its ballot is the view's legal
actions in the engine's order, and while the game runs a viewer's board context never holds another seat's word."""

from __future__ import annotations

import dataclasses
import re

import pytest

from gameplay.boards import presenter_for
from gameplay.boards.who_is_spy import WhoIsSpyBoard
from gameplay.engines.who_is_spy.wording import talk_sentence, vote_line
from tests.engines.spy_playouts import CONFIGS, playout

PRESENTER = presenter_for("who_is_spy")


def strings(value, skip=()):
    """Every string in a context, skipping talk rows for which ``skip`` holds."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        if "kind" in value and "mine" in value and any(rule(value) for rule in skip):
            return
        for item in value.values():
            yield from strings(item, skip)
    elif isinstance(value, list | tuple | set):
        for item in value:
            yield from strings(item, skip)
    elif dataclasses.is_dataclass(value):
        for field in dataclasses.fields(value):
            yield from strings(getattr(value, field.name), skip)


def check_talk(state, view, board):
    rounds = [*board["earlier"], board["current"]]
    assert len(rounds) == len(view.facts["rounds"]) == len(state.rounds)
    for shown, facts, r in zip(rounds, view.facts["rounds"], state.rounds, strict=True):
        assert shown["number"] == facts["number"] == r["n"]
        assert shown["order"] == [view.seat_name(s) for s in facts["order"]]
        assert len(shown["talk"]) == len(facts["talk"]) == len(r["talk"])
        for row, fact, entry in zip(shown["talk"], facts["talk"], r["talk"], strict=True):
            assert row["seat"] == fact["seat"] == entry["s"]
            assert row["mine"] == fact["you"] == (entry["s"] == view.seat)
            assert row["who"] == ("You" if fact["you"] else view.seat_name(fact["seat"]))
            assert (row["kind"], row["skip"], row["struck"]) == (fact["kind"], fact["skip"], fact["struck"])
            if fact["kind"] == "guess":
                assert row["other"] and row["text"] == talk_sentence(fact)
                assert fact["text"] is None or f"'{fact['text']}'" in row["text"]
            else:
                assert not row["other"] and row["text"] == fact["text"]
        assert shown["votes"] == [vote_line(v) for v in facts["votes"]]
        assert shown["my_votes"] == [{"round": r["n"], "target": v["target"]} for v in facts["votes"] if v["you"]]


def check_controls(view, board):
    ids = [v["id"] for v in board["ballot"]["votes"]]
    assert ids == [a.id for a in view.legal_actions if a.id.startswith("vote:") and a.id != "vote:none"]
    assert (board["ballot"]["abstain"] is not None) == any(a.id == "vote:none" for a in view.legal_actions)
    assert (board["ballot"]["skip"] is not None) == any(a.id == "skip_describe" for a in view.legal_actions)
    assert (board["describe"] is not None) == any(t.id == "describe" for t in view.text_actions)


def check_no_other_word(state, view, board):
    """While the game runs: the viewer's own word only; another seat's word nowhere but in a public description (a
    player may say a word it does not hold) or the viewer's own spy guess (its own words)."""
    assert board["word"] == (state.words[view.seat] if view.seat is not None else None)
    assert board["final"] is None
    others = set(state.words) - ({state.words[view.seat]} if view.seat is not None else set())
    public = (lambda row: row["kind"] == "describe", lambda row: row["mine"])
    for text in strings(board, skip=public):
        for word in others:
            assert not re.search(rf"\b{re.escape(word)}\b", text, re.IGNORECASE), (view.seat, word, text)


def test_the_registry_gives_the_presenter_with_its_template_and_assets():
    assert isinstance(PRESENTER, WhoIsSpyBoard) and not PRESENTER.generic
    assert PRESENTER.template == "games/who_is_spy/board.html"
    assert PRESENTER.css == ("css/who_is_spy.css",) and PRESENTER.js == ("js/who_is_spy.js",)


@pytest.mark.parametrize("index", range(len(CONFIGS)))
def test_the_board_follows_the_facts_and_holds_no_other_word(index):
    seats, options = CONFIGS[index]
    for seed in range(4):
        for state in playout(seats, options, seed):
            for viewer in [*range(seats), None]:
                view = state.seat_view(viewer)
                board = PRESENTER.context(view)
                check_talk(state, view, board)
                check_controls(view, board)
                if state.is_terminal():
                    assert board["final"]["spy_word"] == state.spy_word and board["word"] is None
                    assert board["final"]["spies"] == [view.seat_name(s) for s in state.spies]
                else:
                    check_no_other_word(state, view, board)
