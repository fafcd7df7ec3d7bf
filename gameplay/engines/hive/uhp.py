"""Universal Hive Protocol (UHP) notation: move strings, parsing, labels and game type strings.

A move names the moving piece and where it goes relative to a reference piece already on the board:
``"bS1 wS1-"`` (east of wS1), ``"wQ -wS1"`` (west), ``"wB1 bQ"`` (on top of bQ's stack), ``"pass"``.
Markers after the reference: ``-`` east, ``/`` north-east, ``\\`` south-east; before it: ``-`` west,
``/`` south-west, ``\\`` north-west. The very first move is the piece name alone.

The canonical string (an engine action id) picks the reference the way the Mzinga reference engine
does: the top piece under the destination when climbing, else the first occupied neighbour of the
destination in the order NW, NE, E, SE, SW, W (the moving piece itself never counts). Any other
valid way of writing the same move parses to the same canonical string.
"""

from __future__ import annotations

import re

from ..api import IllegalActionError
from .board import DIR_NAMES, NE, NW, ORIGIN, SE, SW, E, W
from .core import BUG_COUNTS, COLOUR_NAMES, EXPANSIONS, PASS, Position, piece_label

# Direction of the destination seen from the reference -> (prefix, suffix).
MARKERS = {E: ("", "-"), NE: ("", "/"), SE: ("", "\\"), W: ("-", ""), SW: ("/", ""), NW: ("\\", "")}
PREFIX = {"-": W, "/": SW, "\\": NW}
SUFFIX = {"-": E, "/": NE, "\\": SE}
# Neighbours of the destination tried for the canonical reference (offset destination -> reference).
REFERENCE_ORDER = (NW, NE, E, SE, SW, W)

_PIECE = r"[wb][a-z][0-9]?"
MOVE_RE = re.compile(rf"^({_PIECE})(?:\s+([-/\\]?)({_PIECE})([-/\\]?))?$", re.IGNORECASE)


def game_type_string(expansions: str) -> str:
    return "Base" + ("+" + expansions if expansions else "")


def parse_game_type(text: str) -> str:
    """ "Base+ML" -> "ML" (expansion letters in MLP order)."""
    base, plus, extra = text.strip().partition("+")
    if base != "Base" or (plus and not extra):
        raise IllegalActionError(f"bad GameTypeString {text!r}: expected 'Base' or 'Base+' with letters from MLP")
    if len(set(extra)) != len(extra) or any(x not in EXPANSIONS for x in extra):
        raise IllegalActionError(f"bad GameTypeString {text!r}: expansions must be distinct letters from MLP")
    return "".join(x for x in EXPANSIONS if x in extra)


def _stack_without(pos: Position, c: int, mover: str) -> list[str]:
    s = pos.stacks.get(c, [])
    return s[:-1] if s and s[-1] == mover else s


def _reference(pos: Position, move: tuple) -> tuple[str, int | None]:
    """(reference piece, direction of the destination from it; None = on top of it)."""
    piece, src, dst = move
    below = pos.stacks.get(dst)
    if below:
        return below[-1], None
    for off in REFERENCE_ORDER:
        s = _stack_without(pos, dst + off, piece) if dst + off == src else pos.stacks.get(dst + off)
        if s:
            return s[-1], -off
    raise IllegalActionError("a move must end next to a piece of the hive")


def _where(pos: Position, move: tuple) -> tuple[str, str]:
    """(UHP destination part such as "-wQ", label part such as "west of White Queen")."""
    ref, direction = _reference(pos, move)
    return _uhp_where(ref, direction), _label_where(ref, direction)


def _reference_at(pos: Position, dst: int) -> tuple[int, str, int | None]:
    """(reference cell, reference piece, direction of ``dst`` from it; None = on top) of a move to ``dst`` as the board
    stands, every piece in place."""
    below = pos.stacks.get(dst)
    if below:
        return dst, below[-1], None
    for off in REFERENCE_ORDER:
        s = pos.stacks.get(dst + off)
        if s:
            return dst + off, s[-1], -off
    raise IllegalActionError("a move must end next to a piece of the hive")


def _uhp_where(ref: str, direction: int | None) -> str:
    """The destination part of a UHP move string: "wQ" (on top), "-wQ" (west of it), "wQ/" (north-east) ..."""
    if direction is None:
        return ref
    prefix, suffix = MARKERS[direction]
    return f"{prefix}{ref}{suffix}"


def _label_where(ref: str, direction: int | None) -> str:
    """The destination as a label says it: "on top of White Queen", "west of White Queen" ..."""
    return f"on top of {piece_label(ref)}" if direction is None else f"{DIR_NAMES[direction]} of {piece_label(ref)}"


def _where_at(pos: Position, dst: int) -> tuple[int, str, str]:
    """(reference cell, UHP part, label part) of a move to ``dst`` as the board stands, every piece in place."""
    cell, ref, direction = _reference_at(pos, dst)
    return cell, _uhp_where(ref, direction), _label_where(ref, direction)


def describe_all(pos: Position, moves: list[tuple]) -> list[tuple[str, str, tuple[str, ...]]]:
    """(canonical UHP string, human label, parts) for each legal move, computed before any is played.

    Labels read like "Place White Spider 2 west of White Queen", "Move White Ant 1 to north-east of
    Black Spider 1", "Move White Beetle 1 on top of Black Queen" or "Pass (no legal move)". The parts
    (``Action.parts``) split a label into the piece and where it goes: ("Move White Ant 1", "to north-east of Black
    Spider 1"). Moves to one cell share their reference, so it is looked up once per cell (a search lists every move
    of every position it visits). The one exception is a movement whose reference, the board as it stands, is the
    moving piece's own cell: the piece is not there once it moves, so that move looks again without it.
    """
    out = []
    colour = pos.colour
    first = not pos.stacks
    by_cell: dict[int, tuple[int, str, str]] = {}
    for move in moves:
        if move == PASS:
            out.append(("pass", "Pass (no legal move)", ("Pass (no legal move)",)))
            continue
        piece, src, dst = move
        name = piece_label(piece)
        if first:
            out.append((piece, f"Place {name} (the first piece of the game)",
                        (f"Place {name}", "as the first piece of the game")))
            continue
        parts = by_cell.get(dst)
        if parts is None:
            parts = by_cell[dst] = _where_at(pos, dst)
        if src is None:
            out.append((f"{piece} {parts[1]}", f"Place {name} {parts[2]}", (f"Place {name}", parts[2])))
            continue
        uhp, where = _where(pos, move) if parts[0] == src else parts[1:]
        verb = "Pillbug: move" if piece[0] != colour else "Move"
        where = where if where.startswith("on top") else f"to {where}"
        out.append((f"{piece} {uhp}", f"{verb} {name} {where}", (f"{verb} {name}", where)))
    return out


def move_ids(pos: Position, moves: list[tuple]) -> list[str]:
    """The canonical UHP strings of ``moves`` alone, the same as describe_all's ids: all a search or a check of a move
    needs. A search asks for them at every position it visits, where the labels and parts cost several times as much
    as the ids."""
    if not pos.stacks:
        return [move[0] for move in moves]
    out = []
    by_cell: dict[int, tuple[int, str]] = {}
    for move in moves:
        if move == PASS:
            out.append("pass")
            continue
        piece, src, dst = move
        where = by_cell.get(dst)
        if where is None:
            cell, ref, direction = _reference_at(pos, dst)
            where = by_cell[dst] = (cell, _uhp_where(ref, direction))
        out.append(f"{piece} {_uhp_where(*_reference(pos, move)) if where[0] == src else where[1]}")
    return out


def describe(pos: Position, move: tuple) -> tuple[str, str]:
    """(canonical UHP string, human label) of one legal move, computed before it is played."""
    return describe_all(pos, [move])[0][:2]


def move_string(pos: Position, move: tuple) -> str:
    """Canonical UHP string of a legal move, computed before the move is played."""
    if move == PASS:
        return "pass"
    if not pos.stacks:
        return move[0]
    return f"{move[0]} {_uhp_where(*_reference(pos, move))}"


def move_label(pos: Position, move: tuple) -> str:
    return describe(pos, move)[1]


def normalise_piece(text: str, pos: Position) -> str:
    colour, bug, number = text[0].lower(), text[1].upper(), text[2:]
    if bug not in BUG_COUNTS:
        raise IllegalActionError(f"unknown bug {text[1]!r} in {text!r}: bugs are Q S B G A M L P")
    count = BUG_COUNTS[bug]
    if count == 1:
        if number not in ("", "1"):
            raise IllegalActionError(f"there is only one {colour}{bug}; write it without a number")
        number = ""
    elif not number:
        raise IllegalActionError(f"{text!r} needs a number: {colour}{bug}1 to {colour}{bug}{count}")
    piece = colour + bug + number
    if piece not in pos.pieces[colour]:
        extra = pos.expansions or "none"
        beetles = "" if pos.beetles else "; no beetles"
        raise IllegalActionError(f"{piece} is not in this game (expansions: {extra}{beetles})")
    return piece


def resolve(pos: Position, text: str) -> tuple[str, int] | tuple:
    """Parse a UHP move string into (piece, destination cell), or PASS; geometry only."""
    t = " ".join(str(text).split())
    if t.lower() == "pass":
        return PASS
    m = MOVE_RE.match(t)
    if not m:
        raise IllegalActionError(
            f"{text!r} is not a UHP move string (e.g. 'wS1', 'bS1 wS1-', 'wQ -wS1', 'wB1 bQ', 'pass')"
        )
    piece = normalise_piece(m.group(1), pos)
    if m.group(3) is None:
        if pos.stacks:
            raise IllegalActionError(
                f"{text!r} needs a reference piece after the first move, e.g. '{piece} wQ-'"
            )
        return piece, ORIGIN
    prefix, ref, suffix = m.group(2), normalise_piece(m.group(3), pos), m.group(4)
    if prefix and suffix:
        raise IllegalActionError(f"{text!r}: put one direction marker before or after the reference, not both")
    rc = pos.where.get(ref)
    if rc is None:
        raise IllegalActionError(f"{text!r}: the reference piece {ref} is not on the board")
    if prefix:
        return piece, rc + PREFIX[prefix]
    if suffix:
        return piece, rc + SUFFIX[suffix]
    if pos.top(rc) != ref:
        raise IllegalActionError(
            f"{text!r}: {ref} is covered; climb onto its stack by naming the top piece {pos.top(rc)}"
        )
    return piece, rc


def why_illegal(pos: Position, piece: str, dst: int) -> str:
    """A reason a resolved (piece, destination) is not among the legal moves."""
    colour = pos.colour
    mover = COLOUR_NAMES[colour]
    src = pos.where.get(piece)
    if src is None:
        if piece[0] != colour:
            return f"it is {mover}'s turn and {piece} is {COLOUR_NAMES[piece[0]]}'s piece"
        lowest = next(p for p in pos.hand(colour) if p[1] == piece[1])
        if lowest != piece:
            return f"identical bugs are placed in order: place {lowest} before {piece}"
        if piece[1] == "Q" and pos.turn_number == 1:
            return "the queen may not be placed on a player's first turn"
        if pos.turn_number == 4 and colour + "Q" not in pos.where:
            return "the queen must be placed now (a player's 4th turn at the latest)"
        if dst in pos.stacks:
            return "a new piece goes on an empty cell"
        return "a new piece must touch your own pieces and no opponent piece"
    if colour + "Q" not in pos.where:
        return f"{mover} may not move pieces before placing the queen"
    if pos.top(src) != piece:
        return f"{piece} is covered by {pos.top(src)} and cannot move"
    if piece == pos.last_moved:
        return f"{piece} moved last turn and cannot move or be moved this turn"
    if piece[0] != colour:
        return f"it is {mover}'s turn; {piece} can only be moved by {mover}'s pillbug special ability"
    return (
        f"{piece} cannot reach that cell (its movement rules, One Hive or freedom to move forbid it)"
    )


def parse_move(pos: Position, text: str) -> tuple:
    """The legal move a UHP string denotes, or IllegalActionError with a reason."""
    if pos.is_over():
        raise IllegalActionError("the game is over")
    moves = pos.moves()
    found = resolve(pos, text)
    if found == PASS:
        if moves == [PASS]:
            return PASS
        raise IllegalActionError("you may pass only when you have no legal move")
    piece, dst = found
    for move in moves:
        if move[0] == piece and move[2] == dst:
            return move
    raise IllegalActionError(f"{text!r} is not legal now: {why_illegal(pos, piece, dst)}")
