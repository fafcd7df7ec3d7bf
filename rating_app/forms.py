"""The leaderboard's query parameters: which source, and for the platform's matches, which ones."""

from __future__ import annotations

from urllib.parse import urlencode

from django import forms

from gameplay.reads.agent_directory import agent_label
from rating_app.models import RatingRun


class LeaderboardForm(forms.Form):
    """Read from the query string (GET); every leaderboard view takes the same parameters."""

    source = forms.ChoiceField(choices=RatingRun.Source.choices, required=False, widget=forms.HiddenInput)
    games = forms.MultipleChoiceField(
        required=False, widget=forms.CheckboxSelectMultiple, help_text="None ticked: every game."
    )
    agents = forms.MultipleChoiceField(
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text="Only matches between the ticked agents (every seat one of them). None ticked: all agents.",
    )
    since = forms.DateField(
        required=False, label="Finished on or after", widget=forms.DateInput(attrs={"type": "date"})
    )
    until = forms.DateField(
        required=False, label="Finished on or before", widget=forms.DateInput(attrs={"type": "date"})
    )

    def __init__(self, *args, games: list[tuple[str, str]], agents: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["games"].choices = games
        # Ticked by name, read by label where an agent has one ("Search, level 3 (search-3)").
        self.fields["agents"].choices = [(a, a if agent_label(a) == a else f"{agent_label(a)} ({a})") for a in agents]

    def clean(self):
        data = super().clean()
        since, until = data.get("since"), data.get("until")
        if since and until and since > until:
            self.add_error("until", "The end date is before the start date.")
            data.pop("until", None)
        return data

    def selection(self) -> tuple[str, dict]:
        """(source, filters) from the valid parameters; an invalid one is ignored (and reported)."""
        data = {}
        if self.is_bound:
            self.is_valid()  # fills cleaned_data with the fields that are valid
            data = self.cleaned_data
        source = data.get("source") or RatingRun.Source.PLATFORM
        if source != RatingRun.Source.PLATFORM:
            return source, {}
        return source, {
            "games": data.get("games") or [],
            "agents": data.get("agents") or [],
            "since": data.get("since"),
            "until": data.get("until"),
        }


def query_string(source: str, filters: dict, **extra) -> str:
    """The query string that selects this source and these filters (for links, images and downloads)."""
    params: list[tuple[str, str]] = [("source", source)]
    for key in ("games", "agents"):
        params += [(key, v) for v in filters.get(key) or ()]
    for key in ("since", "until"):
        if filters.get(key):
            params.append((key, str(filters[key])))
    params += [(k, str(v)) for k, v in extra.items() if v not in (None, "")]
    return urlencode(params)
