"""HTTP pages of a match: starting one (rules, the new-match form, an invite), a seat's page with its controls and
observation.json, the match list and a match's public page. Thin: read through selectors, write through services,
render templates. Replays are replay_views.py's, board pictures board_image_views.py's, the lobby
lobby_views.py's.
"""

from __future__ import annotations

import secrets

from django.http import Http404, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from gameplay.engines.registry import UnknownGameError, game_class
from gameplay.models import Seat, SeatClaim
from gameplay.reads import selectors
from gameplay.web.access import is_staff
from gameplay.web.forms import INVITE, YOU, NewMatchForm
from gameplay.web.lobby_views import remember_seat
from gameplay.web.page_lookups import held_seat, viewable_match
from gameplay.web.rate_limits import limited_per_client
from gameplay.web.rendering import view_context
from gameplay.web.rules_pages import RULES_PAGE, panel_context, rules_context, rules_template
from gameplay.writes import absent_players, follow_ups, match_endings, open_seats, seat_claims, services, timeouts


@require_GET
def game_rules(request, game_id: str):
    """How to play a game, for people."""
    try:
        spec = game_class(game_id).spec
    except UnknownGameError:
        raise Http404("No such game") from None
    if not rules_template(game_id):
        raise Http404("This game has no rules page yet.")
    return render(request, rules_template(game_id), rules_context(spec, RULES_PAGE))


@require_http_methods(["GET", "POST"])
@limited_per_client(
    "MATCHES_CREATED_PER_MINUTE_PER_CLIENT",
    "match-create",
    "Many matches were started from your address in the last minute, so this one was not.",
)
def new_match(request, game_id: str):
    try:
        spec = game_class(game_id).spec
    except UnknownGameError:
        raise Http404("No such game") from None
    form = NewMatchForm(spec, request.POST or None)
    if request.method == "POST" and form.is_valid():
        choices = form.controllers()
        controllers = [
            services.SeatController("agent", agent_name=c.split(":", 1)[1])
            if c.startswith("agent:")
            else services.SeatController("human")
            for c in choices
        ]
        host = choices.index(YOU) if YOU in choices else None
        seed = form.cleaned_data["seed"]
        invited = sum(1 for i, c in enumerate(controllers) if c.kind == "human" and i != host)
        try:
            match = services.create_match(
                game_id,
                controllers,
                seed=seed if seed is not None else secrets.randbelow(2**31),
                options=form.options(),
                host_seat=host,
                wait_for_players=invited > 0 and not form.cleaned_data["start_at_once"],
            )
        except services.ServiceError as err:
            form.add_error(None, str(err))
        else:
            claims = seat_claims.create_claims(match, host)
            listed = form.cleaned_data["in_lobby"] and open_seats.list_in_lobby(match)
            if host is not None:
                host_claim = next(c for c in claims if c.seat.index == host)
                if listed:
                    remember_seat(request, match.pk, host_claim.seat.token)
                return seat_claims.hand_over(redirect("play", token=host_claim.seat.token), host_claim)
            return redirect("match_detail", match_id=match.pk)
    return render(
        request,
        "gameplay/new_match.html",
        {"form": form, "spec": spec, "invite": INVITE, "has_rules": bool(rules_template(game_id))},
    )


@require_http_methods(["GET", "POST"])
@limited_per_client(
    "INVITES_TAKEN_PER_MINUTE_PER_CLIENT",
    "invite-take",
    "Many invite links were used from your address in the last minute, so this seat was not taken yet.",
)
def invite(request, token: str):
    """An invite link: GET shows what it offers (and writes nothing); POST takes the seat for this browser."""
    found = seat_claims.invite_by_token(token)
    if found is None:
        raise Http404("This invite link is not valid.")
    seat = found.seat
    if seat_claims.browser_may_use(request, seat) and found.claimed_at is not None:
        return redirect("play", token=seat.token)  # this browser accepted it before
    if request.method == "POST":
        taken = seat_claims.claim(token)
        if taken is not None:
            return seat_claims.hand_over(redirect("play", token=seat.token), taken)
        found.refresh_from_db()
    status = seat_claims.invite_status(found)
    context = {"seat": seat, "match": seat.match, "status": status,
               "game_name": game_class(seat.match.game_id).spec.name}
    return render(request, "gameplay/invite.html", context, status=200 if status == "open" else 410 if
                  status in ("expired", "over") else 403)


def play(request, token: str):
    seat = held_seat(request, token)
    view = selectors.seat_view(seat.match, seat)
    invites = []
    if seat.is_host:
        # Single-use links to the other human seats, until someone accepts each (seat_claims).
        invites = [
            (invite.seat, request.build_absolute_uri(reverse("invite", kwargs={"token": invite.token})))
            for invite in seat_claims.open_invites(seat.match)
        ]
    return render(
        request,
        "gameplay/match.html",
        {
            **view_context(view),
            **panel_context(view.match.game_id),
            "ws_path": f"/ws/play/{token}/",
            "invites": invites,
        },
    )


@csrf_exempt  # the seat token in the URL is the credential; another site cannot know it
@require_POST
def next_round(request, token: str):
    """Start (or join) the next round of a finished round and go to this seat's page in it."""
    seat = held_seat(request, token)
    return _into_following_match(follow_ups.start_next_round, seat, lambda following: seat.index)


@csrf_exempt  # as next_round: the seat token in the URL is the credential
@require_POST
def rematch(request, token: str):
    """Start (or join) the rematch of a finished match and go to this seat's page in it (sides swapped)."""
    seat = held_seat(request, token)
    return _into_following_match(
        follow_ups.start_rematch, seat, lambda following: follow_ups.rematch_seat(seat.index, following.seats.count())
    )


def _into_following_match(start, seat: Seat, index_in):
    """Start or join the match that follows ``seat``'s finished one (``start``: gameplay.writes.follow_ups) and
    redirect to this person's seat in it, ``index_in(following)``. The browser that held the seat holds its seat
    there too: the seat's cookie comes with the redirect."""
    try:
        following = start(seat.match_id)
    except services.ServiceError as err:
        return HttpResponseBadRequest(f"{err}.")
    mine = following.seats.get(index=index_in(following))
    held = SeatClaim.objects.filter(seat=mine).first()
    response = redirect("play", token=mine.token)
    return seat_claims.hand_over(response, held) if held else response


@csrf_exempt  # as next_round: the seat token in the URL is the credential
@require_POST
def turn_timeout(request, token: str):
    """A seat's page saw a turn timer's countdown end (GameSpec.turn_timer): apply the timeout actions that are due
    in its match now rather than at the watchdog's next sweep. The server's clock decides (timeouts.apply_timeouts
    checks every deadline again under the lock), so an early or repeated request changes nothing; the match's
    sockets redraw every page once a timeout is applied. No content either way."""
    seat = held_seat(request, token)
    timeouts.apply_timeouts(seat.match_id)
    return HttpResponse(status=204)


@csrf_exempt  # as next_round: the seat token in the URL is the credential
@require_POST
def agent_way_out(request, token: str):
    """End a match an agent has kept this seat waiting for too long (the panel offers it only then; the
    service checks the time again and refuses, changing nothing, when it is too early or the agent answered)."""
    seat = held_seat(request, token)
    try:
        absent_players.end_match_for_silent_agent(seat.match_id, seat.index)
    except services.ServiceError as err:
        context = {"message": str(err), "back_url": reverse("play", kwargs={"token": token})}
        return render(request, "gameplay/agent_way_out_refused.html", context, status=409)
    return redirect("play", token=token)


@csrf_exempt  # as next_round: the seat token in the URL (and the seat's cookie, if claimed) is the credential
@require_POST
def match_control(request, token: str, control: str):
    """The match page's own controls (gameplay.writes.match_endings): resign (give up, in a cooperative game; with
    ``leave`` go to the lobby afterwards), abort a game that has hardly begun, and a draw offer (``answer``:
    "agree" offers or accepts one, "refuse" declines or withdraws it). A refusal changes nothing and says why."""
    seat = held_seat(request, token)
    if control == "draw":
        answer = request.POST.get("answer")
        if answer not in ("agree", "refuse"):
            return HttpResponseBadRequest("answer must be agree or refuse")
        write = match_endings.agree_to_draw if answer == "agree" else match_endings.refuse_draw
    else:
        write = match_endings.resign if control == "resign" else match_endings.abort
    try:
        write(seat.match_id, seat.index)
    except match_endings.ServiceError as err:
        context = {"message": f"{str(err).capitalize()}: nothing was changed.",
                   "back_url": reverse("play", kwargs={"token": token})}
        return render(request, "gameplay/agent_way_out_refused.html", context, status=409)
    return redirect("lobby") if control == "resign" and request.POST.get("leave") else redirect("play", token=token)


@require_GET
def observation_json(request, token: str):
    """This seat's view for programmatic players: built only from its own observation, like the page."""
    seat = held_seat(request, token)
    view = selectors.seat_view(seat.match, seat)
    response = JsonResponse(
        {
            "version": view.match.version,
            "status": view.match.status,
            "seat": seat.index,
            "my_turn": view.my_turn,
            # The actions this seat has taken: a bot tells from it that its move landed (see studies/bots/player.py).
            "own_moves": view.seat_view.own_moves if view.seat_view is not None else 0,
            # A realtime game on the clock: moves are inputs held for its decision points ("live" frames, as the page).
            "live": view.live,
            "observation": view.observation.data,
            # Empty unless it is this seat's turn, so a bot never acts on a stale or foreign turn.
            "legal_actions": [a.id for a in view.legal_actions] if view.my_turn else [],
            # The open-ended actions (a dialogue game's every move: id + the message it carries), same rule; each
            # with the engine's example, a text it would accept from this seat now (what the study bots send).
            "text_actions": [
                {"id": t.id, "label": t.label, "hint": t.hint, "max_length": t.max_length, "example": t.example}
                for t in view.text_actions
            ] if view.my_turn else [],
        }
    )
    response["Cache-Control"] = "no-store"  # private and changes with every move
    return response


def match_list(request):
    page = selectors.matches_page(request.GET.get("page"), include_private=is_staff(request))
    return render(request, "gameplay/match_list.html", {"matches": page.object_list, "page": page})


def match_detail(request, match_id: int):
    match = viewable_match(request, match_id)
    view = selectors.seat_view(match, None)
    return render(request, "gameplay/match_detail.html", view_context(view))
