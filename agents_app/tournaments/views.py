"""Tournament pages: the list, one tournament, and its progress partial (polled by htmx while running)."""

from __future__ import annotations

import json

from django.shortcuts import get_object_or_404, render

from agents_app.models import Tournament
from agents_app.tournaments import selectors as selectors
from gameplay.engines.registry import GAMES

# htmx stops polling when a response has this status (see htmx's "every" trigger).
HTMX_STOP_POLLING = 286


def tournament_list(request):
    return render(request, "tournaments/list.html", {"tournaments": selectors.tournament_list()})


def tournament_detail(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    context = {
        **_live_context(tournament),
        "entries": selectors.entries(tournament),
        "options_json": json.dumps(selectors.chosen_options(tournament), sort_keys=True),
    }
    return render(request, "tournaments/detail.html", context)


def tournament_progress(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    context = _live_context(tournament)
    response = render(request, "tournaments/partials/progress.html", context)
    if request.headers.get("HX-Request") and not context["live"]:
        # Nothing in flight: stop polling and reload once, so the entries table shows the final results and links.
        response.status_code = HTMX_STOP_POLLING
        response["HX-Refresh"] = "true"
    return response


def _live_context(tournament: Tournament) -> dict:
    game = GAMES.get(tournament.game_id)
    progress = selectors.progress(tournament)
    return {
        "tournament": tournament,
        "game_name": game.spec.name if game else tournament.game_id,
        "progress": progress,
        # Poll only while a worker (or the command) may still change something.
        "live": bool(progress.queued or progress.running),
        "results": selectors.results(tournament),
    }
