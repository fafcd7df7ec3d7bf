"""The model transcripts of a match: the JSON Lines download and the panel of one replay step.

They live with the agents, not in the match layer: gameplay's replay page only links to them by URL name
(and loads the panel with htmx), so gameplay imports nothing from this app. Who may read them follows the
match (``gameplay.web.access.can_view_match``), and opens only once nothing is left to play, since prompts carry a
seat's private observation: a public match's transcripts open when it has ended and, in a game played in rounds, when
the last round has (the rounds may share what the agents saw: the walls of the Gnomes maze). A private match's (a
study round's) are the research team's: staff only, never its participants.
"""

from __future__ import annotations

from django.http import Http404, HttpResponse, HttpResponseForbidden, StreamingHttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from agents_app import selectors
from gameplay.models import Event, Match
from gameplay.reads.selectors import round_chain_over
from gameplay.web.access import can_view_match, is_staff


def _readable_match(request, match_id: int) -> Match | HttpResponse:
    """The match if this browser may read its transcripts now, else the response refusing it."""
    match = get_object_or_404(Match, pk=match_id)
    staff = is_staff(request)
    if not can_view_match(request, match) or (match.private and not staff):
        raise Http404("No such match.")  # a private match is not revealed to outsiders, nor its agents' prompts
    if match.status != Match.Status.FINISHED:
        # Like the replay: prompts carry a seat's private observation, so they open only after the end.
        return HttpResponseForbidden("The transcripts open when the match has ended.")
    if not staff and not round_chain_over(match):
        return HttpResponseForbidden("The transcripts open when the last round of this game has ended.")
    return match


@require_GET
def match_jsonl(request, match_id: int):
    """Every model call of a finished match as JSON Lines, for analysis outside the site."""
    match = _readable_match(request, match_id)
    if isinstance(match, HttpResponse):
        return match
    response = StreamingHttpResponse(selectors.transcript_lines(match), content_type="application/x-ndjson")
    response["Content-Disposition"] = f'attachment; filename="match-{match.pk}-transcripts.jsonl"'
    return response


@require_GET
def event_panel(request, match_id: int, seq: int):
    """The model calls behind one event of a finished match (an HTML fragment; empty when there are none)."""
    match = _readable_match(request, match_id)
    if isinstance(match, HttpResponse):
        return match
    event = get_object_or_404(Event, match=match, seq=seq)
    transcript = selectors.event_transcript(event.pk)
    return render(request, "transcripts/event_panel.html", {"match": match, "event": event, "transcript": transcript})
