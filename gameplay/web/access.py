"""Who may look at a match from outside its seats: the public, staff, and a private match's own participants.

A seat's link (its token) is always its own credential and is checked elsewhere. This module answers the
other question: may THIS browser open a match's public page, replay, board picture or transcripts? Public
matches: anyone. Private matches (study rounds): staff, and the participants of that match, recognised by the
participant tokens this browser's session holds (bound when they started the study) — never by an id taken
from the URL alone.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from gameplay.models import Match

# Who else may view a private match, asked of the apps that make private matches with participants of their own:
# each registers a check (tokens this browser holds, match) -> bool when it loads (gameplay.studies in its
# AppConfig.ready), so the core asks them without importing them.
ViewerCheck = Callable[[Sequence[str], Match], bool]
_viewer_checks: list[ViewerCheck] = []


def register_viewer_check(check: ViewerCheck) -> None:
    if check not in _viewer_checks:
        _viewer_checks.append(check)


# The session entry where the study pages keep {str(study id): participant token} for this browser.
STUDY_SESSION_KEY = "study_participants"


def is_staff(request) -> bool:
    user = request.user
    return bool(user.is_authenticated and user.is_staff)


def held_participant_tokens(request) -> list[str]:
    held = request.session.get(STUDY_SESSION_KEY) or {}
    if not isinstance(held, dict):
        return []
    return [token for token in held.values() if isinstance(token, str) and 0 < len(token) <= 64]


def can_view_match(request, match: Match) -> bool:
    if not match.private or is_staff(request):
        return True
    tokens = held_participant_tokens(request)
    return bool(tokens) and any(check(tokens, match) for check in _viewer_checks)


