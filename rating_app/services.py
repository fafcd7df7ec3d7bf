"""Writes: computing and storing rating runs. The leaderboard page, the downloads and the refresh task
all come through ``leaderboard``, which reuses the stored run while nothing it depends on changed."""

from __future__ import annotations

import logging
import time

from django.conf import settings

from rating_app import ratings, selectors
from rating_app.models import RatingRun
from rating_app.ratings import RatingConfig, RatingInputError, rate

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
            result = rate(matches, config).to_json()
        except (RatingInputError, ValueError) as err:  # ValueError: e.g. an unknown tie rule
            error = str(err)
    run = RatingRun.objects.create(
        **fields,
        match_fingerprint=fingerprint,
        n_matches=len(matches),
        result=result,
        error=error,
        duration_ms=round((time.perf_counter() - started) * 1000),
    )
    logger.info("rated %s matches (%s): run %s in %s ms", len(matches), source, run.pk, run.duration_ms)
    return run, True
