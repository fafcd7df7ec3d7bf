"""Fruit Trading's offer form fits its box (issue 39): at a laptop's 1280x800 and a phone's 390x844, no part of the
offer builder (the steppers, the offer list, the message, the buttons) is wider than the element holding it, and the
page does not scroll sideways, also once the longest offer is chosen in the list."""

from __future__ import annotations

import pytest

from .conftest import ARTIFACTS
from .new_match import start_against_agent

# Every element of the form, its fieldsets and labels: its box must lie within its parent's (half a pixel of
# rounding allowed), and no element may hide content it cannot show (scrollWidth past clientWidth). Returns the
# offenders, described, so a failure names them.
OVERFLOWS = """form => {
  const out = [];
  const name = el => el.tagName.toLowerCase() + (el.className ? '.' + String(el.className).split(' ').join('.') : '')
    + (el.getAttribute('aria-label') ? '[' + el.getAttribute('aria-label') + ']' : '');
  for (const el of [form, ...form.querySelectorAll('*')]) {
    const box = el.getBoundingClientRect();
    if (box.width === 0 || el.type === 'hidden') continue;
    const parent = el.parentElement.getBoundingClientRect();
    if (box.left < parent.left - 0.5 || box.right > parent.right + 0.5)
      out.push(`${name(el)} ${Math.round(box.left)}..${Math.round(box.right)} outside its parent's `
               + `${Math.round(parent.left)}..${Math.round(parent.right)}`);
    if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible')
      out.push(`${name(el)} hides ${el.scrollWidth - el.clientWidth}px sideways`);
  }
  return out;
}"""


def check_offer_form(page, label: str) -> None:
    page.wait_for_selector("form.fruit-builder")
    form = page.locator("form.fruit-builder")
    # The longest offer in the list, chosen: a select drawn as wide as its text must still fit.
    longest = page.evaluate("""() => {
      const opts = [...document.querySelectorAll('select.fruit-offer option')].filter(o => o.value);
      return opts.reduce((a, b) => (b.textContent.length > a.textContent.length ? b : a)).value;
    }""")
    for step in ("empty", "longest offer chosen"):
        if step != "empty":
            page.locator("select.fruit-offer").select_option(longest)
        page.screenshot(path=str(ARTIFACTS / f"fruit-offer-{label}-{step.split()[0]}.png"), full_page=True)
        overflows = form.evaluate(OVERFLOWS)
        assert not overflows, f"{label}, {step}: " + "; ".join(overflows)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= page.viewport_size["width"], f"{label}, {step}: the page scrolls sideways ({width}px)"


@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_the_offer_form_fits_its_box(request, server_url, size):
    page = request.getfixturevalue(f"{size}_page")
    start_against_agent(page, server_url, "Fruit Trading", "Player 2", "random", "#board .fruit")
    check_offer_form(page, size)
