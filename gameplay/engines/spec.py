"""The declared values of the engine contract: errors, actions, observations, rules, options, measures and the
``GameSpec`` of capabilities. Plain frozen data with no behaviour of a game; ``api.py`` builds ``Game`` and ``State``
on them and re-exports every name, so engines keep importing the contract from ``api``. (``seat_view.py`` imports
from here: ``api`` builds seat views, so importing ``api`` back would close a circle.)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # dialogue.py imports api, which imports this module; annotations only need the name
    from .dialogue import DialogueSpec


class EngineError(Exception):
    """Base class for errors an engine reports to its caller."""


class IllegalActionError(EngineError):
    """The action is not legal for that seat in this state (state unchanged)."""


class InvalidOptionsError(EngineError):
    """Game options failed validation."""


@dataclass(frozen=True)
class Action:
    """A structured action: a stable string id and a label a person can read.

    ``path`` optionally names the board locations a person clicks, in order, to
    choose this action (a placement: one cell; a move: from-cell then to-cell).
    Board UIs use it generically; agents ignore it.

    ``parts`` (games that declare ``GameSpec.composed_actions``) are the choices this action is made of, in order,
    as a person would say them: a Hive move is ("Move White Ant 1", "to west of Black Queen"). An agent that cannot
    take in every action at once (a language model with a small context) chooses part by part among the legal
    continuations instead. No two actions have the same parts and no action's parts begin another's.
    """

    id: str
    label: str
    path: tuple[str, ...] = ()
    parts: tuple[str, ...] = ()


@dataclass(frozen=True)
class TextAction:
    """An open-ended action whose payload is free text validated by the engine.

    ``id`` is submitted like a structured action id together with the text,
    e.g. a Codenames clue (``id="clue"``, hint ``"word,number"``).

    ``example`` is a text this seat could send now that ``State.validate_text`` accepts (a clue word that is on no
    visible card, a description not given before), worked out only from what the seat may know. Programs that play
    a person's seat without a language (the studies' bots) send it; the conformance suite checks every one.
    """

    id: str
    label: str
    hint: str = ""
    max_length: int = 200
    example: str = ""
    parts: tuple[str, ...] = ()  # as ``Action.parts``: a Fruit Trading offer is (propose, what you give, what you get)


@dataclass(frozen=True)
class ActionRecord:
    """One applied action in a state's log; enough to replay the game."""

    seat: int
    action_id: str
    text: str | None = None

    def to_json(self) -> list:
        return [self.seat, self.action_id, self.text]

    @classmethod
    def from_json(cls, data: Sequence) -> ActionRecord:
        return cls(int(data[0]), str(data[1]), data[2])


# Records decoded from JSON, shared by every log that holds them (records are frozen: states share them already, see
# State.clone). Why (issue 39, point 6): a match's state is read whole at every move, by the service and by every
# socket that draws the move, and its log grows with the match; building each record anew (a frozen dataclass, three
# guarded attribute writes) was the largest cost of a move late in a Pit game, which runs to thousands of actions
# (1,500 records: 1.1 ms each time, 0.2 ms looked up here). Kept to a bound, then started afresh.
_DECODED: dict[tuple, ActionRecord] = {}
DECODED_RECORDS_KEPT = 20_000


def records_from_json(rows: Sequence[Sequence]) -> list[ActionRecord]:
    """``[ActionRecord.from_json(row) for row in rows]``, each record without text built once per distinct row (a
    text, e.g. a dialogue game's message, is rarely repeated and may be long: such a record is built anew)."""
    decoded = _DECODED
    if len(decoded) > DECODED_RECORDS_KEPT:
        decoded.clear()
    records = []
    for row in rows:
        if row[2] is not None:
            records.append(ActionRecord.from_json(row))
            continue
        key = (row[0], row[1])
        try:
            record = decoded.get(key)
        except TypeError:  # an unhashable value: nothing to share
            records.append(ActionRecord.from_json(row))
            continue
        if record is None:
            record = decoded[key] = ActionRecord.from_json(row)
        records.append(record)
    return records


@dataclass(frozen=True)
class Observation:
    """What one seat may know. ``data`` feeds the UI, ``text`` feeds LLM agents.

    ``seat`` is None for the public (spectator) view.
    """

    seat: int | None
    data: Mapping[str, Any]
    text: str

    def to_json(self) -> dict:
        return {"seat": self.seat, "data": self.data, "text": self.text}


@dataclass(frozen=True)
class Rules:
    """Rules text: a short summary and named subtopics an agent can ask for."""

    summary: str
    topics: Mapping[str, str] = field(default_factory=dict)

    def topic(self, name: str) -> str:
        try:
            return self.topics[name]
        except KeyError:
            raise KeyError(f"unknown rules topic {name!r}; known: {', '.join(self.topics)}") from None


@dataclass(frozen=True)
class OptionSpec:
    """One game option: name, default, a human description and allowed type; ``bounds`` (low, high), inclusive,
    for a number option (checked by ``Game``, so no engine checks its own ranges); ``short_value`` and ``label``
    below."""

    name: str
    default: Any
    description: str
    type: type = bool
    choices: tuple | None = None
    bounds: tuple | None = None
    # A value of this option that keeps a match short (a low turn cap), for dry runs of a whole study such as the
    # bots' study of every game; None: the option does not bound a match's length.
    short_value: Any = None
    # What people read for the option (the new-match form's field label), in sentence case: "Turn cap",
    # "GameBench: Disrupt chooser". ``name`` is the key options are stored and sent under; the description is the
    # help text beside the field. Every game declares one (check_spec in tests/engines/conformance.py).
    label: str = ""


@dataclass(frozen=True)
class MeasureSpec:
    """One outcome measure a game reports per seat (``State.measures``), e.g. turns taken or success.

    ``kind`` is "number" or "bool". Studies export and analyse exactly the measures a game declares.
    ``until_goal``: a number measure that counts up to the game's goal (``GameSpec.goal_measure``), such as
    the turns it took to find a treasure; in a round that ended without the goal (a turn cap), its value is
    censored (the goal was not reached by then), so analyses of it keep such rounds as censored, not finished.
    """

    name: str
    description: str
    kind: str = "number"
    until_goal: bool = False


@dataclass(frozen=True)
class ActionLabels:
    """How one applied action reads to each seat (``by_seat[i]``) and to the public (spectators, replays).

    A hidden-information game words the same action differently per viewer ("You play the 5 of Sea face
    down" for its player, "Blue plays a card face down" for everyone else).
    """

    by_seat: tuple[str, ...]
    public: str

    def for_viewer(self, seat: int | None) -> str:
        if seat is None or not 0 <= seat < len(self.by_seat):
            return self.public
        return self.by_seat[seat]


# GameBench's reasoning categories (seed 001, Table 1), in the paper's order, with the names reports show.
REASONING_CATEGORIES = {
    "abstract_strategy": "Abstract strategy",
    "non_deterministic": "Non-deterministic",
    "hidden_information": "Hidden information",
    "language_communication": "Language communication",
    "social_deduction": "Social deduction",
    "cooperation": "Cooperation",
}


@dataclass(frozen=True)
class GameSpec:
    """Immutable facts about a game, independent of any options: every capability is declared here.

    The platform reads capabilities from the spec and calls the matching hooks of ``Game``/``State``;
    it never probes an engine for methods by name. Nothing here is about web pages: a game's board on a page
    (template, assets, page geometry, whether its picture's cell labels are offered) is its board presenter's,
    in ``gameplay/boards/``, built from a ``SeatView``.

    - ``has_chat``: players may send chat messages (``Game.chat_enabled`` may switch it off per options).
    - ``chat_in_state``: the engine keeps chat in its state (``State.record_message``), so observations
      and agents see it; otherwise chat lives only in the platform's event log.
    - ``team_chat``: a line a seat posts is read only by the seats ``State.chat_audience(seat)`` names (its team),
      and ``State.may_chat(seat)`` says whether the seat may post at all now (Codenames' Spymasters read their
      Operatives' chat but may not write in it). Requires ``has_chat``.
    - ``typed_moves``: the name of a move notation people may type (``State.parse_move``), "" for none.
    - ``round_sequence``: matches are played as a chain of rounds (``Game.next_round_options``).
    - ``has_image``: ``Game.observation_image`` draws observations (a picture for people and vision agents).
    - ``measures``: outcome measures per seat (``State.measures``), used by studies and exports.
    - ``draw_by_agreement``: the rules let the players agree to a draw (a draw offer every other player accepts
      ends the game with ``State.agreed_draw_scores``); games whose rules have no draw, or no opponents, leave
      it off.
    - ``goal_measure``: the name of a bool measure saying the round reached the game's goal (the treasure was
      found), for games where a round can end without it (a turn cap). A finished round whose goal measure is
      false is *censored*: exports mark it, and its time and ``until_goal`` measures enter time-to-event
      analyses as censored. "" when every finished game has simply ended (a win, a loss or a draw).
    - ``realtime``: the game runs on a clock (``Game.frames_per_second``). Its seats choose simultaneously at
      decision points every ``State.frames_per_decision()`` frames; a seat that has not chosen in time takes
      ``State.idle_action(seat)``. The platform can then play it live, streaming the frames each decision point
      played (``State.keep_frames`` / ``State.take_frames``) while people hold keys. Requires ``simultaneous``.
    - ``concurrent_actions``: seats act at once, each on its own information (Pit's open market), so an action chosen
      on a view that other seats' actions have since overtaken still counts if the engine finds it legal when it
      arrives; only a seat that has acted itself since that view is refused. Requires ``simultaneous``.
    - ``dialogue``: a dialogue game (seed 004; see ``dialogue.py``): turns are text actions whose id is the structured
      move and whose text is the message; it declares its instruction sets and payoff measure, and whether a judge
      decides the outcome (then ``State.awaiting_verdict`` and the verdict hooks apply).
    - ``turn_timer``: a seat may have a time limit for its current decision (``State.time_limit``, seconds, 0 for
      none); when it runs out the platform applies ``State.timeout_action`` for it (Who is Spy's description and
      vote limits). The server's clock decides, from ``Match.turn_started_at``.
    - ``reasoning_categories``: the kinds of strategic reasoning the game exercises, named from
      ``REASONING_CATEGORIES`` (GameBench's six axes, seed 001 Table 1). GameBench's nine games carry the paper's
      own classification, as printed; the other games are classified by the same definitions. Benchmark reports
      average scores per category over the games that declare it.
    - ``information_sampling``: ``State.sample_information_state(seat, rng)`` draws a whole state from the seat's
      information set (the other seats' hidden cards, roles and pending orders, and the unseen deck, dealt anew
      consistently with everything the seat has seen), for search agents. A perfect-information game has it without
      declaring it (the default sample is the state itself under a new seed, so that chance to come is unknown too).
    - ``composed_actions``: every structured and open-ended action carries ``parts`` (``Action.parts``), so that an
      agent can choose among hundreds of actions step by step, each step listing only the legal continuations.
      Conformance checks that the parts tell every action apart and that none is a prefix of another's.
    - ``has_evaluation``: ``State.evaluation()`` estimates the scores of an unfinished state (in [0, 1], summing to
      1), for searches that stop before the end instead of playing random moves to it.
    """

    id: str
    name: str
    description: str
    min_seats: int
    max_seats: int
    perfect_information: bool = True
    simultaneous: bool = False
    has_chance: bool = False
    has_chat: bool = False
    options: tuple[OptionSpec, ...] = ()
    seat_names: tuple[str, ...] = ()
    chat_in_state: bool = False
    team_chat: bool = False
    typed_moves: str = ""
    round_sequence: bool = False
    has_image: bool = False
    measures: tuple[MeasureSpec, ...] = ()
    draw_by_agreement: bool = False
    goal_measure: str = ""
    realtime: bool = False
    concurrent_actions: bool = False
    dialogue: DialogueSpec | None = None
    turn_timer: bool = False
    reasoning_categories: tuple[str, ...] = ()
    information_sampling: bool = False
    has_evaluation: bool = False
    composed_actions: bool = False

    @property
    def samples_information_sets(self) -> bool:
        """Whether ``State.sample_information_state`` works for this game: declared, or perfect information."""
        return self.information_sampling or self.perfect_information
