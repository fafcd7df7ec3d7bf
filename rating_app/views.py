"""Leaderboard pages, figures and downloads. Thin: the selection comes from the query string, the run
from services.leaderboard (stored or recomputed), its shape for the page from presenters."""

from __future__ import annotations

from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import render

from rating_app import plots, presenters, selectors, services
from rating_app.forms import LeaderboardForm, query_string
from rating_app.models import RatingRun


def _selection(request) -> tuple[LeaderboardForm, str, dict]:
    games, agents = selectors.platform_filter_choices()
    form = LeaderboardForm(request.GET or None, games=games, agents=agents)
    source, filters = form.selection()
    return form, source, filters


def _run(request, source: str, filters: dict) -> RatingRun:
    """The run for this selection; ``?run=<id>`` pins the stored run a page was rendered from, so its
    figures and downloads show the same numbers even if a match finished meanwhile."""
    pinned = request.GET.get("run", "")
    if pinned.isdigit():
        run = RatingRun.objects.filter(pk=int(pinned)).first()
        if run is not None and run.source == source and run.filters == selectors.run_filters(source, filters):
            return run
    return services.leaderboard(source, filters)


def _links(source: str, filters: dict, run: RatingRun) -> dict:
    pinned = run.pk if run.pk and run.ok else None
    return {
        "query": query_string(source, filters),
        "pinned_query": query_string(source, filters, run=pinned),
    }


def leaderboard(request):
    form, source, filters = _selection(request)
    run = _run(request, source, filters)
    columns, score_rows = presenters.average_score_table(run)
    context = {
        "form": form,
        "source": source,
        "sources": RatingRun.Source.choices,
        "run": run,
        "overall": presenters.scope_view(run, "overall") if run.ok else None,
        "games": [presenters.scope_view(run, g) for g in presenters.scope_names(run)[1:]],
        "score_columns": columns,
        "score_rows": score_rows,
        "provenance": presenters.provenance(run),
        "tie_rule": presenters.TIE_RULES.get(run.ties, run.ties),
        **_links(source, filters, run),
    }
    return render(request, "rating_app/leaderboard.html", context)


def scope(request, scope: str):
    _, source, filters = _selection(request)
    run = _run(request, source, filters)
    view = presenters.scope_view(run, scope) if run.ok else None
    if run.ok and view is None:
        raise Http404("No such game in these ratings.")
    context = {
        "source": source,
        "run": run,
        "scope": scope,
        "title": presenters.scope_title(scope),
        "view": view,
        "matrix": presenters.matrix_rows(view.rating) if view else [],
        "provenance": presenters.provenance(run),
        "tie_rule": presenters.TIE_RULES.get(run.ties, run.ties),
        **_links(source, filters, run),
    }
    return render(request, "rating_app/scope.html", context)


def plot(request, scope: str, kind: str):
    if kind not in presenters.PLOT_KINDS:
        raise Http404("No such figure.")
    _, source, filters = _selection(request)
    run = _run(request, source, filters)
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


def download_csv(request):
    _, source, filters = _selection(request)
    run = _run(request, source, filters)
    response = HttpResponse(presenters.csv_text(run), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="ratings-{run.source}-{run.pk or "empty"}.csv"'
    return response


def download_json(request):
    _, source, filters = _selection(request)
    run = _run(request, source, filters)
    response = JsonResponse(presenters.json_payload(run), json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'attachment; filename="ratings-{run.source}-{run.pk or "empty"}.json"'
    return response

