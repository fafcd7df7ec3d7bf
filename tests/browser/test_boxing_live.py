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
