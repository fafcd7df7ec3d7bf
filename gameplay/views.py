"""HTTP pages. Thin: read through selectors, write through services, render templates."""

from __future__ import annotations

import secrets

from django.http import Http404, HttpResponseForbidden
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from gameplay import selectors, services
from gameplay.engines.registry import UnknownGameError, all_specs, game_class
from gameplay.forms import INVITE, YOU, NewMatchForm
from gameplay.models import Match, Seat
from gameplay.rendering import view_context


def lobby(request):
    return render(request, "gameplay/lobby.html", {"games": all_specs(), "matches": selectors.recent_matches(10)})


@require_http_methods(["GET", "POST"])
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
        try:
            match = services.create_match(
                game_id,
                controllers,
                seed=seed if seed is not None else secrets.randbelow(2**31),
                options=form.options(),
                host_seat=host,
            )
        except services.ServiceError as err:
            form.add_error(None, str(err))
        else:
            if host is not None:
                return redirect("play", token=match.seats.get(index=host).token)
            return redirect("match_detail", match_id=match.pk)
    return render(request, "gameplay/new_match.html", {"form": form, "spec": spec, "invite": INVITE})


def play(request, token: str):
    seat = selectors.seat_by_token(token)
    if seat is None:
        raise Http404("This link is not valid.")
    view = selectors.seat_view(seat.match, seat)
    invites = []
    if seat.is_host:
        invites = [
            (s, request.build_absolute_uri(reverse("play", kwargs={"token": s.token})))
            for s in view.seats
            if s.controller == Seat.Controller.HUMAN and s.index != seat.index and s.joined_at is None
        ]
    return render(
        request,
        "gameplay/match.html",
        {**view_context(view), "ws_path": f"/ws/play/{token}/", "invites": invites},
    )


def match_list(request):
    return render(request, "gameplay/match_list.html", {"matches": selectors.recent_matches(200)})


def match_detail(request, match_id: int):
    match = get_object_or_404(Match, pk=match_id)
    view = selectors.seat_view(match, None)
    return render(request, "gameplay/match_detail.html", view_context(view))


def replay(request, match_id: int):
    match = get_object_or_404(Match, pk=match_id)
    if match.status != Match.Status.FINISHED:
        # Action labels of a running hidden-information game could reveal secrets; replay once it is over.
        return HttpResponseForbidden("The replay opens when the match has ended.")
    frames = selectors.replay_frames(match)
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
        "board_template": f"games/{match.game_id}/board.html",
        "seats": {s.index: s for s in match.seats.all()},
    }
    template = "gameplay/partials/replay_frame.html" if request.headers.get("HX-Request") else "gameplay/replay.html"
    return render(request, template, context)
