"""Participant pages of a study. Thin: read through selectors, write through services, render templates.

Access rule: a participant's URL carries their token, and this browser's session remembers which participant
it holds per study. A token bound to this session is served; a fresh session opening a participant URL binds
it (the token is that participant's secret); a session that already holds ANOTHER participant of the same
study gets 403, so one participant cannot open another's rounds from the same browser. A PROLIFIC_PID in the
study link never resumes anyone: a PID seen again in a browser that does not hold its participant gets a page
saying it has already taken part.

GET pages only read (the session lives in a signed cookie, so binding a browser writes no row). Everything
that changes the database is a POST: consent, finishing the instructions (which creates round 1 or joins the
waiting room), each try at the comprehension check, Continue, "Start round", the waiting room's poll, the
survey, and the pages' heartbeat, which records presence (last_seen_at) for dropout and partner-gone detection.
"""

from __future__ import annotations

import logging
from functools import wraps

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from gameplay.reads import selectors as match_selectors
from gameplay.studies import selectors, services
from gameplay.studies.forms import ComprehensionForm, SurveyForm, entry_params
from gameplay.studies.models import Participant, Study
from gameplay.web.rate_limits import limited_per_client
from gameplay.web.rendering import view_context
from gameplay.writes import seat_claims
from gameplay.writes.agent_wait import agent_wait
from gameplay.writes.services import ServiceError

logger = logging.getLogger(__name__)

Step = Participant.Step

# Session key: {str(study id): participant token} for every study this browser takes part in.
SESSION_KEY = "study_participants"
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
    participant = services.enter_study(study, _held(request))
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
    participant = services.enter_study(study, _held(request))
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
    _bind(request, participant)
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
        held = _held(request).get(study.pk)
        if held != participant.token:
            mine = selectors.participant_by_token(study, held) if held else None
            if mine is not None:
                context = {"study": study, "mine_url": step_url(mine)}
                return render(request, "studies/forbidden.html", context, status=403)
            _bind(request, participant)  # a fresh browser (or one whose participant no longer exists)
        if request.method == "POST":
            services.touch(participant)
        return view(request, participant, **kwargs)

    return wrapper


@participant_page
def resume(request, participant: Participant):
    return redirect(step_url(participant))


@participant_page
@require_http_methods(["GET", "POST"])
def instructions(request, participant: Participant):
    if participant.step != Step.INSTRUCTIONS:
        return _to_current_step(request, participant)
    if request.method == "POST":
        return redirect(step_url(services.finish_instructions(participant)))
    context = {
        **_page_context(participant),
        **_pairing_rule(participant.study),
        "rounds": selectors.round_count(participant.study),
        "human_partner": participant.condition.needs_partner,
        "partner_summary": participant.condition.partner_summary,
        "comprehension": bool(participant.study.comprehension_items),
    }
    return render(request, "studies/instructions.html", context)


@participant_page
@require_http_methods(["GET", "POST"])
def comprehension(request, participant: Participant):
    """The comprehension check after the instructions, graded on the server. Each try is a POST that redirects
    (a reload never sends a try again); after a wrong try the page shows the last try's wrong questions marked and
    cleared, the right ones kept, and how many tries are left."""
    if participant.step != Step.COMPREHENSION:
        return _to_current_step(request, participant)
    study = participant.study
    wrong: list[str] = []
    if request.method == "POST":
        form = ComprehensionForm(study.comprehension_items, request.POST)
        if form.is_valid():
            participant, _ = services.submit_comprehension(participant, form.cleaned_data)
            return redirect(step_url(participant))
    else:
        last = selectors.last_comprehension_try(participant)
        wrong = [key for key, (_, correct) in last.items() if not correct]
        kept = {key: choice for key, (choice, correct) in last.items() if correct}
        form = ComprehensionForm(study.comprehension_items, initial=kept)
    context = {
        **_page_context(participant),
        "form": form,
        "wrong": wrong,
        "tries_left": study.comprehension_max_attempts - participant.comprehension_attempts,
    }
    return render(request, "studies/comprehension.html", context)


@participant_page
@require_GET
def round_page(request, participant: Participant, n: int):
    if not _at_round(participant, n):
        return _to_current_step(request, participant)
    current = selectors.participant_round(participant, n - 1)
    if current is None:
        if participant.condition.needs_partner:
            return redirect(_url("study:wait", participant, n=n))
        # Normally created by the POST that led here; if that failed, the participant starts it with a POST.
        context = {**_page_context(participant), "number": n, "total": selectors.round_count(participant.study),
                   "start_url": _url("study:round_start", participant, n=n)}
        return render(request, "studies/round_start.html", context)
    seat = selectors.seat_of(current)
    view = match_selectors.seat_view(current.match, seat)
    context = {
        **view_context(view),
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
    if _at_round(participant, n):
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
    current = selectors.participant_round(participant, n - 1) if _at_round(participant, n) else None
    if current is None:
        return _to_current_step(request, participant)
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
@require_GET
def wait(request, participant: Participant, n: int):
    if not _at_round(participant, n) or not participant.condition.needs_partner:
        return _to_current_step(request, participant)
    if selectors.participant_round(participant, n - 1) is not None:
        return _to_current_step(request, participant)
    return render(request, "studies/wait.html", _wait_context(participant, n))


@participant_page
@require_POST
def wait_status(request, participant: Participant, n: int):
    """Posted every 2 s by the waiting page (it pairs people, so it is a POST): HX-Redirect to the round once
    the round has its participants (or timed out); otherwise the refreshed countdown."""
    if not _at_round(participant, n) or not participant.condition.needs_partner:
        return _to_current_step(request, participant)
    if services.pair_or_wait(participant) is None:
        participant.refresh_from_db(fields=["step"])
        if participant.step == Step.ROUNDS:
            if not request.headers.get("HX-Request"):  # the no-script "Check again" button: back to the page
                return redirect(_url("study:wait", participant, n=n))
            return render(request, "studies/_wait_status.html", _wait_context(participant, n))
    return _to_current_step(request, participant)


@participant_page
@require_POST
def heartbeat(request, participant: Participant):
    """Presence while a participant page is open (the decorator records it); htmx posts every 25 s."""
    return HttpResponse(status=204)


@participant_page
@require_http_methods(["GET", "POST"])
def survey(request, participant: Participant):
    if participant.step != Step.SURVEY:
        return _to_current_step(request, participant)
    study = participant.study
    form = SurveyForm(study.likert_items, study.likert_scale, request.POST or None, questions=study.questions or [])
    if request.method == "POST" and form.is_valid():
        try:
            participant = services.submit_survey(participant, form.cleaned_data)
        except ServiceError as err:
            form.add_error(None, str(err))
        else:
            return redirect(step_url(participant))
    context = {**_page_context(participant), "form": form, "scale": study.likert_scale}
    return render(request, "studies/survey.html", context)


@participant_page
@require_GET
def complete(request, participant: Participant):
    if participant.step != Step.COMPLETE:
        return _to_current_step(request, participant)
    return render(request, "studies/complete.html", {"study": participant.study})


@participant_page
@require_GET
def ended(request, participant: Participant):
    if participant.step != Step.ENDED:
        return _to_current_step(request, participant)
    return render(request, "studies/ended.html", {"study": participant.study})


@participant_page
@require_GET
def screened(request, participant: Participant):
    """The end for a participant screened out by the comprehension check: the study's message (and code)."""
    if participant.step != Step.SCREENED:
        return _to_current_step(request, participant)
    return render(request, "studies/screened.html", {"study": participant.study})


# --- helpers -------------------------------------------------------------------------------------------------


def step_url(participant: Participant) -> str:
    """Where the participant stands now: every wrong-step request is sent here."""
    step = participant.step
    if step == Step.ROUNDS:
        n = participant.round_index + 1
        waiting = participant.condition.needs_partner and (
            selectors.participant_round(participant, participant.round_index) is None
        )
        return _url("study:wait" if waiting else "study:round", participant, n=n)
    name = {
        Step.COMPREHENSION: "study:comprehension",
        Step.SURVEY: "study:survey",
        Step.COMPLETE: "study:complete",
        Step.ENDED: "study:ended",
        Step.SCREENED: "study:screened",
    }.get(step, "study:instructions")  # CONSENT is never stored (participants exist from consent on)
    return _url(name, participant)


def _url(name: str, participant: Participant, **kwargs) -> str:
    return reverse(name, kwargs={"slug": participant.study.slug, "token": participant.token, **kwargs})


def _to_current_step(request, participant: Participant) -> HttpResponse:
    url = step_url(participant)
    if request.headers.get("HX-Request"):
        response = HttpResponse(status=204)
        response["HX-Redirect"] = url  # an htmx poll: make the whole page follow
        return response
    return redirect(url)


def _at_round(participant: Participant, n: int) -> bool:
    return participant.step == Step.ROUNDS and participant.round_index == n - 1


def _round_context(participant: Participant, current, n: int, result: str | None) -> dict:
    total = selectors.round_count(participant.study)
    return {
        **_next_round_pairing(participant, n),
        **_page_context(participant),
        "number": n,
        "total": total,
        "is_last": n >= total,
        "over": selectors.round_is_over(current),
        "partner_gone": selectors.partner_gone(current),
        "departure": current.departure,
        "fallback_agent": participant.study.pairing_fallback_agent,
        "agent_wait": agent_wait(current.match, current.seat_index),
        "result": result,
        "status_url": _url("study:round_status", participant, n=n),
        "continue_url": _url("study:round_continue", participant, n=n),
    }


def _wait_context(participant: Participant, n: int) -> dict:
    study = participant.study
    ticket = selectors.ticket_of(participant, n - 1)
    waited = selectors.seconds_waiting(ticket) if ticket else 0
    seconds_left = max(0, study.pairing_timeout_s - waited)
    return {
        **_page_context(participant),
        **_pairing_rule(study),
        "number": n,
        "total": selectors.round_count(study),
        "seconds_left": seconds_left,
        "clock_left": f"{seconds_left // 60}:{seconds_left % 60:02d}",
        # The round starts with the fallback agent at the next poll (pair_or_wait): there is nothing to wait for.
        "starting_with_agent": selectors.keeps_fallback_agent(participant, n - 1),
        "status_url": _url("study:wait_status", participant, n=n),
    }


def _pairing_rule(study: Study) -> dict:
    """What the pages say about waiting for a partner: at most how long, and what happens when nobody comes."""
    agent_after_wait = study.pairing_timeout_action == Study.PairingTimeout.AGENT and bool(study.pairing_fallback_agent)
    return {
        "wait_limit": _duration(study.pairing_timeout_s),
        "agent_after_wait": agent_after_wait,
        "agent_for_the_rest": agent_after_wait and study.pairing_after_timeout == Study.AfterTimeout.AGENT,
    }


def _next_round_pairing(participant: Participant, n: int) -> dict:
    """Before the next round (the Continue area of round ``n``): whether Continue leads to the waiting room, or to
    the fallback agent at once because an earlier wait timed out into it and the study keeps it."""
    if not participant.condition.needs_partner or n >= selectors.round_count(participant.study):
        return {"next_waits": False, "next_with_agent": False}
    with_agent = selectors.keeps_fallback_agent(participant, n)
    return {**_pairing_rule(participant.study), "next_waits": not with_agent, "next_with_agent": with_agent}


def _duration(seconds: int) -> str:
    """A wait in words: "45 seconds", "2 minutes", "1 minute 30 seconds"."""
    minutes, rest = divmod(seconds, 60)
    parts = [f"{minutes} minute{'s' if minutes != 1 else ''}"] if minutes else []
    if rest or not minutes:
        parts.append(f"{rest} second{'s' if rest != 1 else ''}")
    return " ".join(parts)


def _page_context(participant: Participant) -> dict:
    """What every participant page needs, including the heartbeat URL the base template posts to."""
    return {
        "study": participant.study,
        "participant": participant,
        "heartbeat_url": _url("study:heartbeat", participant),
    }


def _held(request) -> dict[int, str]:
    """The participant tokens this browser holds, by study id."""
    raw = request.session.get(SESSION_KEY) or {}
    return {int(k): v for k, v in raw.items() if str(k).isdigit() and isinstance(v, str)}


def _remembered(request, key: str, study: Study) -> bool:
    return study.pk in (request.session.get(key) or [])


def _remember(request, key: str, study: Study) -> None:
    ids = list(request.session.get(key) or [])
    if study.pk not in ids:
        request.session[key] = [*ids, study.pk]


def _bind(request, participant: Participant) -> None:
    held = dict(request.session.get(SESSION_KEY) or {})
    if held.get(str(participant.study_id)) != participant.token:
        held[str(participant.study_id)] = participant.token
        request.session[SESSION_KEY] = held
