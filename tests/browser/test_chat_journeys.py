"""The chat keeps up (issue 16, point 3): after 30 messages the newest line is in view; a reader who scrolled up
to older lines is not pulled down by a new one but told about it; Escape in the chat box hands the keyboard
back to the board."""

from __future__ import annotations

from tests.browser.santorini_player import start_match, wait_until_live

NEWEST_IN_VIEW = """() => {
  const log = document.getElementById('chat-log');
  const last = log.querySelector('li[data-seq]:last-of-type');
  const line = last.getBoundingClientRect(), box = log.getBoundingClientRect();
  return line.top >= box.top - 1 && line.bottom <= box.bottom + 1;
}"""


def say(page, reader, text: str) -> None:
    """``page`` sends a chat line; wait until ``reader``'s log shows it."""
    page.get_by_label("Message").fill(text)
    page.get_by_label("Message").press("Enter")
    reader.wait_for_selector(f"#chat-log li:has-text('{text}')")


def test_the_newest_line_stays_in_view_unless_the_reader_scrolled_up(chromium, server_url):
    host_ctx = chromium.new_context(viewport={"width": 1280, "height": 800})
    guest_ctx = chromium.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    host, guest = host_ctx.new_page(), guest_ctx.new_page()
    try:
        start_match(host, server_url, "invite")
        guest.goto(host.get_by_label("Invite link for Player 2").input_value())
        guest.get_by_role("button", name="Join as Player 2").click()
        wait_until_live(guest)
        for n in range(1, 31):
            say(host if n % 2 else guest, host, f"line {n:02d}")
        log = host.locator("#chat-log")
        assert log.evaluate("log => log.scrollHeight > log.clientHeight + 50")  # the log overflows its box
        assert host.evaluate(NEWEST_IN_VIEW), "after 30 messages the newest line is out of view"
        guest.wait_for_selector("#chat-log li:has-text('line 30')")
        assert guest.evaluate(NEWEST_IN_VIEW)
        assert host.locator("#chat-unread").is_hidden()

        # Reading older lines: a new one does not scroll the log away, the button says it came.
        log.evaluate("log => { log.scrollTop = 0; }")
        say(guest, host, "line 31")
        host.wait_for_selector("#chat-unread", state="visible")
        assert log.evaluate("log => log.scrollTop") == 0
        host.get_by_role("button", name="New messages").click()
        assert host.evaluate(NEWEST_IN_VIEW)
        assert host.locator("#chat-unread").is_hidden()

        # Escape in the chat box gives the keyboard back to the board.
        host.get_by_label("Message").focus()
        host.keyboard.press("Escape")
        assert host.evaluate("document.activeElement.closest('#board') !== null")
    finally:
        host_ctx.close()
        guest_ctx.close()
