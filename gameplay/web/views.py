"""HTTP pages. Thin: read through selectors, write through services, render templates."""

from __future__ import annotations

import secrets

from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.http import (
    Http404,
    HttpResponse,
    HttpResponseBadRequest,
    HttpResponseForbidden,
    JsonResponse,
)
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from gameplay.boards import presenter_for
from gameplay.engines.registry import UnknownGameError, game_class
from gameplay.models import Match, Seat, SeatClaim
from gameplay.reads import selectors
from gameplay.web.access import can_view_match, is_staff
from gameplay.web.forms import INVITE, YOU, NewMatchForm
from gameplay.web.lobby_views import remember_seat
from gameplay.web.rate_limits import limited_per_client
from gameplay.web.rendering import board_context, board_extras, board_image_url, view_context
from gameplay.web.rules_pages import RULES_PAGE, panel_context, rules_context, rules_template
from gameplay.writes import follow_ups, match_endings, open_seats, seat_claims, services, timeouts

# Seconds a board picture of one match version stays in Django's cache (and in browsers, for that version).
BOARD_IMAGE_SECONDS = 3600


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


def _held_seat(request, token: str) -> Seat:
    """The seat of a link, if this browser may use it: 404 for unknown links, 403 for a seat another browser holds
    (an accepted invite, or the host's seat of a match made in another browser)."""
    seat = selectors.seat_by_token(token)
    if seat is None:
        raise Http404("This link is not valid.")
    if not seat_claims.browser_may_use(request, seat):
        raise PermissionDenied("This seat is taken: it is held by the browser that joined with its invite link.")
    return seat


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
    seat = _held_seat(request, token)
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
    seat = _held_seat(request, token)
    return _into_following_match(follow_ups.start_next_round, seat, lambda following: seat.index)


@csrf_exempt  # as next_round: the seat token in the URL is the credential
@require_POST
def rematch(request, token: str):
    """Start (or join) the rematch of a finished match and go to this seat's page in it (sides swapped)."""
    seat = _held_seat(request, token)
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
    seat = _held_seat(request, token)
    timeouts.apply_timeouts(seat.match_id)
    return HttpResponse(status=204)


@csrf_exempt  # as next_round: the seat token in the URL is the credential
@require_POST
def agent_way_out(request, token: str):
    """End a match an agent has kept this seat waiting for too long (the panel offers it only then; the
    service checks the time again and refuses, changing nothing, when it is too early or the agent answered)."""
    seat = _held_seat(request, token)
    try:
        services.end_match_for_silent_agent(seat.match_id, seat.index)
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
    seat = _held_seat(request, token)
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
    seat = _held_seat(request, token)
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


def _viewable_match(request, match_id: int) -> Match:
    """The match, or 404 when it is private and this browser is neither staff nor one of its participants
    (404, not 403: a private match's existence is not announced)."""
    match = get_object_or_404(Match, pk=match_id)
    if not can_view_match(request, match):
        raise Http404("No such match.")
    return match


def match_detail(request, match_id: int):
    match = _viewable_match(request, match_id)
    view = selectors.seat_view(match, None)
    return render(request, "gameplay/match_detail.html", view_context(view))


def replay(request, match_id: int):
    """The public replay of an ended match; staff may add ``?seat=N`` to see seat N's own view at every step
    (its hidden information included: a researcher reviewing what a participant saw)."""
    match = _viewable_match(request, match_id)
    seats = {s.index: s for s in match.seats.all()}
    return _replay(request, match, seats, _replay_viewer(request, seats))


@require_GET
def seat_replay(request, token: str):
    """A player's own replay: the ended match as their seat saw it at every step, their hidden information
    included and nobody else's. The seat's link is the credential, as for the match page (and only in the browser
    that holds the seat, when it was claimed)."""
    seat = _held_seat(request, token)
    match = seat.match
    seats = {s.index: s for s in match.seats.all()}
    return _replay(request, match, seats, seat.index, own_seat=seat)


def _replay(request, match: Match, seats: dict, viewer: int | None, own_seat: Seat | None = None):
    if match.status == Match.Status.ACTIVE:
        # Action labels of a running hidden-information game could reveal secrets; replay once it is over.
        return HttpResponseForbidden("The replay opens when the match has ended.")
    frames = selectors.replay_frames(match, viewer)
    try:
        step = min(max(int(request.GET.get("step", len(frames) - 1)), 0), len(frames) - 1)
    except ValueError:
        step = len(frames) - 1
    frame = frames[step]
    context = {
        "match": match,
        "frames": frames,
        "frame": frame,
        "step": step,
        "last_step": len(frames) - 1,
        "obs": frame.observation.data,
        "clicks": {},
        "seats": seats,
        "viewer": viewer,
        # Kept on every step link, so stepping stays in the seat's view.
        "seat_query": f"&seat={viewer}" if viewer is not None and own_seat is None else "",
        "staff": request.user.is_staff and own_seat is None,
        "own_seat": own_seat,
        "result": selectors.public_result(match),
        # Every action as a step to jump to: (step, event).
        "moves": [(n, f.event) for n, f in enumerate(frames) if f.event is not None and f.event.kind == "action"],
        # Agent moves that asked a model record how many calls they made; the transcripts themselves are
        # agents_app's pages (the template links and loads them by URL name only).
        "has_transcripts": any(f.event is not None and f.event.payload.get("model_calls") for f in frames),
        # The picture of a step is the public one; a seat's view is drawn from its observation (board templates).
        **board_context(frame.view),
        **board_extras(selectors.game_of(match), frame.view,
                       board_image_url(match, None, step=_public_step(frames, step))),
    }
    template = "gameplay/partials/replay_frame.html" if request.headers.get("HX-Request") else "gameplay/replay.html"
    return render(request, template, context)


def _public_step(frames: list, step: int) -> int:
    """The public replay's step showing the same position as step ``step`` of a seat's replay, whose steps may include
    its team's chat lines (which the public replay has no step for): the picture URL counts public steps."""
    return sum(1 for f in frames[1:step + 1] if selectors.readable_by(f.event.payload, None))


def _replay_viewer(request, seats: dict) -> int | None:
    """The seat whose view a replay shows: ``?seat=N`` for staff only (everyone else, and a seat that does not
    exist, gets the public view)."""
    if not request.user.is_staff:
        return None
    try:
        seat = int(request.GET.get("seat", ""))
    except ValueError:
        return None
    return seat if seat in seats else None


# --- board pictures ---------------------------------------------------------------------------


def board_png(request, token: str):
    """The picture of this seat's own observation (Game.observation_image); 404 for unknown links."""
    seat = _held_seat(request, token)
    return _board_image(request, seat.match, seat.index)


def match_board_png(request, match_id: int):
    """The public picture (observation(None)); with ?step=N, a replay step of a finished match."""
    match = _viewable_match(request, match_id)
    step = request.GET.get("step")
    if step is None:
        return _board_image(request, match, None)
    if match.status == Match.Status.ACTIVE:
        return HttpResponseForbidden("The replay opens when the match has ended.")
    try:
        step = int(step)
    except ValueError:
        raise Http404("No such step") from None
    return _board_image(request, match, None, step=step)


def _board_image(request, match: Match, seat_index: int | None, step: int | None = None) -> HttpResponse:
    game = selectors.game_of(match)
    if not game.spec.has_image:
        raise Http404("This game has no board picture.")
    coords = request.GET.get("coords", "").lower() in ("1", "true", "yes", "on") and _takes_coords(game)
    key = f"board-png:{match.pk}:{match.version}:{seat_index}:{int(coords)}:{step}"
    png = cache.get(key)
    if png is None:
        if step is None:
            observation = selectors.state_of(match).observation(seat_index)
        else:
            frames = selectors.replay_frames(match)
            if not 0 <= step < len(frames):
                raise Http404("No such step")
            observation = frames[step].observation
        png = game.observation_image(observation, coords=coords)
        if png is None:
            raise Http404("This game has no board picture.")
        cache.set(key, png, BOARD_IMAGE_SECONDS)
    response = HttpResponse(png, content_type="image/png")
    # The URL names the version (?v=) or replay step it shows: then the bytes never change.
    scope = "private" if seat_index is not None else "public"
    if step is not None or request.GET.get("v") == str(match.version):
        response["Cache-Control"] = f"{scope}, max-age={BOARD_IMAGE_SECONDS}"
    else:
        response["Cache-Control"] = f"{scope}, no-cache"
    return response


def _takes_coords(game) -> bool:
    """Whether the game's board offers its picture's cell labels (its presenter's ``image_coords``): only then is
    ``coords=1`` passed on to observation_image (and a separate picture cached)."""
    return presenter_for(game.spec.id).image_coords
