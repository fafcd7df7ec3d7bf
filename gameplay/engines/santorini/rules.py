"""Santorini rules text shown to people and to agents (written for this project)."""

from __future__ import annotations

from ..api import Rules

RULES = Rules(
    summary=(
        "Santorini is a two-player abstract strategy game on a 5x5 board. Each player has two "
        "workers. On your turn you move one of your workers one step to a neighbouring cell "
        "(diagonals count) that holds no worker and no dome, climbing at most one level up (any "
        "number down); then the same worker builds one level on a neighbouring cell without a "
        "worker or dome: 0 to 1, 1 to 2, 2 to 3, and 3 to a dome, which nobody can enter or build "
        "on. Move a worker up from level 2 onto level 3 to win; a player who cannot move at the "
        "start of their turn loses. Cells are named like chess squares: "
        "columns a-e from left to right, rows 1-5 from bottom to top (a1 is bottom-left, e5 is "
        "top-right)."
    ),
    topics={
        "setup": (
            "Every cell starts at level 0 with nothing built on it. Player 1 places both of their "
            "workers on any two empty cells (two separate placements), then Player 2 places both "
            "of theirs on empty cells. The first worker a player places is worker A, the second "
            "is worker B. Player 1 then takes the first turn."
        ),
        "moving": (
            "A turn starts with a move: pick one of your workers and move it one step to any of "
            "the up to eight neighbouring cells (orthogonal or diagonal). The destination must "
            "be unoccupied (no worker of either player) and must not carry a dome. A worker may "
            "climb at most one level per move (for example 1 to 2), but may step down any number "
            "of levels (3 to 0 is fine) or stay level. If none of your workers can move at the "
            "start of your turn, you lose."
        ),
        "building": (
            "After moving, the same player builds with the worker that just moved: choose an "
            "unoccupied cell adjacent to that worker (the cell it just left counts) that has no "
            "dome, and raise it by one level: 0 to 1, 1 to 2, 2 to 3, or 3 to a dome (level 4). "
            "Domes are permanent; nobody may move onto or build on them. You must build; you "
            "cannot skip it."
        ),
        "winning": (
            "You win immediately when one of your workers moves up from level 2 onto a level-3 "
            "cell (no build follows that move). Moving from one level-3 cell to another does not "
            "win under the official rules. You also win when your opponent has no legal move at "
            "the start of their turn. Every turn adds a block, so the game always ends."
        ),
        "variant": (
            "Two options reproduce the Santorini variant used by the GameBench benchmark. With "
            "'alternate_workers', the worker you must use alternates each turn: worker A on your "
            "first turn, worker B on your second, then A again, and so on; if that worker cannot "
            "move and build, you lose even if your other worker could. With 'win_on_any_level3', "
            "any move onto a level-3 cell wins, including a move from level 3 to level 3. The "
            "GameBench preset turns both options on; the official game turns both off."
        ),
        "turn_cap": (
            "A platform option, not in the published rules: with a turn cap of N (max_turns), the game ends as a "
            "draw as soon as N turns have been played without a winner, counting both players' turns (a move and "
            "its build is one turn; the opening placements do not count). A win on the last turn still wins. "
            "Without a cap (the default) there are no draws."
        ),
    },
)
