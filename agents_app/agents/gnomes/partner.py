"""A simulated human partner for evaluating the Gnomes at Night agents without people.

It is a pure Agent that sees only its own observation (its side's walls, the treasure when its side shows
it, the public history and the chat), and behaves like a cooperative, plain-spoken player:

- When it sees the treasure it plans a route over its OWN walls, assuming the agent can move anywhere except
  where it has learnt otherwise (partner_beliefs: the agent said it cannot, or twice did not go when told),
  moves along it, and tells the agent which way to go next. It does not take requests then: it knows better.
- Otherwise it follows the agent's latest request if its side allows it (sometimes saying "ok"), says it
  cannot when a wall is in the way, and keeps carrying out a request it has just done while the agent stays
  silent. With nothing to follow it explores, preferring cells the token has not visited yet. Asked a
  question, it says the treasure is not on its side. Speaking free form, it also asks where the treasure is
  before its first move and now and then makes small talk.

The same partner plays with every ego; with the mute agent there are simply no requests to follow.
Its speech (``partner_speech``) is plain template English by default, which the rule-based parser reads as
meant; the free-form speech words the same meanings as people type them. The unreliable partner (``lie_rate``,
``ignore_rate``) sometimes names a wrong direction in a hint, claims a wall that is not there, or silently
ignores a request.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from agents_app.agents.base import Agent, Decision, TurnView
from gameplay.engines.gnomes.maze import ACTIONS, Cell, Maze, neighbour

from .flags import Flag
from .intents import RuleBasedParser, combine
from .partner_beliefs import agent_walls
from .partner_speech import FreeformSpeech, TemplateSpeech
from .worlds import EGO, PARTNER, Grid, cost_to_go

MOVES = ("right", "up", "left", "down")

_ACCEPT_CHANCE = 0.4
_CHATTER_CHANCE = 0.1


class SimulatedPartner(Agent):
    name = "gnomes-partner"
    games = frozenset({"gnomes"})  # reads the Gnomes at Night observation and its maze
    description = "Gnomes at Night: a scripted cooperative partner that follows requests and gives directions."

    def __init__(self, speech: TemplateSpeech | FreeformSpeech | None = None, lie_rate: float = 0.0,
                 ignore_rate: float = 0.0):
        self.parser = RuleBasedParser()
        self.speech = speech or TemplateSpeech()
        # The unreliable partner: a hint that names a wrong direction, or a wall claimed where there is none
        # (lie_rate); a request carried out by nobody, silently (ignore_rate). Both 0: the honest partner.
        self.lie_rate = lie_rate
        self.ignore_rate = ignore_rate

    def decide(self, view: TurnView) -> Decision:
        if view.game_id != "gnomes":
            raise ValueError(f"the simulated partner only plays 'gnomes', not {view.game_id!r}")
        data = view.observation.data
        rng = random.Random(view.seed)
        maze = Maze(int(data["size"]), data["walls"])
        token = tuple(data["token"])
        if data.get("treasure") is not None:
            return self._guide(data, view.seat, maze, token, rng)
        return self._follow(data, view.seat, maze, token, rng)

    # --- when the treasure is on this side -------------------------------------------------------------
    def _guide(self, data: Mapping, seat: int, maze: Maze, token: Cell, rng: random.Random) -> Decision:
        grid = Grid(maze.size)
        mine = grid.transitions(maze.walls)
        theirs = grid.transitions(agent_walls(data, seat, self.parser.parse))
        treasure = tuple(data["treasure"])
        cost = cost_to_go(grid, theirs, mine, grid.index_of(treasure))
        here = grid.index_of(token)
        # My move (never into one of my own walls): the least cost for the agent to finish from there.
        mine_open = [a for a in range(5) if a == 0 or mine[here * 5 + a] != here]
        action = _best(rng, [(cost[EGO][mine[here * 5 + a]], a) for a in mine_open])
        after = mine[here * 5 + action]
        theirs_open = [a for a in range(5) if a == 0 or theirs[after * 5 + a] != after]
        hint = _best(rng, [(cost[PARTNER][theirs[after * 5 + a]], a) for a in theirs_open])
        message = None
        if hint != 0 and after != grid.index_of(treasure) and not self._hint_just_followed(data, seat, hint):
            move = ACTIONS[hint]
            if self.lie_rate and rng.random() < self.lie_rate:
                move = rng.choice([m for m in MOVES if m != move])
            message = self.speech.line("hint", rng, move, _bearing(grid.cell_of(after), treasure))
        return Decision(action_id=ACTIONS[action], message=message)

    def _hint_just_followed(self, data: Mapping, seat: int, hint: int) -> bool:
        """Stay quiet when the agent just did what I said and I would say the same again."""
        mine = [line for line in data.get("chat") or () if line["seat"] == seat]
        last = data.get("last_partner_move")
        if not mine or last is None:
            return False
        said = self.speech.hinted_move(mine[-1]["text"])
        return said == ACTIONS[hint] and last["action"] == ACTIONS[hint] and bool(last["moved"])

    def _read(self, text: str) -> Flag:
        """The agent's intent, read with the same rule-based parser a participant's words go through."""
        return self.parser.parse(text)

    # --- when the treasure is not on this side --------------------------------------------------------
    def _follow(self, data: Mapping, seat: int, maze: Maze, token: Cell, rng: random.Random) -> Decision:
        fresh = _agent_lines_since_my_move(data, seat)
        request = combine([self._read(text) for text in fresh])
        if request.action is not None:
            if self.ignore_rate and rng.random() < self.ignore_rate:
                return Decision(action_id=_explore(data, maze, token, rng))
            honest = not (self.lie_rate and rng.random() < self.lie_rate)
            if maze.can_move(token, request.action) and honest:
                reply = self.speech.line("accept", rng, request.action) if rng.random() < _ACCEPT_CHANCE else None
                return Decision(action_id=request.action, message=reply)
            refusal = self.speech.line("refuse_wall", rng, request.action)
            return Decision(action_id=_explore(data, maze, token, rng), message=refusal)
        if request == Flag.INQUIRY:
            answer = self.speech.line("answer_no_treasure", rng)
            return Decision(action_id=_explore(data, maze, token, rng), message=answer)
        if not fresh:
            standing = self._standing_request(data, seat)
            if standing is not None and maze.can_move(token, standing):
                return Decision(action_id=standing)
        return Decision(action_id=_explore(data, maze, token, rng), message=self._small_talk(data, seat, rng))

    def _small_talk(self, data: Mapping, seat: int, rng: random.Random) -> str | None:
        """A person who cannot see the treasure asks where it is before their first move, and now and then
        says something that asks for nothing (free-form speech only: the templates have no such lines)."""
        if not self.speech.converses:
            return None
        if not any(entry["seat"] == seat for entry in data.get("history") or ()):
            return self.speech.line("ask", rng)
        return self.speech.line("chatter", rng) if rng.random() < _CHATTER_CHANCE else None

    def _standing_request(self, data: Mapping, seat: int) -> str | None:
        """The agent's latest request, if my last move carried it out (silence then means: keep going)."""
        requests = [line for line in data.get("chat") or () if line["seat"] != seat]
        mine = [entry for entry in data.get("history") or () if entry["seat"] == seat]
        if not requests or not mine:
            return None
        flag = self._read(requests[-1]["text"])
        last = mine[-1]
        if flag.action in (None, "stay") or last["action"] != flag.action or not last["moved"]:
            return None
        return flag.action if int(last["turn"]) > int(requests[-1]["turn"]) else None


def _agent_lines_since_my_move(data: Mapping, seat: int) -> list[str]:
    mine = [entry for entry in data.get("history") or () if entry["seat"] == seat]
    since = int(mine[-1]["turn"]) if mine else 0
    return [str(line["text"]) for line in data.get("chat") or () if line["seat"] != seat and line["turn"] >= since]


def _explore(data: Mapping, maze: Maze, token: Cell, rng: random.Random) -> str:
    """An open move, to a cell the token has not visited when there is one."""
    visited = {tuple(entry["to"]) for entry in data.get("history") or ()} | {tuple(data["start"])}
    open_moves = [m for m in MOVES if maze.can_move(token, m)]
    fresh = [m for m in open_moves if neighbour(token, m) not in visited]
    choices = fresh or open_moves
    return rng.choice(choices) if choices else "stay"


def _best(rng: random.Random, scored: list[tuple[int, int]]) -> int:
    low = min(score for score, _ in scored)
    return rng.choice([action for score, action in scored if score == low])


def _bearing(cell: Cell, treasure: Cell) -> str:
    """Where the treasure lies from ``cell`` in words ("further down and to the right")."""
    parts = []
    if treasure[1] != cell[1]:
        parts.append("further up" if treasure[1] < cell[1] else "further down")
    if treasure[0] != cell[0]:
        parts.append("to the left" if treasure[0] < cell[0] else "to the right")
    return " and ".join(parts) or "right here"
