"""What the ego may believe about the partner's side, rebuilt from one observation (seeds/003 §4.1).

Agents are stateless between calls, so everything here is derived again at every decision from the
observation's move history and chat; the same observation always gives the same knowledge.

Three kinds of partner knowledge:
- known-open edges: the partner moved the token across them;
- known walls: a partner move across them was blocked ("moved": false);
- the hidden information dictionary D (cell -> actions the partner rejected there): a blocked partner
  move, or the ego's suggestion followed by a partner message that parses as REJECT. As in the reference
  implementation a rejection is mirrored to the neighbour cell (a wall blocks both ways). An edge the
  partner later crossed is open whatever was said about it, so such entries are dropped.

Soft evidence, from behaviour rather than words (both agents use it; the mute agent has nothing else):
- each time the partner, to move next to an unknown edge, did something else than cross it (and was not
  just doing what the ego asked), that edge's wall odds rise by 1 / decline_likelihood (``BeliefConstants``).

And the treasure belief, when the ego cannot see the treasure: uniform over the cells the token has never
occupied (the round would have ended there), multiplied by hint_factor for the cells lying in the direction
of each move flag the partner sent and by move_factor for each move the partner made (the partner is the
one who sees the treasure then, and heads for it).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from gameplay.engines.gnomes.maze import OPPOSITE, Cell, neighbour, wall_between

from .flags import Flag
from .messages import suggest


@dataclass(frozen=True)
class BeliefConstants:
    """The belief's three evidence weights, fixed by ``gnomes_tune`` on the tuning seeds 1000..1029 (disjoint
    from the evaluation seeds 0..29): a coordinate sweep around the previous values (4, 2, 0.7), three passes,
    each adopting the best change of the pass before; the Gnomes README quotes the runs.

    - hint_factor: how much more likely the treasure is in the direction the partner tells the ego to go. A
      hint is the next step of a path, not an exact bearing, but 8 beat 4 and 2 in every pass.
    - move_factor: the same for each move the partner makes. 1 (a move is no evidence of where the treasure
      is) beat 2 and 3: walls bend the partner's route, and with partner_attempts off a blocked move is not
      even seen.
    - decline_likelihood: P(the partner does not cross an open edge it stands next to). A cooperative partner
      has up to four other things to do, so declining an open edge is common, while declining a wall is
      certain; 0.6 beat 0.5, 0.7, 0.8 and 0.9.
    """

    hint_factor: float = 8.0
    move_factor: float = 1.0
    decline_likelihood: float = 0.6


CONSTANTS = BeliefConstants()


def use_constants(constants: BeliefConstants) -> None:
    """Replace the weights for this process (gnomes_tune's sweep; agents never call it)."""
    global CONSTANTS
    CONSTANTS = constants


Parse = Callable[[str], Flag]


@dataclass(frozen=True)
class Suggestion:
    """A move the ego asked the partner for: at ``cell``, made when ``turn`` moves had been played."""

    cell: Cell
    action: str
    turn: int
    chat_index: int


@dataclass
class PartnerKnowledge:
    open_edges: set[str] = field(default_factory=set)
    wall_edges: set[str] = field(default_factory=set)
    rejected: dict[Cell, set[str]] = field(default_factory=dict)
    suggestions: list[Suggestion] = field(default_factory=list)
    # (token cell, flag) of every move flag the partner sent, oldest first.
    hints: list[tuple[Cell, Flag]] = field(default_factory=list)
    # (from cell, flag) of every non-stay move the partner made, oldest first: the partner who sees the
    # treasure heads for it, so its moves are evidence too (weaker than words: walls bend its path).
    moves: list[tuple[Cell, Flag]] = field(default_factory=list)
    # Edge -> how often the partner, to move next to it, did something else than cross it.
    declined: Counter[str] = field(default_factory=Counter)


    def assumed_walls(self) -> set[str]:
        """Edges treated as partner walls when sampling: known walls plus every rejection in D."""
        walls = set(self.wall_edges)
        for cell, actions in self.rejected.items():
            walls.update(wall_between(cell, action) for action in actions)
        return walls - self.open_edges


def wall_probabilities(knowledge: PartnerKnowledge, prior: float) -> dict[str, float]:
    """Posterior wall probability of each edge the partner declined to cross (known edges excluded).

    A cooperative partner with an open move takes it with some chance; each time it does something else
    the odds of a wall rise by 1 / decline_likelihood (Bayes with P(decline | open) = decline_likelihood,
    P(decline | wall) = 1).
    """
    known = knowledge.assumed_walls() | knowledge.open_edges
    result = {}
    for edge, count in knowledge.declined.items():
        if edge not in known:
            open_weight = (1 - prior) * CONSTANTS.decline_likelihood**count
            result[edge] = prior / (prior + open_weight)
    return result


def token_timeline(data: Mapping) -> list[Cell]:
    """Token cell after k moves, for k = 0..len(history)."""
    cells = [tuple(data.get("start") or (0, 0))]
    for entry in data.get("history") or ():
        cells.append(tuple(entry["to"]))
    return cells


def cell_at_turn(timeline: Sequence[Cell], turn: int) -> Cell:
    return timeline[max(0, min(turn, len(timeline) - 1))]


def visited_cells(data: Mapping) -> set[Cell]:
    return set(token_timeline(data)) | {tuple(data["token"])}


_SUGGESTION_TEXTS: dict[str, str] | None = None


def suggestion_action(text: str) -> str | None:
    """The move an ego chat line asked for: the line is, or ends with, one of messages.suggest's texts (the
    agent may put an acknowledgement before its request, "OK, moving right. Can you move up?")."""
    global _SUGGESTION_TEXTS
    if _SUGGESTION_TEXTS is None:
        _SUGGESTION_TEXTS = {suggest(flag).strip().lower(): flag.action for flag in _MOVE_FLAGS}
    line = text.strip().lower()
    return next((action for said, action in _SUGGESTION_TEXTS.items() if line.endswith(said)), None)


_MOVE_FLAGS = (Flag.STAY, Flag.RIGHT, Flag.UP, Flag.LEFT, Flag.DOWN)


def partner_knowledge(data: Mapping, seat: int, parse: Parse | None) -> PartnerKnowledge:
    """Rebuild the partner knowledge from the observation; ``parse=None`` ignores chat (the mute agent)."""
    knowledge = PartnerKnowledge()
    size = int(data["size"])
    if parse is not None:
        _read_chat(knowledge, data, seat, parse, size)
    for entry in data.get("history") or ():
        if entry["seat"] != seat:
            _read_partner_move(knowledge, entry, size)
    _drop_contradicted(knowledge)
    return knowledge


def _read_partner_move(knowledge: PartnerKnowledge, entry: Mapping, size: int) -> None:
    origin, action = tuple(entry["from"]), entry["action"]
    if not _carried_out_a_request(knowledge, entry):
        for other in ("right", "up", "left", "down"):
            if other != action and _on_grid(neighbour(origin, other), size):
                knowledge.declined[wall_between(origin, other)] += 1
    if action is None or action == "stay" or not _on_grid(neighbour(origin, action), size):
        # Staying or bumping the board's edge says nothing about walls; nor does a move that left the token where
        # it was when the observation does not say which way the partner tried (option partner_attempts off).
        return
    knowledge.moves.append((origin, Flag.of_action(action)))
    edge = wall_between(origin, action)
    if entry["moved"]:
        knowledge.open_edges.add(edge)
    else:
        knowledge.wall_edges.add(edge)
        _reject(knowledge, origin, action, size)


def _carried_out_a_request(knowledge: PartnerKnowledge, entry: Mapping) -> bool:
    """Whether this partner move did what the ego last asked: then its other options say nothing."""
    asked = [s for s in knowledge.suggestions if s.turn < int(entry["turn"])]
    return bool(asked) and asked[-1].action == entry["action"]


def _read_chat(knowledge: PartnerKnowledge, data: Mapping, seat: int, parse: Parse, size: int) -> None:
    timeline = token_timeline(data)
    for index, line in enumerate(data.get("chat") or ()):
        turn = int(line.get("turn", 0))
        text = str(line.get("text", ""))
        if line["seat"] == seat:
            action = suggestion_action(text)
            if action is not None:
                knowledge.suggestions.append(Suggestion(cell_at_turn(timeline, turn), action, turn, index))
            continue
        flag = parse(text)
        if flag == Flag.REJECT and knowledge.suggestions:
            last = knowledge.suggestions[-1]
            if last.action != "stay":
                _reject(knowledge, last.cell, last.action, size)
        elif flag.action is not None and flag != Flag.STAY:
            knowledge.hints.append((cell_at_turn(timeline, turn), flag))


def _reject(knowledge: PartnerKnowledge, cell: Cell, action: str, size: int) -> None:
    knowledge.rejected.setdefault(cell, set()).add(action)
    other = neighbour(cell, action)
    if _on_grid(other, size):
        knowledge.rejected.setdefault(other, set()).add(OPPOSITE[action])


def _drop_contradicted(knowledge: PartnerKnowledge) -> None:
    for cell in list(knowledge.rejected):
        kept = {a for a in knowledge.rejected[cell] if wall_between(cell, a) not in knowledge.open_edges}
        if kept:
            knowledge.rejected[cell] = kept
        else:
            del knowledge.rejected[cell]


def _on_grid(cell: Cell, size: int) -> bool:
    return 0 <= cell[0] < size and 0 <= cell[1] < size


def treasure_belief(
    data: Mapping, hints: Sequence[tuple[Cell, Flag]], moves: Sequence[tuple[Cell, Flag]] = ()
) -> dict[Cell, float]:
    """Weight per candidate treasure cell: exact when visible, else hint-weighted over unvisited cells."""
    if data.get("treasure") is not None:
        return {tuple(data["treasure"]): 1.0}
    size = int(data["size"])
    visited = visited_cells(data)
    weights = {(x, y): 1.0 for y in range(size) for x in range(size) if (x, y) not in visited}
    evidence = [(c, f, CONSTANTS.hint_factor) for c, f in hints] + [(c, f, CONSTANTS.move_factor) for c, f in moves]
    for (cx, cy), flag, factor in evidence:
        for cell in weights:
            if _lies_towards(cell, cx, cy, flag):
                weights[cell] *= factor
    return weights


def _lies_towards(cell: Cell, cx: int, cy: int, flag: Flag) -> bool:
    x, y = cell
    if flag == Flag.RIGHT:
        return x > cx
    if flag == Flag.LEFT:
        return x < cx
    if flag == Flag.UP:
        return y < cy
    if flag == Flag.DOWN:
        return y > cy
    return False
