"""Writes: the one place where matches are created, actions applied and messages posted.

Every action — from a browser, an agent task or the CLI — goes through
``submit_action``: inside one transaction it locks the match row, checks the
expected version, the seat, the turn and legality (the engine does the last
two), saves the new state and appends an Event. Any rejection raises
``ActionRejected`` and leaves the match and its log untouched.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from gameplay import capabilities
from gameplay.capabilities import move_list
from gameplay.capabilities.live import with_live_options
from gameplay.engines.api import EngineError, IllegalActionError
from gameplay.engines.registry import create_game
from gameplay.models import Event, Match, Seat
from gameplay.reads.agent_directory import agent_choices, agent_exists, agent_plays, why_refused
from gameplay.reads.selectors import final_measures, final_teams, state_of
from gameplay.writes.announce import (  # noqa: F401 (NOTIFY_RETRY_DELAYS: part of this module's interface)
    NOTIFY_RETRY_DELAYS,
    announce_finished,
    notify_match_changed,
    schedule_agent_turns,
)

# Chat lines have a module of their own; callers keep reaching them here (re-exported).
from gameplay.writes.chat_posting import post_message  # noqa: F401
from gameplay.writes.committed import CommittedAction
from gameplay.writes.match_log import ServiceError, append_event, locked_match
from gameplay.writes.text_input import TextRejected, clean_text


class ActionRejected(ServiceError):
    pass


@dataclass(frozen=True)
class SeatController:
    """Who plays a seat when creating a match: a human (by link) or a registered agent."""

    kind: str  # "human" or "agent"
    agent_name: str = ""
    display_name: str = ""


def create_match(
    game_id: str,
    controllers: Sequence[SeatController],
    *,
    seed: int,
    options: Mapping[str, Any] | None = None,
    host_seat: int | None = 0,
    schedule_agents: bool = True,
    private: bool = False,
    wait_for_players: bool = False,
) -> Match:
    """Create a match with its seats, and the start event. ``wait_for_players``: nobody
    moves until every person's seat is taken (gameplay.writes.seat_claims), so agents are not scheduled yet either."""
    try:
        game = create_game(game_id, options, num_seats=len(controllers))
        # A bout run live with a person plays with the game's live options (a shorter decision window).
        game = with_live_options(game, [c.kind == Seat.Controller.AGENT for c in controllers])
    except EngineError as err:
        raise ServiceError(str(err)) from None
    for c in controllers:
        if c.kind == Seat.Controller.AGENT and not agent_exists(c.agent_name):
            known = ", ".join(name for name, _ in agent_choices())
            raise ServiceError(f"unknown agent {c.agent_name!r}; known: {known}")
        if c.kind == Seat.Controller.AGENT and not agent_plays(c.agent_name, game_id):
            known = ", ".join(name for name, _ in agent_choices(game_id))
            raise ServiceError(f"agent {c.agent_name!r} does not play {game.spec.name}; agents for it: {known}")
        if c.kind == Seat.Controller.AGENT and (refused := why_refused(c.agent_name, game_id, game.options)):
            raise ServiceError(f"agent {c.agent_name!r} cannot play this match: {refused}")
        if c.kind not in Seat.Controller.values:
            raise ServiceError(f"unknown seat controller {c.kind!r}")
    state = game.new_initial_state(seed)
    now = timezone.now()
    teams = game.teams()
    with transaction.atomic():
        match = Match.objects.create(
            game_id=game_id, options=game.options, seed=seed, state=state.to_json(), turn_started_at=now,
            private=private, wait_for_players=wait_for_players,
        )
        for index, c in enumerate(controllers):
            Seat.objects.create(
                match=match,
                index=index,
                team=teams[index],
                controller=c.kind,
                agent_name=c.agent_name if c.kind == Seat.Controller.AGENT else "",
                display_name=c.display_name or game.seat_name(index),
                is_host=(index == host_seat and c.kind == Seat.Controller.HUMAN),
            )
        Event.objects.create(
            match=match, seq=1, kind=Event.Kind.START, payload={"options": game.options, "seed": seed}, version=0
        )
    if schedule_agents and not wait_for_players:
        schedule_agent_turns(match)
    return match


def submit_action(
    match_id: int,
    seat_index: int,
    action_id: str,
    *,
    expected_version: int,
    text: str | None = None,
    extra: Mapping[str, Any] | None = None,
    schedule_agents: bool = True,
) -> Match:
    """Apply one action for one seat, or raise ActionRejected and change nothing; the committed match."""
    return apply_action(
        match_id,
        seat_index,
        action_id,
        expected_version=expected_version,
        text=text,
        extra=extra,
        schedule_agents=schedule_agents,
    ).match


@dataclass(frozen=True)
class Applied:
    match: Match  # as committed
    change: CommittedAction  # what the match's sockets were sent to draw it with (gameplay.writes.committed)


def apply_action(
    match_id: int,
    seat_index: int,
    action_id: str,
    *,
    expected_version: int,
    text: str | None = None,
    extra: Mapping[str, Any] | None = None,
    schedule_agents: bool = True,
    timeout: bool = False,
) -> Applied:
    """``submit_action``, returning the committed change too (a socket draws the mover's view from it).

    ``timeout``: the action is the seat's timeout action (``apply_timeouts``): refused unless, under the lock and by
    the server's clock, the seat's time for its current decision has run out, and only at exactly
    ``expected_version`` (never as a concurrent action), so a move that lands first wins.

    What a declared capability adds (a concurrent action, a timeout, a draw offer declined, a judge asked) is its
    module's hooks (gameplay.capabilities), run here in a fixed order."""
    text = _clean_action_input(action_id, text)
    with transaction.atomic():
        match = locked_match(match_id)
        state = _playable_state(match)
        act = capabilities.ActionContext(match, state, seat_index, action_id, expected_version, timeout=timeout,
                                         turn_started_before=match.turn_started_at)
        hooks = capabilities.engaged(act)
        if act.stale and not hooks.admit_stale_view(act):
            raise ActionRejected(capabilities.out_of_date(act))
        refusal = hooks.refusal(act)
        if refusal:
            raise ActionRejected(refusal)
        labels = _labels_before(state, seat_index, action_id, text)
        act.deciding = set(state.current_seats()) - {seat_index}
        try:
            state.apply_action(seat_index, action_id, text)
        except IllegalActionError as err:
            raise ActionRejected(str(err)) from None
        now = timezone.now()
        think_ms = _elapsed_ms(match.turn_started_at, now)
        match.version += 1
        match.state = state.to_json()
        match.turn_started_at = now
        act.payload = _action_payload(state.log[-1], labels)
        hooks.after_action(act)
        payload = {**act.payload, **(extra or {})}
        action_event = append_event(match, Event.Kind.ACTION, seat_index, payload, think_ms)
        last_event = _finish(match, state, now) if state.is_terminal() else action_event
        match.save()
        hooks.after_save(act)
        recent = move_list.rows_for(state.game, match.pk)  # the sockets draw the list from the message
    change = CommittedAction.of(match, action_event.seq, last_event.seq, seat_index, payload, recent)
    notify_match_changed(match, seq=last_event.seq, change=change if hooks.sends_committed_action(act) else None)
    if schedule_agents:
        schedule_agent_turns(match, state)
    return Applied(match, change)


def apply_verdict(
    match_id: int,
    verdict: str,
    source: str,
    *,
    expected_version: int,
    extra: Mapping[str, Any] | None = None,
) -> Match:
    """Apply a judge's verdict to a match awaiting one (``State.awaiting_verdict``, a judged dialogue game), or raise
    ActionRejected and change nothing: the match is over, the version is not ``expected_version`` (another judge task
    got there first), no verdict is awaited or the engine refuses this one. ``source`` names who decided: a judge
    model's configuration or "rule" (``State.fallback_verdict``). Logged as an action event of the judge's pseudo
    seat (the engine's log record, so replays reproduce it); the match then ends like a final move."""
    with transaction.atomic():
        match = locked_match(match_id)
        if match.status != Match.Status.ACTIVE:
            raise ActionRejected("the match is over")
        if expected_version != match.version:
            raise ActionRejected(f"the match moved on (version {match.version}, not {expected_version})")
        state = state_of(match)
        if not state.awaiting_verdict():
            raise ActionRejected("no verdict is awaited in this match")
        try:
            state.apply_verdict(verdict, source)
        except EngineError as err:
            raise ActionRejected(str(err)) from None
        record = state.log[-1]
        now = timezone.now()
        match.version += 1
        match.state = state.to_json()
        match.turn_started_at = now
        label = f"The judge decided: {verdict}" + (
            " (by the game's rule)" if record.text == "rule" else f" (judge: {record.text})"
        )
        payload = {"action_id": record.action_id, "label": label, "labels": [label] * state.game.num_seats,
                   "text": record.text, "judge": record.text}
        payload.update(extra or {})
        action_event = append_event(match, Event.Kind.ACTION, record.seat, payload, None)
        last_event = _finish(match, state, now) if state.is_terminal() else action_event
        match.save()
        recent = move_list.rows_for(state.game, match.pk)  # the sockets draw the list from the message
    change = CommittedAction.of(match, action_event.seq, last_event.seq, record.seat, payload, recent)
    notify_match_changed(match, seq=last_event.seq, change=change)
    return match


def submit_move_text(match_id: int, seat_index: int, text: Any, *, expected_version: int) -> Match:
    """Apply a move typed in the game's own notation (e.g. a UHP move string for Hive).

    Generic: a game whose spec declares ``typed_moves`` maps the text to its canonical action id with
    ``State.parse_move``, which then goes through ``submit_action`` like a click. Raises ActionRejected otherwise.
    """
    return apply_move_text(match_id, seat_index, text, expected_version=expected_version).match


def apply_move_text(
    match_id: int, seat_index: int, text: Any, *, expected_version: int, schedule_agents: bool = True
) -> Applied:
    """``submit_move_text``, returning the committed change too (see ``apply_action``)."""
    try:
        text = clean_text(text, max_length=200, what="the move")
    except TextRejected as err:
        raise ActionRejected(str(err)) from None
    if not text:
        raise ActionRejected("type a move first")
    try:
        match = Match.objects.get(pk=match_id)
    except Match.DoesNotExist:
        raise ActionRejected("no such match") from None
    state = state_of(match)
    if not state.game.spec.typed_moves:
        raise ActionRejected("this game does not accept typed moves")
    try:
        action_id = state.parse_move(text)
    except EngineError as err:
        raise ActionRejected(f"{text!r} is not a valid move ({err})") from None
    if not isinstance(action_id, str) or not action_id:
        raise ActionRejected(f"{text!r} is not a valid move")
    return apply_action(
        match_id, seat_index, action_id, expected_version=expected_version, schedule_agents=schedule_agents
    )


def mark_joined(seat: Seat) -> None:
    if seat.joined_at is None:
        Seat.objects.filter(pk=seat.pk, joined_at__isnull=True).update(joined_at=timezone.now())


# --- helpers -------------------------------------------------------------------


def _finish(match: Match, state, now) -> Event:
    scores = state.scores()
    match.status = Match.Status.FINISHED
    match.scores = scores
    match.winner = state.winner()
    match.finished_at = now
    match.final_measures = final_measures(state)
    match.final_teams = final_teams(state)
    end = append_event(match, Event.Kind.END, None, {"scores": scores, "winner": match.winner}, None)
    transaction.on_commit(partial(announce_finished, match.pk, match.game_id))
    return end


def _clean_action_input(action_id: Any, text: str | None) -> str | None:
    """Refuse an action id no engine may receive; the free text cleaned of what no engine may receive (the rest is
    the engine's to validate, and to strip or not)."""
    if not isinstance(action_id, str) or not action_id or len(action_id) > 200:
        raise ActionRejected("missing or malformed action id")
    try:
        clean_text(action_id, max_length=200, strip=False, what="the action id")
        if text is not None:
            text = clean_text(text, max_length=settings.MAX_CHAT_LENGTH, multiline=True, strip=False, what="text")
    except TextRejected as err:
        raise ActionRejected(str(err)) from None
    return text


def _playable_state(match: Match):
    """The locked match's state, if anyone may move in it now."""
    if match.status != Match.Status.ACTIVE:
        raise ActionRejected("the match is over")
    if match.wait_for_players:
        raise ActionRejected("the other players have not joined yet: nobody moves until everyone is here")
    return state_of(match)


def _action_payload(record, labels) -> dict[str, Any]:
    """The action event's payload: "label" is the public wording (spectators, replays), "labels" how the action
    reads to each seat."""
    payload = {"action_id": record.action_id, "label": labels.public, "labels": list(labels.by_seat)}
    if record.text is not None:
        payload["text"] = record.text
    return payload


def _labels_before(state, seat: int, action_id: str, text: str | None):
    """How the action reads to each seat and to the public (``State.action_labels``), read before applying it
    (labels describe the state they act on). None when the seat cannot act: the engine will reject the action."""
    if state.is_terminal() or seat not in state.current_seats():
        return None
    return state.action_labels(seat, action_id, text)


def _elapsed_ms(start, end) -> int | None:
    if start is None:
        return None
    return max(0, int((end - start).total_seconds() * 1000))
