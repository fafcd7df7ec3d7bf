"""What every participant page of a study shares: who the participant is and whether this browser may open
their pages (``participant_page``), where they stand now (``step_url``), and the context every page needs.

Access rule: a participant's URL carries their token, and this browser's session remembers which participant
it holds per study. A token bound to this session is served; a fresh session opening a participant URL binds
it (the token is that participant's secret); a session that already holds ANOTHER participant of the same
study gets 403, so one participant cannot open another's rounds from the same browser. The session lives in a
signed cookie, so binding a browser writes no row.
"""

from __future__ import annotations

from functools import wraps

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache

from gameplay.studies import selectors, services
from gameplay.studies.models import Participant, Study

Step = Participant.Step

# Session key: {str(study id): participant token} for every study this browser takes part in.
SESSION_KEY = "study_participants"


def participant_page(view):
    """Resolve and authorise the participant of /s/<slug>/p/<token>/…, then call the view; a POST also records
    the visit (last_seen_at), a GET writes nothing."""

    @never_cache
    @wraps(view)
    def wrapper(request, slug: str, token: str, **kwargs):
        study = get_object_or_404(Study, slug=slug)
        participant = selectors.participant_by_token(study, token)
        if participant is None:
            raise Http404("This study link is not valid.")
        held = held_tokens(request).get(study.pk)
        if held != participant.token:
            mine = selectors.participant_by_token(study, held) if held else None
            if mine is not None:
                context = {"study": study, "mine_url": step_url(mine)}
                return render(request, "studies/forbidden.html", context, status=403)
            bind_participant(request, participant)  # a fresh browser (or one whose participant no longer exists)
        if request.method == "POST":
            services.touch(participant)
        return view(request, participant, **kwargs)

    return wrapper


def step_url(participant: Participant) -> str:
    """Where the participant stands now: every wrong-step request is sent here."""
    step = participant.step
    if step == Step.ROUNDS:
        n = participant.round_index + 1
        waiting = participant.condition.needs_partner and (
            selectors.participant_round(participant, participant.round_index) is None
        )
        return participant_url("study:wait" if waiting else "study:round", participant, n=n)
    name = {
        Step.COMPREHENSION: "study:comprehension",
        Step.SURVEY: "study:survey",
        Step.COMPLETE: "study:complete",
        Step.ENDED: "study:ended",
        Step.SCREENED: "study:screened",
    }.get(step, "study:instructions")  # CONSENT is never stored (participants exist from consent on)
    return participant_url(name, participant)


def participant_url(name: str, participant: Participant, **kwargs) -> str:
    return reverse(name, kwargs={"slug": participant.study.slug, "token": participant.token, **kwargs})


def to_current_step(request, participant: Participant) -> HttpResponse:
    url = step_url(participant)
    if request.headers.get("HX-Request"):
        response = HttpResponse(status=204)
        response["HX-Redirect"] = url  # an htmx poll: make the whole page follow
        return response
    return redirect(url)


def at_round(participant: Participant, n: int) -> bool:
    return participant.step == Step.ROUNDS and participant.round_index == n - 1


def page_context(participant: Participant) -> dict:
    """What every participant page needs, including the heartbeat URL the base template posts to."""
    return {
        "study": participant.study,
        "participant": participant,
        "heartbeat_url": participant_url("study:heartbeat", participant),
    }


def held_tokens(request) -> dict[int, str]:
    """The participant tokens this browser holds, by study id."""
    raw = request.session.get(SESSION_KEY) or {}
    return {int(k): v for k, v in raw.items() if str(k).isdigit() and isinstance(v, str)}


def bind_participant(request, participant: Participant) -> None:
    held = dict(request.session.get(SESSION_KEY) or {})
    if held.get(str(participant.study_id)) != participant.token:
        held[str(participant.study_id)] = participant.token
        request.session[SESSION_KEY] = held
