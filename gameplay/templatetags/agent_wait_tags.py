"""{% agent_wait_panel view %}: who a seat is waiting for, in its status region (seat_view.html).

A person waiting for an agent sees "The agent is thinking…" and, after AGENT_WAY_OUT_SECONDS, a way out; a match
ended without a result says so (and why) instead of waiting forever.
"""

from django import template

from gameplay.models import Event, Match
from gameplay.writes.agent_wait import agent_wait

register = template.Library()


@register.inclusion_tag("gameplay/partials/agent_wait.html")
def agent_wait_panel(view) -> dict:
    """Read-only, for the page and the websocket fragments alike; no way out for spectators and agents' seats."""
    seat, match = view.seat, view.match
    # A study round (a private match) has its own "agent is thinking" and way out beside the board, which end the
    # round and lead on in the study (templates/studies/_round_continue.html): the status says only whom it waits for.
    person = seat is not None and not seat.is_agent and not match.private
    wait = agent_wait(match, seat.index, seats=view.seats) if person else None
    aborted = None
    if match.status == Match.Status.ABORTED:
        end = match.events.filter(kind=Event.Kind.END).order_by("-seq").values_list("payload", flat=True).first()
        aborted = (end or {}).get("aborted") or "no reason recorded"
    return {"wait": wait, "seat": seat, "aborted": aborted, "to_move_label": view.to_move_label, "match_id": match.pk,
            "private": match.private}
