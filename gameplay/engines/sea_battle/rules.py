"""Sea Battle rules text for people and agents, written for this project from GameBench's code (via the fact
sheet); GameBench's own prompt text is not reused."""

from __future__ import annotations

from ..api import Rules

RULES = Rules(
    summary=(
        "Team naval battle on a 24x24 grid with rocks. Two fleets, Red and Blue, have three ships each. Every turn "
        "you give each of your live ships a secret order: a move (stay; forward 1; or forward 1, turn left or "
        "right, forward 1) and the side its cannon fires (port = left or starboard = right, range 3). You order "
        "your ships one at a time; the turn resolves when both fleets have ordered every ship, all moves first and "
        "then all shots. Rocks and collisions deal 1 damage, a cannonball 2; a ship with 10 damage sinks. The last "
        "fleet with ships afloat wins. Platform rule: the battle stops at a turn cap (100 unless the match sets "
        "another); the fleet with more ships afloat then wins, then the one with less total damage, else a draw."
    ),
    topics={
        "Board and headings": (
            "Cells are (x, y) with x and y from 0 to 23. x grows to the East, y grows to the North. The whole "
            "outer ring (x or y equal to 0 or 23) is rock, and 14 more rocks lie inside; all rocks are shown. "
            "Each ship faces East, North, West or South. Turning left from East faces North, from North West, "
            "from West South, from South East; turning right goes the other way. Every ship's position and "
            "heading is public; only your own fleet's damage is shown to you."
        ),
        "Movement": (
            "Order ids name the move then the gun side: left_L, left_R, forward_L, forward_R, right_L, right_R, "
            "stay_L, stay_R. forward: one cell ahead. left / right: one cell ahead, turn 90 degrees, one more "
            "cell in the new heading (a ship at (5,5) facing East ends at (6,6) facing North with left, at (6,4) "
            "facing South with right). stay: no move, same heading. Moves happen in two steps for all ships at "
            "once: first every moving ship tries its first cell, then turning ships turn (even if the first "
            "step was blocked) and try their second cell. A blocked ship stays where it is for that step."
        ),
        "Collisions": (
            "First step: a ship sailing into rock stays and takes 1 damage. If two or more ships want the same "
            "cell (a ship that stays wants its own cell), each of them takes 1 damage and none moves there. Two "
            "ships sailing into each other's cells also collide: 1 damage each, both stay. A ship whose target "
            "cell is held by a ship that fails to leave it is blocked without damage. Second step (turning ships "
            "only): rock still deals 1 damage; a cell wanted by another ship just blocks, without damage. Two "
            "ships never end a turn on one cell. (Option gamebench_resolution restores GameBench's own code: "
            "ships are checked one at a time, R1-R3 then B1-B3, each moving at once, so a ship could end on a "
            "cell its occupant failed to leave, crossing ships passed through, and ships sharing a cell never "
            "collided with each other.)"
        ),
        "Cannons": (
            "After all movement every ship fires one cannonball to the side its order names, at right angles to "
            "its final heading: port is the heading turned left (a ship facing North fires port toward smaller "
            "x), starboard the heading turned right. The ball flies up to 3 cells. It stops at the first rock "
            "(no effect) or the first ship, of either fleet, which takes 2 damage: your own ships can be hit. "
            "There is no holding fire. All balls fly at the same time, so a ship sunk by a ball this turn still "
            "fires its own. (With gamebench_resolution, ships fire one after another in the order R1-R3, "
            "B1-B3 and a sunk ship stops later balls no more.)"
        ),
        "Damage and sinking": (
            "Damage adds up: 1 for striking rock or colliding, 2 for each cannonball. A ship sinks as soon as "
            "it has 10 or more damage and is removed: it gives no more orders, blocks nothing and cannot be hit. "
            "A ship sunk by a rock or a collision while moving goes down there and then: it does not turn, sail "
            "on or fire that turn. Ships hit by cannonballs sink once all balls have flown. You see your own "
            "ships' damage; the enemy's damage is not shown, though each turn's report says which ships were hit."
        ),
        "Winning": (
            "After each turn: if no ship is afloat the game is a draw; if only one fleet has ships afloat, that "
            "fleet wins. Platform rule (GameBench had no limit): after the turn cap (option turn_cap, 100 by "
            "default) the battle stops; the fleet with more ships afloat wins, if equal the one with less total "
            "damage on its ships afloat, and otherwise it is a draw."
        ),
    },
)
