"""Leaderboard pages, figures and downloads. Thin: the selection comes from the query string, the run is the
stored one (selectors.standing), its shape for the page from presenters.

A GET only reads: it never computes a run. The pages show the newest stored run of the selection (or say none
is computed yet, or that one is being computed) and a POST to the same page (a CSRF-protected button) asks for
a computation, which the Celery task carries out (in-process with eager Celery, on a worker otherwise).
"""

from __future__ import annotations

from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from gameplay.web import rate_limits
from rating_app import plots, presenters, selectors, services
from rating_app.forms import LeaderboardForm, query_string
from rating_app.models import RatingRun


def _selection(request) -> tuple[LeaderboardForm, str, dict]:
    games, agents = selectors.platform_filter_choices()
    form = LeaderboardForm(request.GET or None, games=games, agents=agents)
    source, filters = form.selection()
    return form, source, filters


def _pinned(request, source: str, filters: dict) -> RatingRun | None:
    """``?run=<id>`` pins the stored run a page was rendered from, so its figures and downloads show the same
    numbers even if a newer run was stored meanwhile (a pin for another selection is ignored)."""
    pinned = request.GET.get("run", "")
    # An id is up to 18 ASCII digits (it fits the 64-bit column); anything else pins nothing (a 5,000-digit run
    # or a "²" once reached the database and answered 500).
    if pinned.isascii() and pinned.isdigit() and len(pinned) <= 18:
        run = RatingRun.objects.filter(pk=int(pinned)).first()
        if run is not None and run.source == source and run.filters == selectors.run_filters(source, filters):
            return run
    return None


def _standing(request, source: str, filters: dict) -> selectors.Standing:
    return selectors.standing(source, filters, services.default_config(), pinned=_pinned(request, source, filters))


def _stored_run(request, source: str, filters: dict) -> RatingRun:
    """The pinned or newest stored run, for figures and downloads; 404 while none is stored."""
    run = _pinned(request, source, filters) or selectors.latest_run(source, filters, services.default_config())
    if run is None:
        raise Http404("No ratings are computed for this selection yet.")
    return run


@rate_limits.limited_per_client("RATING_REQUESTS_PER_MINUTE", "rating-ask",
                                "You asked for several computations in the last minute.")
def _ask_for_a_run(request, source: str, filters: dict):
    """The POST of the compute button: queue the computation, then show the page again (with a GET). Refused with
    429 when this address asked too often this minute (limited_per_client: staff are not limited, Retry-After says
    when the minute ends), or when the site already has as many computations waiting as it allows."""
    try:
        services.request_refresh(source, filters)
    except services.RefreshBusy:
        return rate_limits.too_many(
            request, "Other leaderboards are being computed right now; please try again in a minute."
        )
    return redirect(request.get_full_path())


def _standing_context(standing: selectors.Standing) -> dict:
    return {
        "run": standing.run,
        "current": standing.current,
        "pending": standing.pending,
        "failure": standing.failure,
        "bootstrap": services.default_config().bootstrap,
    }


def _links(source: str, filters: dict, run: RatingRun | None) -> dict:
    pinned = run.pk if run is not None and run.ok else None
    return {
        "query": query_string(source, filters),
        "pinned_query": query_string(source, filters, run=pinned),
    }


@require_http_methods(["GET", "POST"])
def leaderboard(request):
    form, source, filters = _selection(request)
    if request.method == "POST":
        return _ask_for_a_run(request, source, filters)
    standing = _standing(request, source, filters)
    run = standing.run
    context = {
        "form": form,
        "source": source,
        "sources": RatingRun.Source.choices,
        **_standing_context(standing),
        **_links(source, filters, run),
        # Cooperative games (no winner to rate): success and turns per player instead.
        "teamwork": selectors.teamwork_standings(filters) if source == RatingRun.Source.PLATFORM else [],
    }
    if run is not None:
        columns, score_rows = presenters.average_score_table(run)
        context.update(
            overall=presenters.scope_view(run, "overall") if run.ok else None,
            games=[presenters.scope_view(run, g) for g in presenters.scope_names(run)[1:]],
            score_columns=columns,
            score_rows=score_rows,
            provenance=presenters.provenance(run),
            tie_rule=presenters.TIE_RULES.get(run.ties, run.ties),
            # A model that copies its prompt's example, or falls back, is seen beside its rating (issue 42).
            model_decisions=run.model_decisions,
        )
    return render(request, "rating_app/leaderboard.html", context)


@require_http_methods(["GET", "POST"])
def scope(request, scope: str):
    _, source, filters = _selection(request)
    if request.method == "POST":
        return _ask_for_a_run(request, source, filters)
    standing = _standing(request, source, filters)
    run = standing.run
    view = presenters.scope_view(run, scope) if run is not None and run.ok else None
    if run is not None and run.ok and view is None:
        raise Http404("No such game in these ratings.")
    context = {
        "source": source,
        "scope": scope,
        "title": presenters.scope_title(scope),
        "view": view,
        "matrix": presenters.matrix_rows(view.rating) if view else [],
        **_standing_context(standing),
        **_links(source, filters, run),
    }
    if run is not None:
        context.update(provenance=presenters.provenance(run), tie_rule=presenters.TIE_RULES.get(run.ties, run.ties))
    return render(request, "rating_app/scope.html", context)


@require_GET
def plot(request, scope: str, kind: str):
    if kind not in presenters.PLOT_KINDS:
        raise Http404("No such figure.")
    _, source, filters = _selection(request)
    run = _stored_run(request, source, filters)
    view = presenters.scope_view(run, scope) if run.ok else None
    if view is None:
        raise Http404("Nothing rated for this selection.")
    rating = view.rating
    try:  # ?width=440: a narrower rendering with the same text size, for phones
        width = min(max(int(request.GET.get("width", plots.WIDTH)), 320), 1600)
    except ValueError:
        width = plots.WIDTH
    if kind == "whisker":
        png = plots.whisker_plot(
            rating, title=view.title, bootstrap=run.bootstrap, interval=run.interval, width=width
        )
    elif kind == "win-probability":
        png = plots.heatmap(
            rating.win_probability,
            rating.agents,
            f"{view.title}: P(row beats column)",
            "{:.2f}",
            subtitle="Bradley-Terry probability from the mean ratings; rows and columns best first",
            vmin=0.0,
            vmax=1.0,
            center=0.5,
            width=width,
        )
    else:
        png = plots.heatmap(
            rating.match_counts,
            rating.agents,
            f"{view.title}: matches between row and column",
            "{:d}",
            subtitle="finished matches in which both agents played (ties included)",
            vmin=0,
            width=width,
        )
    response = HttpResponse(png, content_type="image/png")
    if request.GET.get("download"):
        response["Content-Disposition"] = f'attachment; filename="ratings-{run.source}-{scope}-{kind}.png"'
    return response


@require_GET
def download_csv(request):
    _, source, filters = _selection(request)
    run = _stored_run(request, source, filters)
    response = HttpResponse(presenters.csv_text(run), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="ratings-{run.source}-{run.pk}.csv"'
    return response


@require_GET
def download_json(request):
    _, source, filters = _selection(request)
    run = _stored_run(request, source, filters)
    response = JsonResponse(presenters.json_payload(run), json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'attachment; filename="ratings-{run.source}-{run.pk}.json"'
    return response

