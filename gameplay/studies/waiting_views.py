"""The waiting room's pages (a condition with several participant seats), and what the other participant pages
say about waiting: at most how long, and what happens when nobody comes.

The waiting page only reads; its poll is a POST because it pairs people (``pairing.pair_or_wait``).
"""

from __future__ import annotations

from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from gameplay.studies import pairing, selectors
from gameplay.studies.models import Participant, Study
from gameplay.studies.participant_pages import (
    at_round,
    page_context,
    participant_page,
    participant_url,
    to_current_step,
)

Step = Participant.Step


@participant_page
@require_GET
def wait(request, participant: Participant, n: int):
    if not at_round(participant, n) or not participant.condition.needs_partner:
        return to_current_step(request, participant)
    if selectors.participant_round(participant, n - 1) is not None:
        return to_current_step(request, participant)
    return render(request, "studies/wait.html", _wait_context(participant, n))


@participant_page
@require_POST
def wait_status(request, participant: Participant, n: int):
    """Posted every 2 s by the waiting page (it pairs people, so it is a POST): HX-Redirect to the round once
    the round has its participants (or timed out); otherwise the refreshed countdown."""
    if not at_round(participant, n) or not participant.condition.needs_partner:
        return to_current_step(request, participant)
    if pairing.pair_or_wait(participant) is None:
        participant.refresh_from_db(fields=["step"])
        if participant.step == Step.ROUNDS:
            if not request.headers.get("HX-Request"):  # the no-script "Check again" button: back to the page
                return redirect(participant_url("study:wait", participant, n=n))
            return render(request, "studies/_wait_status.html", _wait_context(participant, n))
    return to_current_step(request, participant)


def _wait_context(participant: Participant, n: int) -> dict:
    study = participant.study
    ticket = selectors.ticket_of(participant, n - 1)
    waited = selectors.seconds_waiting(ticket) if ticket else 0
    seconds_left = max(0, study.pairing_timeout_s - waited)
    return {
        **page_context(participant),
        **pairing_rule(study),
        "number": n,
        "total": selectors.round_count(study),
        "seconds_left": seconds_left,
        "clock_left": f"{seconds_left // 60}:{seconds_left % 60:02d}",
        # The round starts with the fallback agent at the next poll (pair_or_wait): there is nothing to wait for.
        "starting_with_agent": selectors.keeps_fallback_agent(participant, n - 1),
        "status_url": participant_url("study:wait_status", participant, n=n),
    }


def pairing_rule(study: Study) -> dict:
    """What the pages say about waiting for a partner: at most how long, and what happens when nobody comes."""
    agent_after_wait = study.pairing_timeout_action == Study.PairingTimeout.AGENT and bool(study.pairing_fallback_agent)
    return {
        "wait_limit": _duration(study.pairing_timeout_s),
        "agent_after_wait": agent_after_wait,
        "agent_for_the_rest": agent_after_wait and study.pairing_after_timeout == Study.AfterTimeout.AGENT,
    }


def next_round_pairing(participant: Participant, n: int) -> dict:
    """Before the next round (the Continue area of round ``n``): whether Continue leads to the waiting room, or to
    the fallback agent at once because an earlier wait timed out into it and the study keeps it."""
    if not participant.condition.needs_partner or n >= selectors.round_count(participant.study):
        return {"next_waits": False, "next_with_agent": False}
    with_agent = selectors.keeps_fallback_agent(participant, n)
    return {**pairing_rule(participant.study), "next_waits": not with_agent, "next_with_agent": with_agent}


def _duration(seconds: int) -> str:
    """A wait in words: "45 seconds", "2 minutes", "1 minute 30 seconds"."""
    minutes, rest = divmod(seconds, 60)
    parts = [f"{minutes} minute{'s' if minutes != 1 else ''}"] if minutes else []
    if rest or not minutes:
        parts.append(f"{rest} second{'s' if rest != 1 else ''}")
    return " ".join(parts)
