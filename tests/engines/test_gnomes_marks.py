"""Gnomes at Night: how the board marks each seat's newest move (drawing.last_move_marks, through
Game.board_layout), from what the viewer's observation says and no more."""

from __future__ import annotations

from tests.engines.test_gnomes import new_state, play


def test_board_layout_marks_each_seats_newest_move_newest_first():
    # Gnome B moves right from (0, 0); then Gnome A tries right from (1, 0), which side 0 walls off.
    state = play(new_state(first_seat=1), ["right", "right"])
    game = state.game
    mine = game.board_layout(state.observation(0))["last_moves"]
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
    theirs = game.board_layout(state.observation(1))["last_moves"]
    assert [m["text"] for m in theirs] == ["Your partner did not move the token.", "You moved right."]
    assert theirs[0]["kind"] == "stayed" and "shaft" not in theirs[0]
    public = game.board_layout(state.observation(None))["last_moves"]
    assert public[0]["text"] == "Gnome A did not move the token."
    # With partner_attempts on, the attempt is shown to them as to the mover.
    shown = play(new_state(first_seat=1, partner_attempts=True), ["right", "right"])
    theirs = shown.game.board_layout(shown.observation(1))["last_moves"]
    assert theirs[0]["text"] == "Your partner tried to move right, but a wall on their side blocked it."
    public = shown.game.board_layout(shown.observation(None))["last_moves"]
    assert public[0]["text"] == "Gnome A tried to move right, but a wall on Gnome A's side blocked it."
    play(state, ["stay"])  # Gnome B stays: a ring, and now the newest
    marks = game.board_layout(state.observation(0))["last_moves"]
    assert [(m["seat"], m["kind"], m["newest"]) for m in marks] == [(1, "stayed", True), (0, "blocked", False)]
    assert marks[0]["text"] == "Your partner did not move the token." and "shaft" not in marks[0]
    assert game.board_layout(state.observation(1))["last_moves"][0]["text"] == "You stayed put."


def test_board_layout_has_no_marks_before_the_first_move():
    state = new_state()
    assert state.game.board_layout(state.observation(0))["last_moves"] == []
