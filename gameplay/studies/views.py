"""Participant pages of a study: entry, consent and decline, the instructions, the rounds and the ends of the
journey. Thin: read through selectors, write through services, render templates. The waiting room's pages are in
``waiting_views``, the comprehension check's and the survey's in ``questionnaire_views``; the access rule every
participant page follows, in ``participant_pages``.

A PROLIFIC_PID in the study link never resumes anyone: a PID seen again in a browser that does not hold its
participant gets a page saying it has already taken part.

GET pages only read (the session lives in a signed cookie, so binding a browser writes no row). Everything
that changes the database is a POST: consent, finishing the instructions (which creates round 1 or joins the
waiting room), each try at the comprehension check, Continue, "Start round", the waiting room's poll, the
survey, and the pages' heartbeat, which records presence (last_seen_at) for dropout and partner-gone detection.
"""

from __future__ import annotations

import logging

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from gameplay.reads import selectors as match_selectors
from gameplay.studies import selectors, services
from gameplay.studies.forms import entry_params
from gameplay.studies.models import Participant, Study
from gameplay.studies.participant_pages import (
    at_round,
    bind_participant,
    held_tokens,
    page_context,
    participant_page,
    participant_url,
    step_url,
    to_current_step,
)
from gameplay.studies.waiting_views import next_round_pairing, pairing_rule
from gameplay.web.rate_limits import limited_per_client
from gameplay.web.rendering import view_context
from gameplay.web.rules_pages import panel_context
from gameplay.writes import seat_claims
from gameplay.writes.agent_wait import agent_wait
from gameplay.writes.services import ServiceError

logger = logging.getLogger(__name__)

Step = Participant.Step

# Session keys: ids of the studies this browser has declined, and those whose reused PROLIFIC_PID it has
# reported, so that neither is counted twice for one browser.
DECLINED_KEY = "study_declined"
PID_REUSE_KEY = "study_pid_reused"


# --- entry, consent, decline ---------------------------------------------------------------------------------


@never_cache
@require_GET
def entry(request, slug: str):
    study = get_object_or_404(Study, slug=slug)
    params = entry_params(request.GET)
    participant = services.enter_study(study, held_tokens(request))
    if participant is not None:
        return redirect(step_url(participant))  # resume, never a second start
    if study.read_url_ids and selectors.participant_by_pid(study, params.prolific_pid) is not None:
        return _already_taken_part(request, study, params)  # its form's POST flags the reuse for researchers
    if not study.is_open or selectors.is_full(study):
        return render(request, "studies/closed.html", {"study": study})
    if study.require_pid and not params.prolific_pid:
        return _pid_required(request, study)
    return render(request, "studies/consent.html", {"study": study, "params": params.as_query()})


@never_cache
@require_POST
@limited_per_client(
    "ENROLMENTS_PER_MINUTE_PER_CLIENT",
    "study-consent",
    "Many people answered a study's consent form from your address in the last minute, so yours was not recorded.",
)
def consent(request, slug: str):
    study = get_object_or_404(Study, slug=slug)
    params = entry_params(request.POST)
    participant = services.enter_study(study, held_tokens(request))
    if participant is not None:  # a second consent from the same browser resumes
        services.touch(participant)
        return redirect(step_url(participant))
    if study.read_url_ids and selectors.participant_by_pid(study, params.prolific_pid) is not None:
        return _pid_reused(request, study, params)  # agree, decline or the already-taken-part page's report
    if not study.is_open:  # a consent page left open while the study closed
        return render(request, "studies/closed.html", {"study": study})
    if "decline" in request.POST:
        if not _remembered(request, DECLINED_KEY, study):  # once per browser: a reload or replay adds nothing
            services.decline_consent(study)
            _remember(request, DECLINED_KEY, study)
        return redirect("study:declined", slug=study.slug)
    try:
        participant = services.accept_consent(study, params, condition_key=params.condition or None)
    except services.AlreadyParticipating:  # another browser consented with this id a moment ago
        return _pid_reused(request, study, params)
    except services.PidRequired:
        return _pid_required(request, study)
    except services.StudyClosed:  # closed, or full (StudyFull)
        return render(request, "studies/closed.html", {"study": study})
    bind_participant(request, participant)
    return redirect(step_url(participant))


def _pid_reused(request, study: Study, params) -> HttpResponse:
    """A POST with a PROLIFIC_PID that has taken part from another browser: flag it for researchers (once per
    browser) and say it has taken part."""
    if not _remembered(request, PID_REUSE_KEY, study):
        services.record_pid_reuse(study, params.prolific_pid)
        _remember(request, PID_REUSE_KEY, study)
    return _already_taken_part(request, study, params, reported=True)


def _already_taken_part(request, study: Study, params, reported: bool = False) -> HttpResponse:
    # Says only that the id was used: nothing about that participant, and never their link or token.
    context = {"study": study, "params": params.as_query(), "reported": reported}
    return render(request, "studies/already_taken_part.html", context, status=403)


def _pid_required(request, study: Study) -> HttpResponse:
    return render(request, "studies/pid_required.html", {"study": study}, status=403)


@require_GET
def declined(request, slug: str):
    return render(request, "studies/declined.html", {"study": get_object_or_404(Study, slug=slug)})


# --- participant pages ---------------------------------------------------------------------------------------


@participant_page
def resume(request, participant: Participant):
    return redirect(step_url(participant))


@participant_page
@require_http_methods(["GET", "POST"])
def instructions(request, participant: Participant):
    if participant.step != Step.INSTRUCTIONS:
        return to_current_step(request, participant)
    if request.method == "POST":
        return redirect(step_url(services.finish_instructions(participant)))
    context = {
        **page_context(participant),
        **pairing_rule(participant.study),
        "rounds": selectors.round_count(participant.study),
        "human_partner": participant.condition.needs_partner,
        "partner_summary": participant.condition.partner_summary,
        "comprehension": bool(participant.study.comprehension_items),
    }
    return render(request, "studies/instructions.html", context)


@participant_page
@require_GET
def round_page(request, participant: Participant, n: int):
    if not at_round(participant, n):
        return to_current_step(request, participant)
    current = selectors.participant_round(participant, n - 1)
    if current is None:
        if participant.condition.needs_partner:
            return redirect(participant_url("study:wait", participant, n=n))
        # Normally created by the POST that led here; if that failed, the participant starts it with a POST.
        context = {**page_context(participant), "number": n, "total": selectors.round_count(participant.study),
                   "start_url": participant_url("study:round_start", participant, n=n)}
        return render(request, "studies/round_start.html", context)
    seat = selectors.seat_of(current)
    view = match_selectors.seat_view(current.match, seat)
    context = {
        **view_context(view),
        **panel_context(view.match.game_id),  # the game's rules in brief, as on every match page
        **_round_context(participant, current, n, view.result),
        "ws_path": f"/ws/play/{seat.token}/",
        # The same rule as the match page's chat box: what the round's game says with the round's options.
        "show_chat": match_selectors.game_of(current.match).chat_enabled(),
        "human_partner": current.partner_participant_id is not None,
        "partner_summary": selectors.round_partner_summary(current),
    }
    response = render(request, "studies/round.html", context)
    held = seat_claims.claim_of(seat)
    # The participant's browser (bound by its session) gets the seat's cookie: its socket opens, a copied link not.
    return seat_claims.hand_over(response, held) if held else response


@participant_page
@require_POST
def round_start(request, participant: Participant, n: int):
    if at_round(participant, n):
        try:
            services.start_round(participant)
        except ServiceError as err:
            # The round page offers the form again, now with the reason, and the researcher finds it in the log.
            logger.warning("study %s participant %s: round %s could not start: %s", participant.study_id,
                           participant.pk, n, err)
            messages.error(request, f"The round could not start: {err}. Please try again in a moment; if it keeps "
                                    "failing, contact the researcher.")
        participant.refresh_from_db(fields=["step", "round_index"])
    return redirect(step_url(participant))


@participant_page
@require_GET
def round_status(request, participant: Participant, n: int):
    """The Continue area of the round page, refreshed after every websocket message and once a minute (a read:
    presence is the heartbeat POST's job)."""
    return _continue_area(request, participant, n)


def _continue_area(request, participant: Participant, n: int) -> HttpResponse:
    current = selectors.participant_round(participant, n - 1) if at_round(participant, n) else None
    if current is None:
        return to_current_step(request, participant)
    over = selectors.round_is_over(current)
    result = match_selectors.seat_view(current.match, selectors.seat_of(current)).result if over else None
    # 286 tells htmx to stop the once-a-minute poll: the Continue button is final (and keeps its focus).
    status = 286 if over else 200
    return render(request, "studies/_round_continue.html", _round_context(participant, current, n, result),
                  status=status)


@participant_page
@require_POST
def round_continue(request, participant: Participant, n: int):
    if request.POST.get("partner_left"):
        try:
            services.apply_partner_left(participant, n - 1)
        except ServiceError as err:
            # The partner came back, or the round is over: the Continue area below shows how things stand.
            logger.info("study %s participant %s round %s: partner-left refused: %s", participant.study_id,
                        participant.pk, n, err)
        if request.headers.get("HX-Request"):  # posted by the Continue area itself: redraw it in place
            return _continue_area(request, participant, n)
        return redirect(step_url(participant))
    try:
        if request.POST.get("agent_silent"):
            participant = services.end_round_without_agent(participant, n - 1)
        else:
            participant = services.finish_round(participant, n - 1)
    except ServiceError as err:
        # Not over yet: the round page keeps playing; a refused way out says why in the Continue area.
        if request.POST.get("agent_silent"):
            messages.error(request, str(err))
    return redirect(step_url(participant))


@participant_page
@require_POST
def heartbeat(request, participant: Participant):
    """Presence while a participant page is open (the decorator records it); htmx posts every 25 s."""
    return HttpResponse(status=204)


@participant_page
@require_GET
def complete(request, participant: Participant):
    if participant.step != Step.COMPLETE:
        return to_current_step(request, participant)
    return render(request, "studies/complete.html", {"study": participant.study})


@participant_page
@require_GET
def ended(request, participant: Participant):
    if participant.step != Step.ENDED:
        return to_current_step(request, participant)
    return render(request, "studies/ended.html", {"study": participant.study})


# --- helpers -------------------------------------------------------------------------------------------------


def _round_context(participant: Participant, current, n: int, result: str | None) -> dict:
    total = selectors.round_count(participant.study)
    return {
        **next_round_pairing(participant, n),
        **page_context(participant),
        "number": n,
        "total": total,
        "is_last": n >= total,
        "over": selectors.round_is_over(current),
        "partner_gone": selectors.partner_gone(current),
        "departure": current.departure,
        "fallback_agent": participant.study.pairing_fallback_agent,
        "agent_wait": agent_wait(current.match, current.seat_index),
        "result": result,
        "status_url": participant_url("study:round_status", participant, n=n),
        "continue_url": participant_url("study:round_continue", participant, n=n),
    }


def _remembered(request, key: str, study: Study) -> bool:
    return study.pk in (request.session.get(key) or [])


def _remember(request, key: str, study: Study) -> None:
    ids = list(request.session.get(key) or [])
    if study.pk not in ids:
        request.session[key] = [*ids, study.pk]
