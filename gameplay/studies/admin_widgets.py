"""The study admin's widgets: a table of inputs (rounds, Likert items) and a condition's seats, one choice per seat.

They only draw inputs and read them back; what the values mean and whether they are allowed is the forms' and the
study rules' (gameplay.studies.admin_forms, gameplay.studies.validation).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import forms
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

TRUE_WORDS, FALSE_WORDS = ("1", "true", "yes", "on"), ("0", "false", "no", "off")


@dataclass(frozen=True)
class Column:
    name: str
    label: str
    kind: str = "text"  # text, checkbox or select
    choices: tuple = ()
    help: str = ""
    size: int = 12


class TableWidget(forms.Widget):
    """Rows of inputs named ``<field>-<row>-<column>``; the value is a list of {column: raw value} per row."""

    def __init__(self, columns: list[Column] | None = None, rows: int = 6, attrs=None):
        super().__init__(attrs)
        self.columns = columns or []
        self.rows = rows

    def value_from_datadict(self, data, files, name):
        rows = []
        for i in range(self.rows):
            row = {}
            for column in self.columns:
                key = f"{name}-{i}-{column.name}"
                row[column.name] = key in data if column.kind == "checkbox" else str(data.get(key, ""))
            rows.append(row)
        return rows

    def render(self, name, value, attrs=None, renderer=None):
        rows = list(value) if isinstance(value, list) else []
        head = format_html_join("", '<th scope="col" title="{}">{}</th>', ((c.help, c.label) for c in self.columns))
        body = []
        for i in range(self.rows):
            row = rows[i] if i < len(rows) and isinstance(rows[i], dict) else {}
            cells = format_html_join(
                "", "<td>{}</td>", ((self._cell(name, i, c, row.get(c.name)),) for c in self.columns)
            )
            body.append(format_html('<tr><th scope="row">{}</th>{}</tr>', i + 1, cells))
        return format_html(
            '<table class="study-table" id="id_{}"><thead><tr><th scope="col">#</th>{}</tr></thead>'
            "<tbody>{}</tbody></table>",
            name, head, mark_safe("".join(body)),
        )

    @staticmethod
    def _cell(name: str, row: int, column: Column, value: Any):
        key = f"{name}-{row}-{column.name}"
        label = f"{column.label}, row {row + 1}"
        if column.kind == "checkbox":
            checked = value is True or (isinstance(value, str) and value.lower() in TRUE_WORDS)
            return format_html(
                '<input type="checkbox" name="{}" aria-label="{}"{}>',
                key, label, mark_safe(" checked") if checked else "",
            )
        if column.kind == "select":
            options = format_html_join(
                "", '<option value="{}"{}>{}</option>',
                ((c, mark_safe(" selected") if str(c) == str(value) else "", c) for c in column.choices),
            )
            return format_html('<select name="{}" aria-label="{}">{}</select>', key, label, options)
        shown = "" if value is None else value
        return format_html(
            '<input type="text" name="{}" value="{}" aria-label="{}" size="{}">', key, shown, label, column.size
        )


NO_SEAT = ""


class SeatsWidget(forms.Widget):
    """One select per seat the game can have, named ``<field>-<seat>``: who plays it (a value of ``choices``). The
    seats every table has come first; the optional ones (up to the game's largest table) follow in a disclosure
    that is open when any of them is taken, and offer "no seat" too. The value is the list of raw choices."""

    def __init__(self, seat_names: list[str], min_seats: int, choices: list[tuple[str, str]], attrs=None):
        super().__init__(attrs)
        self.seat_names = seat_names
        self.min_seats = min_seats
        self.choices = choices

    def value_from_datadict(self, data, files, name):
        return [str(data.get(f"{name}-{seat}", NO_SEAT)) for seat in range(len(self.seat_names))]

    def value_omitted_from_data(self, data, files, name):
        return not any(f"{name}-{seat}" in data for seat in range(len(self.seat_names)))

    def render(self, name, value, attrs=None, renderer=None):
        chosen = list(value) if isinstance(value, list) else []
        selects = [self._select(name, seat, chosen[seat] if seat < len(chosen) else NO_SEAT)
                   for seat in range(len(self.seat_names))]
        required, optional = selects[: self.min_seats], selects[self.min_seats:]
        more = ""
        if optional:
            taken = any(v != NO_SEAT for v in chosen[self.min_seats:])
            more = format_html(
                '<details class="more-seats"{}><summary>More seats (up to {})</summary>{}</details>',
                mark_safe(" open") if taken else "", len(self.seat_names), mark_safe("".join(optional)),
            )
        return format_html(
            '<div class="seat-players" id="id_{}">{}{}</div>', name, mark_safe("".join(required)), more
        )

    def _select(self, name: str, seat: int, value: str) -> str:
        choices = list(self.choices)
        if seat >= self.min_seats:
            choices.insert(0, (NO_SEAT, "(no seat)"))
        elif value == NO_SEAT:
            choices.insert(0, (NO_SEAT, "(choose who plays)"))  # a seat the game needs, left open
        if value not in {c for c, _ in choices}:
            choices.append((value, value))  # kept as sent, so the message about it stands beside it
        options = format_html_join(
            "", '<option value="{}"{}>{}</option>',
            ((c, mark_safe(" selected") if c == value else "", label) for c, label in choices),
        )
        seat_name = self.seat_names[seat]
        return format_html(
            '<label class="seat-player"><span>{}</span> <select name="{}-{}" aria-label="Seat {}: {}">{}</select>'
            "</label>",
            seat_name, name, seat, seat + 1, seat_name, options,
        )
