"""The pure readers of seed 002's probes and DEEP (agents_app/agents/llm/spy_eval.py)."""

from __future__ import annotations

import pytest

from agents_app.agents.llm.spy_eval import (
    FIRST_ORDER,
    SECOND_ORDER,
    ProbeReplyError,
    candidate_words,
    clean_description,
    identity_of,
    parse_probe,
    probe_messages,
)

NAMES = ["Player 1", "Player 2", "Player 3"]


def test_probe_replies_are_read_per_player_and_gaps_noted():
    reply = ('```json\n{"player 1": {"word": "Book", "identity": "Villager"}, "2": {"keyword": "novel", '
             '"role": "the spy"}, "Player 3": {"word": 7}}\n```')
    answers, notes = parse_probe(reply, NAMES)
    assert answers["Player 1"] == {"word": "book", "identity": "villager"}
    assert answers["Player 2"] == {"word": "novel", "identity": "spy"}
    assert answers["Player 3"] == {"word": None, "identity": None}
    assert notes == ["no word for Player 3", "no identity for Player 3"]


@pytest.mark.parametrize("reply", ["", "Player 2 is the spy, I think.", "[1, 2]"])
def test_an_unreadable_probe_reply_raises(reply):
    with pytest.raises(ProbeReplyError):
        parse_probe(reply, NAMES)


@pytest.mark.parametrize("value,identity", [("spy", "spy"), ("Villager", "villager"), ("not the spy", "villager"),
                                            ("spy or villager", None), ("unknown", None), (3, None)])
def test_identities(value, identity):
    assert identity_of(value) == identity


def test_probes_show_the_observation_and_ask_about_the_right_players():
    first = probe_messages(FIRST_ORDER, "Rules.", "Your secret word is book.", NAMES, "Player 2", 1)
    second = probe_messages(SECOND_ORDER, "Rules.", "Your secret word is book.", NAMES, "Player 2", 1)
    assert "<state>\nYour secret word is book.\n</state>" in first[1]["content"]
    assert "every one of Player 1, Player 2, Player 3" in first[1]["content"]
    assert "only one spy player" in first[1]["content"]
    assert "every one of Player 1, Player 3," in second[1]["content"]
    assert "put yourself in the shoes of other players" in second[1]["content"]


def test_descriptions_are_cleaned_and_cut_and_candidates_listed():
    assert clean_description('Description: "A hot drink."', 10) == ("A hot drink.", "")
    assert clean_description("one two three four", 3) == ("one two three", "cut from 4 to 3 words")
    assert candidate_words("1. tea\n2. cocoa, milk") == ["tea", "cocoa", "milk"]
