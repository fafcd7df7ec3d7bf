// Behaviour of the live match pages that would otherwise be inline handlers (onclick, hx-on, hx-trigger filters).
// Kept in this file so the Content-Security-Policy allows scripts from 'self' only: no 'unsafe-eval', no hashes.
// Every listener is on the document, so it also serves fragments swapped in over the websocket.
(function () {
  "use strict";

  function showConnection(text) {
    const status = document.getElementById("connection");
    if (status) status.textContent = text;
  }

  document.addEventListener("htmx:wsOpen", function () {
    showConnection("");
  });

  document.addEventListener("htmx:wsClose", function (event) {
    const closed = event.detail && event.detail.event;
    // 4001: the server closed this socket because the same seat opened the game in another tab or window
    // (gameplay/socket_limits.py); the websocket extension does not reconnect after it.
    showConnection(closed && closed.code === 4001
      ? "Closed: this game is open in another tab or window."
      : "Connection lost; reconnecting…");
  });

  document.addEventListener("htmx:wsAfterMessage", function () {
    // Keep the keyboard on the board after an update, unless the reader is in a field (the chat box).
    const active = document.activeElement;
    if (!active || active === document.body) {
      const target = document.querySelector("#board [data-autofocus]");
      if (target) target.focus({ preventScroll: true });
    }
    // A study round's Continue area listens for this (hx-trigger="round-changed from:body") until its
    // Continue form is there.
    if (document.getElementById("study-continue") && !document.getElementById("study-continue-form")) {
      document.body.dispatchEvent(new CustomEvent("round-changed"));
    }
  });

  document.addEventListener("htmx:wsAfterSend", function (event) {
    const form = event.target;
    if (form instanceof HTMLFormElement && form.hasAttribute("data-reset-after-send")) form.reset();
  });

  document.addEventListener("click", function (event) {
    const field = event.target;
    if (field instanceof HTMLInputElement && field.hasAttribute("data-select-on-click")) field.select();
  });

  // Board cells drawn in SVG are not buttons: Enter or Space on one acts like a click (which htmx sends), and
  // Space never scrolls the page from the board.
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Enter" && event.key !== " ") return;
    const cell = event.target instanceof Element ? event.target.closest("[data-key-activates]") : null;
    if (!cell) return;
    event.preventDefault();
    cell.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));
  });
})();
