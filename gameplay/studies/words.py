"""messages.csv: every word a person or agent wrote in a study's matches (a read for researchers; no writes).

Two kinds of event carry words: chat lines (``Event.Kind.MESSAGE``; a team chat's line keeps its readers as
``payload["audience"]``) and free-text actions, the moves a seat makes by writing (a Codenames clue, a Who is Spy
description, a Fruit Trading offer's message, a Debate argument): action events whose payload carries the text the
engine accepted (``services`` stores ``ActionRecord.text`` as ``payload["text"]`` only for a text action). A judge's
verdict is logged as an action of a pseudo seat one past the players whose text names who decided; it is nobody's
words and is left out by being no seat of the match.

Role and team come from what the engine declares for a seat, never from its id or its sentences: the seat's name
(``Game.seat_name``, e.g. "Player 3 (Red Operative)" in Codenames) and its team as the teams stand at the end
(``State.result_teams``, named by ``Game.team_name``), which reveals camps that were hidden during play. Exports are
for staff only (like a replay's ``?seat=N``), so what was hidden from the other seats during play may be shown.
"""

from __future__ import annotations

from gameplay.engines.api import State
from gameplay.models import Event
from gameplay.studies import measures
from gameplay.studies.models import Study

CHAT, TEAM_CHAT, ACTION = "chat", "team_chat", "action"


def free_text(event: Event, seats) -> bool:
    """Whether ``event`` is a free-text action of one of ``seats`` (the match's seat indexes)."""
    return (
        event.kind == Event.Kind.ACTION
        and event.seat in seats
        and isinstance(event.payload.get("text"), str)
    )


def row_kind(event: Event, seats) -> str:
    """chat, team_chat or action for an event with words in it; "" for any other event."""
    if event.kind == Event.Kind.MESSAGE:
        return TEAM_CHAT if event.payload.get("audience") else CHAT
    return ACTION if free_text(event, seats) else ""


def team_names(state: State) -> dict[int, str]:
    """Seat -> its team's name as the teams stand at the end; {} when there are no teams to tell apart (every seat
    its own team, or all on one)."""
    teams = [int(t) for t in state.result_teams()]
    if len(set(teams)) in (1, len(teams)):
        return {}
    return {seat: state.game.team_name(team) for seat, team in enumerate(teams)}


def action_label(event: Event) -> str:
    """How the action read to the seat that took it (the engine's label as logged), else its public label."""
    labels = event.payload.get("labels") or ()
    if isinstance(event.seat, int) and 0 <= event.seat < len(labels):
        return str(labels[event.seat])
    return str(event.payload.get("label", ""))


def message_rows(study: Study) -> list[dict]:
    """One row per chat line and per free-text action of the study's matches (a shared match is listed once), in
    the order of participant, round and the match's log."""
    rounds = measures.played_rounds(study)
    owners = {(r.record.match_id, r.record.seat_index): r for r in rounds}
    ordered, seen = [], set()
    for r in rounds:
        if r.record.match_id in seen:
            continue
        seen.add(r.record.match_id)
        game = r.state.game
        teams = team_names(r.state)
        taken: dict[int, str] = {}  # seat -> the agent that took it over from its person (a "seat" event)
        turn = 0
        for event in r.events:
            if event.kind == Event.Kind.SEAT and event.payload.get("agent"):
                taken[event.seat] = str(event.payload["agent"])
            kind = row_kind(event, r.seats)
            if kind:
                owner = owners.get((event.match_id, event.seat)) or r
                row = _row(study, r, owner, event, kind, turn, taken)
                row.update(seat_name=game.seat_name(event.seat), team=teams.get(event.seat, ""))
                ordered.append(((owner.record.participant_id, owner.record.round_index, event.seq), row))
            if event.kind == Event.Kind.ACTION:
                turn += 1
    return [row for _, row in sorted(ordered, key=lambda pair: pair[0])]


def _row(study: Study, r, owner, event: Event, kind: str, turn: int, taken: dict[int, str]) -> dict:
    """The row of one event of round ``r``'s match; ``owner`` is the participant-round it is listed under (the
    writer's own, or ``r``'s for a seat no participant of the study holds)."""
    seat = r.seats.get(event.seat)
    if event.seat in taken:  # written after an agent took the person's seat over
        sender = taken[event.seat]
    elif kind == ACTION and event.payload.get("agent"):  # an agent's move carries the agent's name
        sender = str(event.payload["agent"])
    elif owner.record.seat_index == event.seat and owner.record.match_id == event.match_id:
        sender = "participant"
    else:
        sender = seat.agent_name if seat is not None and seat.is_agent else "partner"
    text = event.payload.get("text", "")
    return {
        "study": study.slug,
        "participant": measures.participant_code(owner.record.participant_id),
        "condition": owner.record.participant.condition.key,
        "round": owner.record.round_index + 1,
        "match_id": event.match_id,
        "seat": event.seat,
        "sender": sender,
        "kind": kind,
        "action": event.payload.get("action_id", "") if kind == ACTION else "",
        "action_label": action_label(event) if kind == ACTION else "",
        "length": len(text),
        "text": text,
        "sent_at": measures.iso(event.created_at),
        "turn": turn,
        "audience": " ".join(str(s) for s in event.payload.get("audience") or ()),
    }
