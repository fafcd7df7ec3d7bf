from django import template
from django.utils.html import conditional_escape, escape, escapejs, format_html
from django.utils.safestring import mark_safe

from gameplay.reads import selectors
from gameplay.reads.agent_directory import agent_label

register = template.Library()

END_BUTTON, END_DIV = mark_safe("</button>"), mark_safe("</div>")


@register.filter
def result_words(match) -> str:
    """A finished match's result as anyone may read it (selectors.public_result); empty while it runs."""
    return selectors.public_result(match) or ""


@register.filter
def game_name(game_id) -> str:
    """{{ match.game_id|game_name }}: the game's name for people ("Air, Land & Sea"), or the id of a game no longer
    registered."""
    return selectors.game_name(game_id)


@register.filter
def agent_shown(name) -> str:
    """{{ row.agent|agent_shown }}: an agent as a table names it, its label for people with the name a researcher
    types after it ("Search, level 3 <code>search-3</code>"), or just the name when that is all it has; escaped."""
    name = str(name)
    label = agent_label(name)
    if label == name:
        return escape(name)
    return format_html('{} <code class="agent-name">{}</code>', label, name)


@register.filter
def lookup(mapping, key):
    """{{ clicks|lookup:cell.name }}: dictionary access with a variable key."""
    try:
        return mapping.get(key)
    except AttributeError:
        return None


@register.simple_tag
def click_grid(rows, clicks, selection=(), version="", mark=None, mark_class=""):
    """{% click_grid obs.rows clicks selection version mark=... mark_class="..." as grid %}: an ARIA grid's rows
    of cells (mappings with a ``name``, the location clicks use), each turned into the tuple
    ``(cell, open, classes, label, aria, close)`` for ``{% for cell, open, classes, label, aria, close in row %}``,
    with what clicking the cell does (gameplay.web.board_clicks) worked out here once instead of by a dozen template
    nodes per cell: a move renders the board for every seat, and that per-node cost was most of it (issue 14).

    - ``open``: the start of the cell's tag, without ``class`` and ``aria-label`` (the board adds them):
      ``<button type="button" role="gridcell" ws-send data-cell="…" hx-vals='…'`` plus ``title="<action label>"``
      when clicking submits an action, else ``<div role="gridcell" data-cell="…"``; escaped.
    - ``classes``: the suffix of its class: " target" (clicking submits an action) or " pick" (it selects),
      then " selected" when the cell is in the selection, then " <mark_class>" when it is the ``mark`` location.
    - ``label``: the location's name in capitals (escaped), for the start of its aria-label.
    - ``aria``: the end of its aria-label, ": <action label>", ": selected, press again to cancel" or ": select";
      empty for a plain cell (plain text, escaped when the template prints it).
    - ``close``: "</button>" or "</div>".

    A cell is a button when some legal action continues the selection with it (``clicks``), or when it is the
    last selected location (clicking it again steps back). Where there is nothing to click (a replay: no clicks,
    no selection) every cell is plain.
    """
    clicks = clicks or {}
    selection = tuple(selection or ())
    last = selection[-1] if selection else None
    version = conditional_escape(version)
    marked = f" {mark_class}"
    grid = []
    for row in rows:
        out = []
        for cell in row:
            name = cell["name"]
            label = escape(str(name).upper())
            mark_suffix = marked if mark is not None and name == mark else ""
            click = clicks.get(name)
            if click is None and name != last:
                opening = mark_safe(f'<div role="gridcell" data-cell="{escape(name)}"')
                out.append((cell, opening, mark_suffix, label, "", END_DIV))
                continue
            selected = name in selection
            action = click.action if click is not None else None
            if action is not None:
                opening = format_html(
                    '<button type="button" role="gridcell" ws-send data-cell="{}"'
                    """ hx-vals='{{"kind": "action", "action_id": "{}", "version": {}}}' title="{}\"""",
                    name, escapejs(action.id), version, action.label,
                )
                classes, aria = " target", f": {action.label}"
            else:
                opening = format_html(
                    '<button type="button" role="gridcell" ws-send data-cell="{}"'
                    """ hx-vals='{{"kind": "select", "location": "{}"}}'""",
                    name, name,
                )
                classes, aria = " pick", ": selected, press again to cancel" if selected else ": select"
            if selected:
                classes += " selected"
            out.append((cell, opening, classes + mark_suffix, label, aria, END_BUTTON))
        grid.append(out)
    return grid


@register.simple_tag
def action_buttons(actions, version):
    """{% action_buttons view.legal_actions version %}: one ``<li>`` per legal action with its button, which sends
    the action over the websocket (the open list of all legal actions on the match page). Built here rather than
    with a template loop: that loop cost a few microseconds per node for every action of every move (issue 14)."""
    version = conditional_escape(version)
    return mark_safe("\n".join(
        format_html(
            """<li><button type="button" ws-send hx-vals='{{"kind": "action", "action_id": "{}", "version": {}}}'"""
            ' data-action-id="{}">{}</button></li>',
            escapejs(a.id), version, a.id, a.label,
        )
        for a in actions
    ))
