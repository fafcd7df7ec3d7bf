"""Issue 13, "Why" point 9: "public rating URLs with new ?since= values each insert a row".

Anyone could grow the rating tables by inventing filter values. A GET of the leaderboard reads the latest
stored run; only staff's POST (tested in test_leaderboard_compute_button) asks for a new one.
"""

from __future__ import annotations

import pytest

from rating_app.models import RatingRun
from tests.rating_app.factories import small_league

pytestmark = pytest.mark.django_db


def test_new_since_values_in_public_rating_urls_insert_nothing(client):
    small_league()
    for day in range(1, 8):
        response = client.get(f"/ratings/?source=platform&since=2020-01-{day:02d}")
        assert response.status_code == 200
    assert RatingRun.objects.count() == 0
