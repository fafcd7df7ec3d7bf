"""Hive rules text shown to people and to agents (written for this project)."""

from __future__ import annotations

from ..api import Rules

RULES = Rules(
    summary=(
        "Hive is a two-player game with no board: the hexagonal bug tiles you place form the hive. "
        "White (seat 0) moves first. Each player has a Queen Bee, 2 Spiders, 2 Beetles, "
        "3 Grasshoppers and 3 Soldier Ants (plus a Mosquito, Ladybug and Pillbug when those options "
        "are on). On your turn you either place a piece from your hand or move one of your pieces "
        "already in the hive. Surround the opponent's queen on all six sides (with pieces of either "
        "colour) to win. The hive must always stay in one piece, and pieces that slide must be able "
        "to squeeze through physically. Moves are written in the Universal Hive Protocol (UHP), "
        "e.g. 'bS1 wS1-' = Black Spider 1 goes east of White Spider 1. Ask for a topic for details: "
        "placement, queen, beetle, spider, grasshopper, ant, mosquito, ladybug, pillbug, one_hive, "
        "freedom_to_move, passing, winning, notation, options."
    ),
    topics={
        "placement": (
            "The first piece of the game (White's) goes in the centre. Black's first piece goes next "
            "to it, on any of its six sides. From then on a newly placed piece must touch at least one "
            "piece of its owner's colour and must not touch any piece of the opponent's colour; for a "
            "stack only its top piece's colour counts. Pieces placed can never return to the hand. "
            "When you have several identical bugs in hand (say wA1 and wA2), you always place the "
            "lowest-numbered one, so placing 'an ant' is one choice."
        ),
        "queen": (
            "The Queen Bee moves one cell per turn, sliding around the edge of the hive. Tournament "
            "rules: neither player may place the queen on their first turn, and a player whose queen "
            "is still in hand on their fourth turn must place it on that turn. Until a player's queen "
            "is placed, that player may only place pieces, not move any."
        ),
        "beetle": (
            "The Beetle moves one cell per turn in any direction, and unlike the other bugs it may "
            "climb onto the hive, walk along its top and drop down again. A piece under a beetle is "
            "pinned (it cannot move) and the stack counts as the beetle's colour for placing new "
            "pieces. Only the top piece of a stack moves. Climbing gate: a beetle cannot pass between "
            "two stacks that are both higher than both the level it leaves and the level it arrives "
            "at. Beetles can stack on beetles."
        ),
        "spider": (
            "The Spider slides exactly three cells along the edge of the hive: no more, no fewer, "
            "and without visiting any cell twice. Each of the three steps must be a legal slide "
            "(see freedom_to_move and one_hive)."
        ),
        "grasshopper": (
            "The Grasshopper jumps in a straight line over one or more pieces to the first empty cell "
            "beyond them. It must jump over at least one piece and cannot jump over gaps. It ignores "
            "gates (it does not slide), but the One Hive rule still applies to taking it off."
        ),
        "ant": (
            "The Soldier Ant slides any number of cells around the hive, to any cell it can reach by "
            "legal slides (keeping contact with the hive and never through a closed gate)."
        ),
        "mosquito": (
            "Expansion (option 'mosquito'). On the ground the Mosquito moves like any bug it touches "
            "(top pieces of neighbouring stacks count): touching a beetle and an ant, it may move as "
            "either. On top of the hive (after copying a beetle) it moves as a beetle until it comes "
            "down. A mosquito touching only mosquitoes cannot move. Touching a pillbug it may use the "
            "pillbug's special ability."
        ),
        "ladybug": (
            "Expansion (option 'ladybug'). The Ladybug moves exactly three cells: two steps on top of "
            "the hive, then one step down into an empty cell. It may not end where it started. Each "
            "step obeys the climbing gate rule of the beetle."
        ),
        "pillbug": (
            "Expansion (option 'pillbug'). The Pillbug moves one cell like the queen. Instead of "
            "moving it may use its special ability: take a piece (of either colour) next to it, lift it "
            "onto itself and put it down on an empty cell next to itself. The lifted piece must not be "
            "part of a stack, must not be the piece moved or placed on the previous turn, and lifting "
            "it must not split the hive; the lift and the drop obey the climbing gate rule. The special "
            "works even when the pillbug itself may not move (One Hive). Any piece moved (or placed) on "
            "a turn cannot move, be moved, or use a special ability on the next turn, so a piece the "
            "opponent's pillbug just moved stays where it is for your turn. A mosquito touching a "
            "pillbug may use the special ability."
        ),
        "one_hive": (
            "The pieces in play must always form a single connected group. A piece whose removal would "
            "split the hive cannot move (unless it sits on top of a stack, which leaves its cell "
            "occupied). The hive must also stay connected during a move: a sliding piece must touch "
            "the hive at every step, which means it moves along the hive's edge."
        ),
        "freedom_to_move": (
            "Sliding pieces (queen, spider, ant, pillbug, and a mosquito copying them) move as flat "
            "tiles: a piece cannot slide into a cell through a gap whose two sides (the two cells next "
            "to both the start and the end of the step) are both occupied. Such a surrounded cell can "
            "only be reached by a beetle, a grasshopper, a ladybug or a pillbug's lift. Climbing "
            "pieces use the climbing gate rule instead (see beetle)."
        ),
        "passing": (
            "If a player has no legal placement and no legal movement, their only action is 'pass'. "
            "Passing is not allowed while any other move exists."
        ),
        "winning": (
            "A queen surrounded on all six sides (by pieces of any colour) loses: the other player "
            "wins. If one move surrounds both queens at once the game is a draw. The game is also a "
            "draw when the turn limit is reached: 'max_turns' turns in total (each player's move or "
            "pass is one turn), or the hard cap of 500 turns when no limit is set. The players may also "
            "agree to a draw."
        ),
        "notation": (
            "Moves use the Universal Hive Protocol. Pieces: colour w/b, bug letter Q S B G A M L P, and "
            "a number for bugs with several copies (wS1, wS2, wB1, wB2, wG1-3, wA1-3); single bugs "
            "have no number (wQ, wM, wL, wP). The first move of the game is just a piece name ('wS1'). "
            "Every other move names the piece, a space, and a reference piece already in the hive with "
            "a direction marker: after the reference '-' = east, '/' = north-east, '\\' = south-east; "
            "before it '-' = west, '/' = south-west, '\\' = north-west (pointy-top hexes). With no "
            "marker the piece climbs on top of the reference ('wB1 bQ'). 'pass' passes. Any reference "
            "next to the destination is accepted; the engine's action ids use one canonical choice. A "
            "whole game is a GameString such as 'Base+MLP;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1' "
            "(game type, game state, whose turn and their turn number, then the moves)."
        ),
        "options": (
            "'mosquito', 'ladybug', 'pillbug' add those expansion bugs. 'max_turns' draws the game "
            "after that many turns in total (0 = only the hard cap of 500). 'gamebench' reproduces the "
            "GameBench benchmark's variant: no beetles in either set and a draw after 250 turns "
            "(unless max_turns is set explicitly)."
        ),
    },
)
