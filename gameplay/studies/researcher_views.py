"""Researcher pages: the study list, a live dashboard and the downloads. Staff only.

Everyone else gets 403, never a login redirect: participants reach the site from a study link, and a
redirect to a login page would tell them nothing useful (the 403 page offers a researcher a link to sign in).
Views stay thin: numbers come from ``measures`` and files from ``exports``. Responses are never cached because
they hold personal data (Prolific ids) and change as people take part.
"""

from __future__ import annotations

from functools import wraps
from urllib.parse import urlencode

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from gameplay.studies import exports, measures, selectors
from gameplay.studies.dashboard import live_counts, outcome_rates, studies_overview
from gameplay.studies.participant_table import ROWS_SHOWN, participant_rows

POLL_SECONDS = 5


def staff_only(view):
    """403 unless staff, checked before anything else (even the method), so nothing leaks to others."""
    view = require_GET(view)

    @wraps(view)
    def wrapped(request, *args, **kwargs):
        user = request.user
        if not (user.is_authenticated and user.is_staff):
            return researchers_only(request)
        return view(request, *args, **kwargs)

    return never_cache(wrapped)


def researchers_only(request) -> HttpResponse:
    """403 with a way in for a researcher who is not signed in (a link to sign in and come back here, not a
    redirect), and a plain word for a signed-in account that is not a researcher's. Says nothing about studies."""
    login = f"{reverse('admin:login')}?{urlencode({'next': request.path})}"
    return render(request, "studies/research/researchers_only.html", {"login_url": login}, status=403)


def _study(slug: str):
    study = selectors.study_by_slug(slug)
    if study is None:
        raise Http404("No such study.")
    return study


@staff_only
def study_list(request):
    return render(request, "studies/research/list.html", {"studies": studies_overview()})


@staff_only
def dashboard(request, slug: str):
    study = _study(slug)
    context = {
        "study": study,
        "board": live_counts(study),
        "people": participant_rows(study),
        "rows_shown": ROWS_SHOWN,
        "poll_seconds": POLL_SECONDS,
        "downloads": _downloads(),
        # What rounds.csv and the analysis will hold for this game, from its declared measures.
        "measures": [(measures.measure_column(m.name), m) for m in measures.declared_measures(study)],
        "outcomes": [o.column for o in exports.outcomes(study)],
        "flags": exports.flags(study),
        "rates": outcome_rates(study),
        "conditions": measures.condition_keys(study),
    }
    return render(request, "studies/research/dashboard.html", context)


@staff_only
def live(request, slug: str):
    """The dashboard's tables alone, for htmx to swap in every few seconds."""
    study = _study(slug)
    context = {"study": study, "board": live_counts(study), "people": participant_rows(study),
               "rows_shown": ROWS_SHOWN}
    return render(request, "studies/research/_live.html", context)


@staff_only
def download(request, slug: str, filename: str):
    study = _study(slug)
    if filename == exports.ZIP:
        data, content_type = exports.analysis_zip(study), "application/zip"
    elif filename in exports.DOWNLOADS:
        data, content_type = exports.DOWNLOADS[filename](study), "text/csv; charset=utf-8"
    else:
        raise Http404("No such file.")
    response = HttpResponse(data, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{study.slug}-{filename}"'
    return response


def _downloads() -> list[tuple[str, str, str]]:
    """(url name, file name, what it holds) for the dashboard's download list."""
    return [
        ("study_research:rounds_csv", exports.ROUNDS, "one row per participant per round"),
        ("study_research:messages_csv", exports.MESSAGES, "one row per chat line and free-text action"),
        ("study_research:survey_csv", exports.SURVEY, "one row per survey answer"),
        ("study_research:participants_csv", exports.PARTICIPANTS, "one row per participant (wide)"),
        ("study_research:comprehension_csv", exports.COMPREHENSION, "one row per comprehension question per try"),
        ("study_research:payments_csv", exports.PAYMENTS, "one row per participant: base, bonus and total owed"),
        (
            "study_research:analysis_zip",
            exports.ZIP,
            "ANOVA, Tukey HSD, Kruskal-Wallis, yes/no rates, box plots, README and the data CSVs",
        ),
    ]
