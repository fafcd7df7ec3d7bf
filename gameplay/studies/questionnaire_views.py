"""The questionnaire's participant pages: the comprehension check after the instructions (and the end for
those it screens out), and the survey after the last round. Graded and recorded by ``questionnaire_services``.
"""

from __future__ import annotations

from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from gameplay.studies import questionnaire_services, selectors
from gameplay.studies.forms import ComprehensionForm, SurveyForm
from gameplay.studies.models import Participant
from gameplay.studies.participant_pages import page_context, participant_page, step_url, to_current_step
from gameplay.writes.services import ServiceError

Step = Participant.Step


@participant_page
@require_http_methods(["GET", "POST"])
def comprehension(request, participant: Participant):
    """The comprehension check after the instructions, graded on the server. Each try is a POST that redirects
    (a reload never sends a try again); after a wrong try the page shows the last try's wrong questions marked and
    cleared, the right ones kept, and how many tries are left."""
    if participant.step != Step.COMPREHENSION:
        return to_current_step(request, participant)
    study = participant.study
    wrong: list[str] = []
    if request.method == "POST":
        form = ComprehensionForm(study.comprehension_items, request.POST)
        if form.is_valid():
            participant, _ = questionnaire_services.submit_comprehension(participant, form.cleaned_data)
            return redirect(step_url(participant))
    else:
        last = selectors.last_comprehension_try(participant)
        wrong = [key for key, (_, correct) in last.items() if not correct]
        kept = {key: choice for key, (choice, correct) in last.items() if correct}
        form = ComprehensionForm(study.comprehension_items, initial=kept)
    context = {
        **page_context(participant),
        "form": form,
        "wrong": wrong,
        "tries_left": study.comprehension_max_attempts - participant.comprehension_attempts,
    }
    return render(request, "studies/comprehension.html", context)


@participant_page
@require_http_methods(["GET", "POST"])
def survey(request, participant: Participant):
    if participant.step != Step.SURVEY:
        return to_current_step(request, participant)
    study = participant.study
    form = SurveyForm(study.likert_items, study.likert_scale, request.POST or None, questions=study.questions or [])
    if request.method == "POST" and form.is_valid():
        try:
            participant = questionnaire_services.submit_survey(participant, form.cleaned_data)
        except ServiceError as err:
            form.add_error(None, str(err))
        else:
            return redirect(step_url(participant))
    context = {**page_context(participant), "form": form, "scale": study.likert_scale}
    return render(request, "studies/survey.html", context)


@participant_page
@require_GET
def screened(request, participant: Participant):
    """The end for a participant screened out by the comprehension check: the study's message (and code)."""
    if participant.step != Step.SCREENED:
        return to_current_step(request, participant)
    return render(request, "studies/screened.html", {"study": participant.study})
