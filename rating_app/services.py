"""Writes: computing and storing rating runs, and asking for one to be computed.

Pages never compute (a GET only reads): the leaderboard's POST button calls ``request_refresh``, which
queues the Celery task; the task (and the one queued when a match finishes) computes through ``refresh``,
which reuses the stored run while nothing it depends on changed. Commands may call ``leaderboard`` directly.
"""

from __future__ import annotations

import logging
import time
from functools import partial

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from rating_app import ratings, selectors
from rating_app.models import RatingRun, RefreshRequest
from rating_app.ratings import RatingConfig, RatingInputError
from rating_app.signals import refresh_requested

logger = logging.getLogger(__name__)


def default_config() -> RatingConfig:
    """The configuration of the site's leaderboard (settings RATING_BOOTSTRAP, RATING_SEED, RATING_TIES)."""
    return RatingConfig(bootstrap=settings.RATING_BOOTSTRAP, seed=settings.RATING_SEED, ties=settings.RATING_TIES)


def leaderboard(source: str, filters: dict | None = None, config: RatingConfig | None = None) -> RatingRun:
    """The run for these matches and this configuration: the stored one if still current, else a new one.

    When nothing can be rated (no finished matches, a filter that leaves none) the run is stored
    with ``result=None`` and ``error`` saying why, so the page can show an empty state.
    """
    return refresh(source, filters, config)[0]


def refresh(source: str, filters: dict | None = None, config: RatingConfig | None = None) -> tuple[RatingRun, bool]:
    """As ``leaderboard``; also says whether a new run was computed (False: the stored one was current)."""
    config = config or default_config()
    if source not in RatingRun.Source.values:
        raise ValueError(f"unknown rating source {source!r}")
    filters = selectors.run_filters(source, filters)
    fields = dict(
        source=source,
        filters=filters,
        bootstrap=config.bootstrap,
        seed=config.seed,
        ties=config.ties,
        alpha=config.alpha,
        interval=config.interval,
        library_version=ratings.LIBRARY_VERSION,
        cache_key=selectors.cache_key(source, filters, config),
    )
    try:
        matches, fingerprint = selectors.results_for(source, filters)
    except RatingInputError as err:
        # Unreadable input (a malformed data file, a score outside [0, 1]): say so, store nothing.
        logger.warning("cannot rate %s matches: %s", source, err)
        return RatingRun(**fields, match_fingerprint="", error=str(err)), False
    cached = selectors.latest_run(source, filters, config)
    if cached is not None and cached.match_fingerprint == fingerprint:
        return cached, False
    started = time.perf_counter()
    result, error = None, ""
    if not matches:
        error = "no finished matches" + (" match these filters" if any(filters.values()) else " yet")
    else:
        try:
            result = ratings.rate(matches, config).to_json()  # loads numpy on first use
        except (RatingInputError, ValueError) as err:  # ValueError: e.g. an unknown tie rule
            error = str(err)
    run = RatingRun.objects.create(
        **fields,
        match_fingerprint=fingerprint,
        n_matches=len(matches),
        result=result,
        error=error,
        # Summed once here from the rated matches' stored calls (which no longer change), not on every page view.
        model_decisions=selectors.model_decisions(filters) if source == RatingRun.Source.PLATFORM and matches else [],
        duration_ms=round((time.perf_counter() - started) * 1000),
    )
    logger.info("rated %s matches (%s): run %s in %s ms", len(matches), source, run.pk, run.duration_ms)
    return run, True


# --- asking for a computation (the leaderboard's POST button) ---------------------------------------------------


class RefreshBusy(Exception):
    """As many computations as the site allows (settings.RATING_OPEN_REQUESTS) are already waiting."""


def request_refresh(source: str, filters: dict | None = None) -> tuple[RefreshRequest, bool]:
    """Ask for this selection's run with the site's configuration; True when a computation was queued now.

    While an earlier request of the same selection is still open, that one is returned and nothing is queued
    twice. While RATING_OPEN_REQUESTS requests of other selections are open, RefreshBusy is raised and nothing is
    queued: however many selections visitors ask for, the work waiting stays bounded. The task is queued once the
    request row is committed (eager Celery computes it in-process then).
    """
    config = default_config()
    if source not in RatingRun.Source.values:
        raise ValueError(f"unknown rating source {source!r}")
    filters = selectors.run_filters(source, filters)
    pending = selectors.open_request(source, filters, config)
    if pending is not None:
        return pending, False
    if selectors.open_request_count() >= settings.RATING_OPEN_REQUESTS:
        raise RefreshBusy(f"{settings.RATING_OPEN_REQUESTS} computations are already waiting")
    request = RefreshRequest.objects.create(
        source=source, filters=filters, cache_key=selectors.cache_key(source, filters, config)
    )
    # Queued by rating_app.receivers once committed: the tasks module imports this one, so it is not imported here.
    transaction.on_commit(partial(refresh_requested.send, sender=RefreshRequest, request_id=request.pk))
    return request, True


def close_failed_request(request_id: int, error: str) -> None:
    """Close a request whose computation could not even start (a broker that is down, an eager run that raised),
    so its page stops saying it is being computed."""
    RefreshRequest.objects.filter(pk=request_id, finished_at__isnull=True).update(finished_at=timezone.now(),
                                                                                  error=error)


def fulfil_request(request_id: int) -> bool:
    """Compute the run a request asks for and close the request; True if a new run was computed."""
    request = RefreshRequest.objects.filter(pk=request_id).first()
    if request is None:
        return False
    error, computed = "the computation failed", False
    try:
        run, computed = refresh(request.source, request.filters)
        error = "" if run.pk is not None else (run.error or "nothing could be rated")
    finally:  # closed even when the computation raised, so the page stops saying it is being computed
        RefreshRequest.objects.filter(pk=request.pk).update(finished_at=timezone.now(), error=error)
    return computed
