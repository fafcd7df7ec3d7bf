"""The participant row lock under which every step of the journey is decided.

Each write of the journey (``services``, ``pairing``, ``questionnaire_services``) reads the participant again
under this lock and checks their current step before acting, so a double click, a second tab or a replayed POST
cannot skip or repeat a step.
"""

from __future__ import annotations

from gameplay.studies.models import Participant


def locked(participant: Participant) -> Participant:
    """The participant's row, read again and locked until the end of the caller's transaction."""
    # of=("self",): lock the participant row only, not the joined study and condition rows.
    return (
        Participant.objects.select_for_update(of=("self",))
        .select_related("study", "condition")
        .get(pk=participant.pk)
    )
