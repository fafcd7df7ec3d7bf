"""Reads: matches, seats, per-seat views and replays. No writes here."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from django.core.paginator import Paginator
from django.db.models import Max

from gameplay import capabilities
from gameplay.capabilities import PageContext, move_list
from gameplay.capabilities.action_words import last_action_text

# Chat lines, draws and rounds are their capabilities' (gameplay.capabilities); callers keep reaching them here.
from gameplay.capabilities.chat import ChatLine, ChatPage, chat_page, readable_by  # noqa: F401
from gameplay.capabilities.draws import draws_open  # noqa: F401
from gameplay.capabilities.move_list import MoveLine
from gameplay.capabilities.rounds import RoundSequence, round_sequence  # noqa: F401
from gameplay.engines.api import Action, Game, Observation, State, TextAction
from gameplay.engines.registry import UnknownGameError, create_game, game_class
from gameplay.engines.seat_view import SeatView as EngineSeatView
from gameplay.models import Event, Match, Seat, SeatClaim
from gameplay.reads.result_lines import result_text
from gameplay.writes.text_input import clean_token
from gameplay.writes.turn_timer import TurnClock


def match_group_name(match_id: int) -> str:
    return f"match-{match_id}"


def seat_by_token(token: str) -> Seat | None:
    """The seat whose secret link token this is, or None; a malformed token (NUL, surrogates, anything that
    secrets.token_urlsafe cannot produce) is not found without asking the database."""
    token = clean_token(token)
    if token is None:
        return None
    return Seat.objects.select_related("match").filter(token=token).first()


def state_of(match: Match) -> State:
    return game_of(match).state_from_json(match.state)


@dataclass(frozen=True)
class TeamRow:
    """One public team of a match as a page shows it: its label and its members' seats and names."""

    label: str
    seats: tuple[int, ...]
    names: tuple[str, ...]

    def others(self, seat: int | None) -> tuple[str, ...]:
        """The members' names but ``seat``'s (a seat's teammates)."""
        return tuple(name for s, name in zip(self.seats, self.names, strict=True) if s != seat)


def public_teams(game: Game, names: dict[int, str]) -> list[TeamRow]:
    """The match's teams as everyone may know them (``Game.teams()``), in order of their first seat; [] when there
    is nothing to show: every seat its own team, or all seats one team (a cooperative game)."""
    teams = game.teams()
    order = list(dict.fromkeys(teams))
    if len(order) in (1, len(teams)):
        return []
    rows = []
    for team in order:
        seats = tuple(i for i, t in enumerate(teams) if t == team)
        rows.append(TeamRow(game.team_name(team), seats, tuple(names.get(i, f"seat {i}") for i in seats)))
    return rows


@dataclass
class SeatView:
    """Everything one seat's page shows, derived only from that seat's observation.

    The chat, rounds, draw, live and deadline fields are their capabilities' (``page_fields`` of
    gameplay.capabilities): a game that does not declare one keeps its defaults here."""

    match: Match
    seat: Seat | None
    observation: Observation
    legal_actions: list[Action]
    text_actions: list[TextAction]
    my_turn: bool
    to_move_label: str
    seats: list[Seat]
    chat: list[ChatLine] = field(default_factory=list)  # at most CHAT_HISTORY_SHOWN, the newest, oldest first
    chat_more: bool = False  # older messages exist than those in ``chat``
    chat_seq: int = 0  # the newest message event ``chat`` accounts for
    last_action: str | None = None
    game_name: str = ""
    result: str | None = None
    game: Game | None = None
    rounds: RoundSequence | None = None
    moves: list[MoveLine] | None = None  # the move list (newest first); None: the game has none (realtime)
    rematch_started: bool = False  # a finished match whose rematch someone started (follow_ups.start_rematch)
    chat_enabled: bool = False  # Game.chat_enabled(): the page shows the chat box only then
    waiting_for: list[str] = field(default_factory=list)  # seats not joined yet, while nobody may move
    can_resign: bool = False  # a person's seat in a running match that is not a study round
    cooperative: bool = False  # one team: resigning is giving up together
    can_abort: bool = False  # ... and the game has hardly begun (may_abort): it can end without a result
    draws: bool = False  # ... and draws by agreement are open here (draws_open)
    draw_mine: bool = False  # this seat has offered a draw that still stands
    draw_offered_by: list[str] = field(default_factory=list)  # the other seats offering a draw to this one
    live: bool = False  # a realtime game on the clock (gameplay.live): the page streams frames and holds inputs
    team_chat: bool = False  # GameSpec.team_chat (and chat on): the box is the seat's team chat
    may_chat: bool = True  # State.may_chat: False leaves the box read-only (a seat that may read but not write)
    teams: list[TeamRow] = field(default_factory=list)  # public teams (Game.teams()), [] without teams to show
    my_team: TeamRow | None = None  # the viewing seat's own team among ``teams``
    deadline: TurnClock | None = None  # a person's time limit for the current decision (GameSpec.turn_timer)
    teammates: tuple[str, ...] = ()  # the names of the other seats of ``my_team``
    seat_view: EngineSeatView | None = None  # the engine's view of this seat: what the board presenter reads


# ``seat_view(last_action=...)`` when the caller does not know the match's last action: read it from the log.
READ_LAST_ACTION = object()


def seat_view(
    match: Match,
    seat: Seat | None,
    *,
    with_chat: bool = True,
    seats: list[Seat] | None = None,
    last_action: dict | None | object = READ_LAST_ACTION,
    recent_actions: list[dict] | None = None,
) -> SeatView:
    """This seat's view (``seat`` None: the public one). ``with_chat=False`` leaves the chat out, for a socket
    that keeps its chat log up to date line by line (``chat_page``). ``seats``: the match's seats when the caller
    has them already (a socket reads them once: they do not change after the match is created). ``last_action``:
    the match's last action event as {"seat", "payload"} (None: there is none) when the caller has it in hand
    (gameplay.writes.committed). ``recent_actions``: the move list's rows when the caller has them (the same).

    The page's core is drawn here; each capability the game declares (chat, a turn timer, draws, rounds, live
    play, a judge) fills its own fields (gameplay.capabilities)."""
    page = _seat_page(match, seat, seats, with_chat)
    state, index, names = page.state, page.index, page.names
    if recent_actions is None:
        recent_actions = move_list.rows_for(state.game, match.pk)
    page = replace(page, recent_actions=recent_actions)
    seen = state.seat_view(index)
    if not page.my_turn:  # a match not under way yet, or over: no controls whatever the engine says
        seen = replace(seen, legal_actions=(), text_actions=())
    last = last_action
    if last_action is READ_LAST_ACTION:
        last = (recent_actions[0] if recent_actions else None) if recent_actions is not None else \
            last_action_event(match.pk)
    fields = dict(
        match=match,
        seat=seat,
        observation=seen.observation,
        legal_actions=list(seen.legal_actions),
        text_actions=list(seen.text_actions),
        seat_view=seen,
        my_turn=page.my_turn,
        to_move_label=", ".join(names.get(s, f"seat {s}") for s in state.current_seats()),
        seats=page.seats,
        last_action=last_action_text(last, names, index),
        game_name=game_class(match.game_id).spec.name,
        result=result_text(match, names, index, state),
        game=state.game,
        waiting_for=page.waiting_for,
        can_resign=page.person,
        cooperative=len(set(state.game.teams())) == 1,
        can_abort=page.person and may_abort(match, state),
        rematch_started=match.status == Match.Status.FINISHED and not match.private
        and Match.objects.filter(rematch_of=match).exists(),
        **_team_fields(page),
    )
    fields.update(capabilities.page_fields(page))
    return SeatView(**fields)


def _seat_page(match: Match, seat: Seat | None, seats: list[Seat] | None, with_chat: bool) -> PageContext:
    """What the page of ``seat`` is drawn from, with the page's rules: who acts now and who is a person here."""
    state = state_of(match)
    index = seat.index if seat is not None else None
    seats = list(match.seats.all()) if seats is None else seats
    names = {s.index: s.display_name for s in seats}
    waiting_for = not_joined(match, names) if match.wait_for_players else []
    # An aborted match's state is not terminal, but nobody moves in it any more.
    playing = match.status == Match.Status.ACTIVE and not waiting_for
    my_turn = playing and index is not None and not state.is_terminal() and index in state.current_seats()
    person = seat is not None and not seat.is_agent and match.status == Match.Status.ACTIVE and not match.private
    return PageContext(match=match, seat=seat, state=state, seats=seats, names=names, waiting_for=waiting_for,
                       my_turn=my_turn, person=person, with_chat=with_chat)


def _team_fields(page: PageContext) -> dict:
    """The public teams, the viewing seat's own and its teammates' names."""
    teams = public_teams(page.game, page.names)
    my_team = next((t for t in teams if page.index in t.seats), None)
    teammates = my_team.others(page.index) if my_team is not None else ()
    return {"teams": teams, "my_team": my_team, "teammates": teammates}


def may_abort(match: Match, state: State) -> bool:
    """Whether the match has hardly begun, so that a person may end it without a result (as on Lichess): still
    waiting for its players, or fewer moves made than it has seats (nobody has had a second turn)."""
    return match.wait_for_players or len(state.log) < state.game.num_seats


def not_joined(match: Match, names: dict[int, str]) -> list[str]:
    """The names of the seats whose invite nobody has accepted yet (a match waiting for its players)."""
    open_claims = SeatClaim.objects.filter(seat__match=match, claimed_at__isnull=True)
    open_seats = open_claims.values_list("seat__index", flat=True)
    return [names.get(i, f"seat {i}") for i in sorted(open_seats)]


def last_action_event(match_id: int) -> dict | None:
    """The match's newest action event as {"seat", "payload"}, None before any."""
    actions = Event.objects.filter(match_id=match_id, kind=Event.Kind.ACTION).order_by("-seq")
    return actions.values("seat", "payload").first()


def last_event_seq(match_id: int) -> int:
    """The newest event's place in the match log (0 before any)."""
    return Event.objects.filter(match_id=match_id).order_by("-seq").values_list("seq", flat=True).first() or 0


def newest_seq_by_kind(match_id: int, *, after_seq: int) -> dict[str, int]:
    """For each kind of event after ``after_seq``, the newest one's seq: what changed since a socket last looked,
    in one query however many events there were."""
    events = Event.objects.filter(match_id=match_id, seq__gt=after_seq).order_by()
    return dict(events.values("kind").annotate(top=Max("seq")).values_list("kind", "top"))


def public_result(match: Match) -> str | None:
    """How a finished match ended, in words anyone may read ("Player 2 won.", a cooperative or dialogue game's own
    words, "The match ended in a draw."), as the match's page words it for a spectator but for the game's reason;
    None before the end."""
    if match.status != Match.Status.FINISHED:
        return None
    names = {s.index: s.display_name for s in match.seats.all()}
    game = game_of(match)
    # Only a game whose result line is its own sentence (a cooperative game's, a dialogue game's: a Debate both sides
    # win is no draw) reads its state: a list of matches need not parse every other state.
    own_words = len(set(game.teams())) == 1 or game.spec.dialogue is not None
    state = game.state_from_json(match.state) if own_words else None
    return result_text(match, names, None, state)


def recent_matches(limit: int = 50, *, include_private: bool = False):
    """The newest matches; private ones (study rounds) only when asked for (staff views)."""
    return listed_matches(include_private=include_private)[:limit]


def listed_matches(*, include_private: bool = False):
    """Every match a list may show, newest first; private ones (study rounds) only when asked for (staff views)."""
    matches = Match.objects.prefetch_related("seats").order_by("-created_at", "-pk")
    if not include_private:
        matches = matches.filter(private=False)
    return matches


MATCHES_PER_PAGE = 50


def matches_page(number, *, include_private: bool = False):
    """One page of ``listed_matches`` (a django Page); a page number out of range or not a number gives the
    nearest page."""
    return Paginator(listed_matches(include_private=include_private), MATCHES_PER_PAGE).get_page(number)


def game_name(game_id: str) -> str:
    """A game's name for people, or its id when no registered game has it (a match of a game since removed)."""
    try:
        return game_class(game_id).spec.name
    except UnknownGameError:
        return game_id


@dataclass(frozen=True)
class ReplayFrame:
    version: int
    event: Event | None
    view: EngineSeatView  # the viewer's seat view at this step (no controls: a replay is not played)

    @property
    def observation(self) -> Observation:
        return self.view.observation


def _replay_view(state: State, viewer: int | None) -> EngineSeatView:
    return replace(state.seat_view(viewer), legal_actions=(), text_actions=(), move_topics=())


def replay_frames(match: Match, viewer: int | None = None) -> list[ReplayFrame]:
    """Step through the event log, rebuilding observations by replaying the engine from the seed: the public
    ones, or seat ``viewer``'s own (hidden information included: for staff, gameplay.web.replay_views.replay)."""
    game = game_of(match)
    state = game.new_initial_state(match.seed)
    frames = [ReplayFrame(0, None, _replay_view(state, viewer))]
    for event in match.events.order_by("seq"):
        if event.kind == Event.Kind.ACTION:
            state.apply_action(event.seat, event.payload["action_id"], event.payload.get("text"))
        elif event.kind == Event.Kind.MESSAGE:
            if game.spec.chat_in_state:
                state.record_message(event.seat, event.payload.get("text", ""))  # chat kept in the state
            if not readable_by(event.payload, viewer):
                continue  # a team's line: no step for a viewer outside its audience (nor for the public replay)
        frames.append(ReplayFrame(event.version, event, _replay_view(state, viewer)))
    return frames


def game_of(match: Match) -> Game:
    """The match's game with its options and seat count (state_of restores the state on top of it)."""
    return create_game(match.game_id, match.options, num_seats=match.state["num_seats"])


def round_chain_over(match: Match) -> bool:
    """Whether no round of the match's chain is left to play: the match has ended and, for a game played in rounds
    (``GameSpec.round_sequence``), so has the chain's latest round, after which the game has no other. Later rounds
    may keep what earlier ones hid (the same maze walls in every Gnomes round), so what an earlier round's seats saw
    stays closed while one is to come."""
    if match.status != Match.Status.FINISHED:
        return False
    latest = match
    for _ in range(100):  # chains are a handful of rounds; the bound only guards against a corrupt loop
        following = Match.objects.filter(previous_round=latest).first()
        if following is None:
            break
        latest = following
    if latest.status != Match.Status.FINISHED:
        return False
    game = game_of(latest)
    return not game.spec.round_sequence or game.next_round_options() is None


def match_by_id(match_id: int) -> Match:
    return Match.objects.get(pk=match_id)


def final_measures(state) -> list[dict] | None:
    """Every seat's declared measures (``State.measures``) of a state, as a finished match keeps them; None for a game
    that declares none."""
    if not state.game.spec.measures:
        return None
    return [state.measures(seat) for seat in range(state.game.num_seats)]


def final_teams(state) -> list[int] | None:
    """The teams of a finished state as a finished match keeps them (``State.result_teams``, camps hidden during play
    revealed), for the ratings; None when every seat is its own team (nothing to keep: the ratings compare seats)."""
    teams = [int(t) for t in state.result_teams()]
    return teams if len(set(teams)) < len(teams) else None


def measures_at_end(match, seat: int = 0) -> dict:
    """A finished match's measures for ``seat``: kept at the end (``Match.final_measures``), or, for a match finished
    before they were kept, rebuilt from its state."""
    if match.final_measures:
        return match.final_measures[seat]
    return state_of(match).measures(seat)
