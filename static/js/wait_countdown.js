// The waiting room's countdown (templates/studies/wait.html). The server's poll answer, every 2 s, replaces
// #wait-status with the seconds left by the server's clock (data-seconds-left); between two answers this counts
// down, so the clock on a phone moves each second. A screen reader hears the time left only when it passes a whole
// minute, 30 and 10 seconds, through #wait-announce (aria-live), never every second. A file of its own: the CSP
// allows scripts from 'self' only.
(function () {
  "use strict";

  let deadline = null;    // Date.now() at which the wait runs out, as the server last said
  let synced = null;      // the #wait-status element that figure came from (each poll answer is a new one)
  let spoken = null;      // the last step announced

  // The step of the time left: whole minutes rounded up, then 30 and 10 seconds, then 0.
  function step(seconds) {
    if (seconds > 60) return Math.ceil(seconds / 60) * 60;
    if (seconds > 30) return 60;
    if (seconds > 10) return 30;
    return seconds > 0 ? 10 : 0;
  }

  function words(stepSeconds) {
    if (stepSeconds > 60) return "At most " + stepSeconds / 60 + " minutes left to wait.";
    if (stepSeconds === 60) return "At most 1 minute left to wait.";
    if (stepSeconds > 0) return "At most " + stepSeconds + " seconds left to wait.";
    return "The wait is over; the round starts in a moment.";
  }

  // Take the server's figure, but never let the clock jump back up by the second a poll's rounding adds.
  function sync(status) {
    synced = status;
    const raw = status.getAttribute("data-seconds-left");  // absent when there is nothing to wait for
    const told = raw === null ? NaN : Number(raw);
    if (Number.isNaN(told)) return;
    const fresh = Date.now() + told * 1000;
    deadline = deadline === null || Math.abs(fresh - deadline) > 2000 ? fresh : Math.min(deadline, fresh);
  }

  function draw() {
    const status = document.getElementById("wait-status");
    if (!status) return;
    if (status !== synced) sync(status);
    if (deadline === null) return;
    const seconds = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
    const clock = status.querySelector("[data-clock]");
    if (clock) clock.textContent = Math.floor(seconds / 60) + ":" + String(seconds % 60).padStart(2, "0");
    const bar = status.querySelector("progress");
    if (bar) bar.value = seconds;
    const now = step(seconds);
    const announce = document.getElementById("wait-announce");
    // The first step is what the page says already; only the steps after it are spoken.
    if (announce && spoken !== null && now !== spoken) announce.textContent = words(now);
    spoken = now;
  }

  document.addEventListener("DOMContentLoaded", function () {
    draw();
    window.setInterval(draw, 250);
  });
})();
