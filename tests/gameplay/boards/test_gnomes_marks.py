"""Gnomes at Night: how the board marks each seat's newest move (gameplay/boards/gnomes.py last_move_marks, through
the presenter's layout), from what the viewer's seat view says and no more."""

from __future__ import annotations

from gameplay.boards.gnomes import GnomesBoard
from tests.engines.gnomes_support import new_state, play

BOARD = GnomesBoard()


def marks_of(state, seat):
    """The newest-move marks the board draws for ``seat`` (None: the public) of ``state``."""
    return BOARD.layout(state.seat_view(seat))["last_moves"]


def test_the_board_marks_each_seats_newest_move_newest_first():
    # Gnome B moves right from (0, 0); then Gnome A tries right from (1, 0), which side 0 walls off.
    state = play(new_state(first_seat=1), ["right", "right"])
    mine = marks_of(state, 0)
    assert [(m["seat"], m["kind"], m["newest"]) for m in mine] == [(0, "blocked", True), (1, "moved", False)]
    assert [m["text"] for m in mine] == [
        "You tried to move right, but a wall on your side blocked it.",
        "Your partner moved right.",
    ]
    blocked, moved = mine
    # The blocked arrow stops at the wall to the right of (1, 0) and ends in an upright bar on it.
    assert blocked["shaft"][0] > 1.5 and blocked["shaft"][2] < 2.0 and blocked["bar"] == (2.0, 0.2, 2.0, 0.8)
    # The move made points from (0, 0)'s centre towards (1, 0)'s.
    assert moved["shaft"][0] < moved["shaft"][2] and moved["shaft"][1] == moved["shaft"][3] == 0.5
    assert "bar" not in moved
    # The partner and the public see the token stay where it was, not which way it was tried (issue 15).
    theirs = marks_of(state, 1)
    assert [m["text"] for m in theirs] == ["Your partner did not move the token.", "You moved right."]
    assert theirs[0]["kind"] == "stayed" and "shaft" not in theirs[0]
    public = marks_of(state, None)
    assert public[0]["text"] == "Gnome A did not move the token."
    # With partner_attempts on, the attempt is shown to them as to the mover.
    shown = play(new_state(first_seat=1, partner_attempts=True), ["right", "right"])
    theirs = marks_of(shown, 1)
    assert theirs[0]["text"] == "Your partner tried to move right, but a wall on their side blocked it."
    public = marks_of(shown, None)
    assert public[0]["text"] == "Gnome A tried to move right, but a wall on Gnome A's side blocked it."
    play(state, ["stay"])  # Gnome B stays: a ring, and now the newest
    marks = marks_of(state, 0)
    assert [(m["seat"], m["kind"], m["newest"]) for m in marks] == [(1, "stayed", True), (0, "blocked", False)]
    assert marks[0]["text"] == "Your partner did not move the token." and "shaft" not in marks[0]
    assert marks_of(state, 1)[0]["text"] == "You stayed put."


def test_the_board_has_no_marks_before_the_first_move():
    state = new_state()
    assert marks_of(state, 0) == []
