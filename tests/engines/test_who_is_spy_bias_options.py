"""Who is Spy options for seed 002's bias experiments (section 3.3, issue 40): the three naming methods of its Table 2
(seat_names) and content-free descriptions, "..." whatever a seat writes (content_free)."""

from __future__ import annotations

import json

import pytest

from gameplay.engines.api import IllegalActionError, InvalidOptionsError
from gameplay.engines.who_is_spy import SpyGame


def names(options: dict, seats: int) -> list[str]:
    game = SpyGame(options, seats)
    return [game.seat_name(s) for s in range(seats)]


def test_the_three_naming_methods_of_table_2():
    assert names({}, 4) == ["Player 1", "Player 2", "Player 3", "Player 4"]
    assert names({"seat_names": "player"}, 4) == ["Player 1", "Player 2", "Player 3", "Player 4"]
    assert names({"seat_names": "name_number"}, 4) == ["Aaron One", "Barbara Two", "Charlie Three", "David Four"]
    assert names({"seat_names": "first_name"}, 4) == ["Jack", "Mary", "Alice", "Tom"]
    for method in ("name_number", "first_name"):
        assert len(set(names({"seat_names": method}, 10))) == 10  # every table size has distinct names


def test_the_names_are_what_players_read_and_vote_for():
    state = SpyGame({"seat_names": "first_name", "pair_index": 0}, 4).new_initial_state(2)
    text = state.observation(0).text
    assert "Still in: Jack (you), Mary, Alice, Tom." in text and "Player 1" not in text
    while state.phase == "describe":
        seat = state.current_seats()[0]
        state.apply_action(seat, "describe", f"a clue from seat {seat}")
    labels = {a.label for a in state.legal_actions(0)}
    assert labels == {"Vote for Mary", "Vote for Alice", "Vote for Tom"}
    assert "Mary" in SpyGame.spec.options[[o.name for o in SpyGame.spec.options].index("seat_names")].description


def describe_all(state, text: str) -> list[str]:
    """Every speaker of the round writes ``text``; the table's lines of the round."""
    while state.phase == "describe":
        state.apply_action(state.current_seats()[0], "describe", text)
    return [entry["text"] for entry in state.round["talk"]]


def test_content_free_seats_are_read_as_dots_whatever_they_write():
    state = SpyGame({"content_free": "all", "pair_index": 0, "repeat_rule": "strike"}, 4).new_initial_state(5)
    seat = state.current_seats()[0]
    own = state.words[seat]
    spec = state.text_actions(seat)[0]
    assert spec.id == "describe" and spec.example == "..."
    labels = state.action_labels(seat, "describe", f"my word is {own}")
    assert labels.public.endswith(": ...") and own not in json.dumps(labels.by_seat)
    # Even a text naming the own word, or repeating, is accepted and kept only as "...": nothing struck.
    assert describe_all(state, f"my word is {own}") == ["..."] * 4
    assert all(not entry["struck"] for entry in state.round["talk"])
    assert state.phase == "vote" and state.log[0].text == "..."
    others = state.observation((seat + 1) % 4).text
    assert "said: ..." in others and "my word is" not in others
    assert "In this game the descriptions of every player read '...', whatever is written" in others


def test_only_the_named_seats_are_content_free():
    state = SpyGame({"content_free": "1", "pair_index": 0}, 4).new_initial_state(0)
    while state.phase == "describe":
        seat = state.current_seats()[0]
        if seat == 1:
            assert "Whatever you write, the table reads '...'" in state.observation(1).text
            state.apply_action(1, "describe", "anything at all")
            continue
        with pytest.raises(IllegalActionError, match="your own secret word"):
            state.apply_action(seat, "describe", f"it is {state.words[seat]}")
        state.apply_action(seat, "describe", f"clue of seat {seat}")
    said = {entry["s"]: entry["text"] for entry in state.round["talk"]}
    assert said[1] == "..." and all(said[s] == f"clue of seat {s}" for s in (0, 2, 3))
    assert "the descriptions of Player 2 read '...'" in state.observation(0).text


@pytest.mark.parametrize("value", ["4", "0,x", "-1", "everyone"])
def test_content_free_names_seats_of_the_table(value):
    with pytest.raises(InvalidOptionsError, match="option content_free: .* is not a seat of this table"):
        SpyGame({"content_free": value}, 4)


def test_both_bias_options_are_declared_with_descriptions_and_off_by_default():
    spec = {o.name: o for o in SpyGame.spec.options}
    assert spec["seat_names"].default == "player" and spec["seat_names"].choices == ("player", "name_number",
                                                                                      "first_name")
    assert spec["content_free"].default == "" and "'...'" in spec["content_free"].description
    assert SpyGame({}, 4).content_free_seats == frozenset()
