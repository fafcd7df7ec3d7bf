"""Gnomes at Night rules text shown to people and to agents (written for this project)."""

from __future__ import annotations

from ..api import Rules

RULES = Rules(
    summary=(
        "Gnomes at Night is a cooperative two-player maze game. Both players move one shared token on a 9x9 "
        "grid, starting in the top-left cell (column 0, row 0). The board has two sides with different walls: "
        "you see only your own side's walls and your partner sees only theirs. Players take turns; on your turn "
        "you move the token one step (right, up, left or down) or stay. A step works only if no wall on YOUR "
        "side is in the way and it stays on the grid; walls on your partner's side do not stop you. Only one of "
        "you sees the treasure. Talk in the chat to find it together in as few turns and wall hits as possible."
    ),
    topics={
        "moves": (
            "The actions are stay, right, up, left and down. Columns are numbered 0-8 from left to right and rows "
            "0-8 from top to bottom, so 'up' lowers the row number and 'down' raises it. Players alternate after "
            "every move, whether or not the token moved. All five actions are always allowed on your turn: "
            "trying to move into a wall is allowed but wastes the turn and costs a penalty."
        ),
        "walls": (
            "Each side of the board has its own walls and you only see yours. When it is your turn, only the "
            "walls on your side matter: if your side has a wall between the token and the next cell (or the move "
            "would leave the grid) the token stays put and the move counts as a wall hit. Your partner's walls "
            "block your partner, not you, so a passage closed for one of you may be open for the other. You see "
            "the token, not your partner's walls: when your partner's move leaves the token where it was, you "
            "cannot tell whether they stayed or hit a wall, nor which way they tried (unless the game's "
            "'partner_attempts' option shows it). Telling each other where your walls are is the way to get "
            "round them."
        ),
        "treasure": (
            "In each round one cell holds the treasure, drawn only on one side of the board: rounds 1, 3 and 5 "
            "show it to Gnome A, rounds 2 and 4 to Gnome B. The round ends as soon as either player moves the "
            "token onto it. If the turn cap (200 moves unless set otherwise) runs out first, the round ends "
            "without the treasure."
        ),
        "chat": (
            "Players may send chat messages at any time during the round, whether or not it is their turn; a "
            "message is not a move and does not use up a turn. Messages are 1 to 500 characters. Use them to say "
            "where the treasure is, which moves your walls block, or to ask your partner to make a move."
        ),
        "scoring": (
            "Both players share one reward: every move costs 0.1, a move blocked by a wall costs another 0.5, and "
            "reaching the treasure earns 20. There is no winner or loser: the team does well by finding the "
            "treasure in few turns with few wall hits."
        ),
        "rounds": (
            "The testbed has five rounds played in order, each with the same two wall layouts and a different "
            "treasure. The token starts at column 0, row 0 in every round."
        ),
    },
)
