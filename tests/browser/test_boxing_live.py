"""A person boxes the scripted boxer live (issue 20): frames stream over the match socket to a canvas, keys are held,
and the page's debug line measures frames per second and the time from a key to the first frame showing it.

The numbers are printed (the note quotes them), and asserted only as the issue's floor: at least 30 frames a second.
"""

from __future__ import annotations

import statistics

from tests.browser.new_match import start_against_agent

# Keys held in turn, each for a while, as a person boxing would.
PRESSES = ("ArrowRight", "ArrowDown", " ", "ArrowLeft", "ArrowUp", " ")
BOUT_SECONDS = 10


def test_a_person_boxes_the_scripted_boxer_live_with_keys(laptop_page, server_url):
    page = laptop_page
    start_against_agent(page, server_url, "Atari Boxing", "Black", "boxer", "#live-canvas")
    debug = page.locator("#live-debug")
    for _ in range(60):  # the bout starts after a short "get ready" (the page's CSP forbids wait_for_function)
        if int(debug.get_attribute("data-frames")) > 30:
            break
        page.wait_for_timeout(250)
    assert int(debug.get_attribute("data-frames")) > 30, "no frames arrived"
    fps_samples = []
    page.keyboard.press("Tab")  # the page has the keyboard; arrows are not typed into a field
    for second in range(BOUT_SECONDS):
        key = PRESSES[second % len(PRESSES)]
        page.keyboard.down(key)
        page.wait_for_timeout(500)
        page.keyboard.up(key)
        page.wait_for_timeout(500)
        fps_samples.append(int(debug.get_attribute("data-fps")))
    latency = debug.get_attribute("data-latency-ms")
    delivery = debug.get_attribute("data-delivery-ms")
    samples = int(debug.get_attribute("data-latency-samples"))
    frames = int(debug.get_attribute("data-frames"))
    print(f"\nlive boxing: {frames} frames in ~{BOUT_SECONDS + 1} s; frames/s per second {fps_samples}; "
          f"median {statistics.median(fps_samples)} frames/s; median key-to-frame latency {latency} ms "
          f"over {samples} presses; median frame delivery (runner to page) {delivery} ms")
    assert statistics.median(fps_samples) >= 30, fps_samples
    assert samples >= BOUT_SECONDS and latency, "every key press was shown by a frame"
    # The bout is really being played and stored: the score line follows the committed match.
    frame_number = int(page.locator(".boxing-score").get_attribute("data-frame"))
    assert frame_number > 300, frame_number
    page.screenshot(path="test-artifacts/boxing-live-laptop.png")


def wait_for_reflected(page, presses: int) -> None:
    """Until the stage counts ``presses`` inputs shown by a frame (its debug line, refreshed twice a second).
    Waiting for the frame, not a fixed time, keeps the test about what the pad does: on a loaded machine the bout
    may run at a few frames a second, and a 600 ms hold could end before any frame showed it."""
    debug = page.locator("#live-debug")
    for _ in range(80):  # polled: the page's CSP forbids wait_for_function
        if int(debug.get_attribute("data-latency-samples")) >= presses:
            return
        page.wait_for_timeout(250)


def test_on_a_phone_the_on_screen_pad_and_punch_button_box(phone_page, server_url):
    page = phone_page
    start_against_agent(page, server_url, "Atari Boxing", "Black", "boxer", "#live-canvas")
    debug = page.locator("#live-debug")
    for _ in range(60):
        if int(debug.get_attribute("data-frames")) > 30:
            break
        page.wait_for_timeout(250)
    canvas = page.locator("#live-canvas").bounding_box()
    assert canvas["width"] <= 390 and canvas["height"] > 150, canvas  # the ring fits the phone's width
    for n, hold in enumerate(("left", "up left", "fire", "down")):
        button = page.locator(f'#live-stage [data-hold="{hold}"]')
        button.scroll_into_view_if_needed()
        box = button.bounding_box()
        assert box["width"] >= 40 and box["height"] >= 40, (hold, box)  # big enough for a thumb
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.down()
        wait_for_reflected(page, 2 * n + 1)  # the press is shown by a frame before the thumb lifts
        page.mouse.up()
        wait_for_reflected(page, 2 * n + 2)
    samples = int(debug.get_attribute("data-latency-samples"))
    print(f"\nphone pad: {samples} presses shown by frames, median key-to-frame "
          f"{debug.get_attribute('data-latency-ms')} ms, {debug.get_attribute('data-fps')} frames/s")
    assert samples >= 7  # four presses and four releases, each reflected by a frame
    page.screenshot(path="test-artifacts/boxing-live-phone.png", full_page=True)
    # The measuring line is not for players (issue 39, point 5), and the pad leaves with the bout.
    assert not debug.is_visible()
    assert page.locator("#live-stage .live-controls").is_visible()
    # Resign as the page's form does, by POST from this browser: the form itself lies in the status region, which the
    # live bout redraws many times a second, so a click there may never land.
    assert page.request.post(page.url + "resign/").ok
    page.wait_for_selector("#result")  # drawn by the socket: the stage stays, and its script retires the pad
    assert page.locator("#live-stage").count() == 1
    page.wait_for_selector("#live-stage .live-controls", state="hidden")
