// Behaviour of the live match pages that would otherwise be inline handlers (onclick, hx-on, hx-trigger filters).
// Kept in this file so the Content-Security-Policy allows scripts from 'self' only: no 'unsafe-eval', no hashes.
// Every listener is on the document, so it also serves fragments swapped in over the websocket.
(function () {
  "use strict";

  function showConnection(text) {
    const status = document.getElementById("connection");
    if (status) status.textContent = text;
  }

  // data-socket on the element holding the socket: "live" once its first frame has drawn the page, "closed"
  // while it is down. Browser tests wait for "live" before acting (a click that races the first frame can land
  // on a cell that frame then replaces).
  function markSocket(event, value) {
    if (event.target instanceof Element) event.target.setAttribute("data-socket", value);
  }

  document.addEventListener("htmx:wsOpen", function () {
    showConnection("");
  });

  // Where the keyboard was on the board, to give it back once a frame replaced the board: the cell (its
  // data-cell) or the board itself. It is kept over frames that leave nothing to press (the opponent's turn), so the
  // keyboard comes back to the same place when the turn does, and forgotten once the reader goes elsewhere.
  let boardFocus = null;

  // The chat log keeps its newest line in view, unless the reader scrolled up to read older ones: then the
  // "New messages" button below it says that lines came, and takes the reader down to them.
  let chatAtEnd = true;
  let chatNewest = null;
  let chatSent = false;

  function chatLog() {
    return document.getElementById("chat-log");
  }

  function newestLine(log) {
    const last = log.querySelector("li[data-seq]:last-of-type");
    return last ? last.getAttribute("data-seq") : null;
  }

  function isAtEnd(log) {
    return log.scrollHeight - log.scrollTop - log.clientHeight < 24;
  }

  function setUnread(shown) {
    const button = document.getElementById("chat-unread");
    if (button) button.hidden = !shown;
  }

  // A control of the board the keyboard can press, as keys.js (loaded first) defines it.
  const PRESSABLE = window.StrategicPlay.PRESSABLE;
  const BOARD_PRESSABLE = PRESSABLE.split(", ").map(function (part) { return "#board " + part; }).join(", ");

  // Where the keyboard goes when it leaves the chat box: the control the board asks for, else its first one.
  function boardFocusTarget() {
    return document.querySelector("#board [data-autofocus]:not([disabled]), #board button:not([disabled]), #board [tabindex]");
  }

  function showNewestLine() {
    const log = chatLog();
    if (log) log.scrollTop = log.scrollHeight;
    setUnread(false);
  }

  document.addEventListener("DOMContentLoaded", showNewestLine);

  document.addEventListener("htmx:wsBeforeMessage", function () {
    const active = document.activeElement;
    if (active instanceof Element && active.closest("#board")) {
      const cell = active.closest("#board [data-cell]");
      boardFocus = { cell: cell ? cell.getAttribute("data-cell") : (boardFocus ? boardFocus.cell : null) };
    } else if (active && active !== document.body) {
      boardFocus = null;  // the reader is elsewhere (the chat box, the match controls): leave the keyboard there
    }
    const log = chatLog();
    chatAtEnd = !log || isAtEnd(log);
    chatNewest = log ? newestLine(log) : null;
  });

  document.addEventListener("htmx:wsClose", function (event) {
    markSocket(event, "closed");
    const closed = event.detail && event.detail.event;
    // 4001: the server closed this socket because the same seat opened the game in another tab or window
    // (gameplay/web/socket_limits.py); the websocket extension does not reconnect after it.
    showConnection(closed && closed.code === 4001
      ? "Closed: this game is open in another tab or window."
      : "Connection lost; reconnecting…");
  });

  document.addEventListener("htmx:wsAfterMessage", function (event) {
    markSocket(event, "live");
    const log = chatLog();
    if (log && newestLine(log) !== chatNewest) {
      if (chatAtEnd || chatSent) showNewestLine();
      else setUnread(true);
      chatSent = false;
    }
    // Keep the keyboard on the board after an update, unless the reader is in a field (the chat box): on the
    // same cell if it is still one to press, else where the board asks for it, else its first control, else the
    // board itself (nothing to press while the others play; the arrow keys go on from there).
    const active = document.activeElement;
    if (boardFocus && (!active || active === document.body)) {
      const same = boardFocus.cell === null ? null
        : document.querySelector('#board [data-cell="' + CSS.escape(boardFocus.cell) + '"]');
      const pressable = same && same.matches(PRESSABLE) ? same : null;
      const target = pressable || document.querySelector("#board [data-autofocus]:not([disabled])")
        || document.querySelector(BOARD_PRESSABLE) || document.getElementById("board");
      if (target) target.focus({ preventScroll: true });
    }
    dropTakenInvites();
    // A study round's Continue area listens for this (hx-trigger="round-changed from:body") until its
    // Continue form is there.
    if (document.getElementById("study-continue") && !document.getElementById("study-continue-form")) {
      document.body.dispatchEvent(new CustomEvent("round-changed"));
    }
  });

  // The host's invite links (match.html) go as their seats are taken: a seat the presence list shows as anything
  // but "has not joined yet" has been opened by the person who accepted its link, which no one else can use now.
  // The box goes with its last link.
  function dropTakenInvites() {
    const box = document.getElementById("invites");
    if (!box) return;
    document.querySelectorAll('#presence li[data-seat]:not([data-state="not-yet"])').forEach(function (person) {
      const invite = document.getElementById("invite-" + person.dataset.seat);
      if (invite) invite.remove();
    });
    if (!box.querySelector("li[id^='invite-']")) box.remove();
  }

  document.addEventListener("htmx:wsAfterSend", function (event) {
    const form = event.target;
    if (form instanceof HTMLFormElement && form.hasAttribute("data-reset-after-send")) form.reset();
    if (form instanceof HTMLFormElement && form.classList.contains("chat-form")) {
      chatSent = true;
      // The line is sent: the keyboard goes back to the board, so the next key plays (Gnomes' arrow keys).
      const target = boardFocusTarget();
      if (target) target.focus({ preventScroll: true });
    }
  });

  document.addEventListener("click", function (event) {
    if (event.target instanceof Element && event.target.closest("#chat-unread")) showNewestLine();
  });

  // The Chat button of the docked chat on a phone opens the log to a drawer for reading back, and folds it again.
  document.addEventListener("click", function (event) {
    const toggle = event.target instanceof Element ? event.target.closest("#chat-toggle") : null;
    const dock = document.getElementById("chat-dock");
    if (!toggle || !dock) return;
    const open = dock.classList.toggle("open");
    toggle.setAttribute("aria-expanded", open ? "true" : "false");
    showNewestLine();
  });

  // Scrolling the log down to its end by hand clears the "New messages" button (scroll events do not bubble).
  document.addEventListener("scroll", function (event) {
    if (event.target === chatLog() && isAtEnd(event.target)) setUnread(false);
  }, true);

  // Escape in the chat box gives the keyboard back to the board, where keys play (e.g. Gnomes' arrow keys).
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape" || !(event.target instanceof Element) || !event.target.closest(".chat-form")) return;
    const target = boardFocusTarget();
    if (target) {
      event.preventDefault();
      target.focus();
    }
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
  // "The agent is thinking… 12 s": the server says how long it has waited when it draws the panel; the page counts
  // on from there (a panel redrawn by the socket starts again from the server's figure).
  function tickThinking() {
    document.querySelectorAll("[data-elapsed]").forEach(function (counter) {
      if (!counter.dataset.origin) {
        counter.dataset.origin = String(Date.now() - Number(counter.getAttribute("data-elapsed")) * 1000);
      }
      const seconds = Math.floor((Date.now() - Number(counter.dataset.origin)) / 1000);
      counter.textContent = seconds + " s";
    });
  }
  setInterval(tickThinking, 1000);

  // "42 s left" (a turn timer, templates/gameplay/partials/turn_clock.html): the server drew the seconds left until its
  // deadline (data-deadline); the page counts down from there on its own clock. The live text is said at 30, 10 and 0
  // seconds only, not every second.
  function tickTurnClocks() {
    document.querySelectorAll(".turn-clock[data-seconds-left]").forEach(function (clock) {
      if (!clock.dataset.endsAt) {
        clock.dataset.endsAt = String(Date.now() + Number(clock.getAttribute("data-seconds-left")) * 1000);
      }
      const left = Math.max(0, Math.ceil((Number(clock.dataset.endsAt) - Date.now()) / 1000));
      const text = left > 0 ? left + " s left" : "Time is up";
      const shown = clock.querySelector(".turn-clock-text");
      if (shown && shown.textContent !== text) shown.textContent = text;
      const said = clock.querySelector(".turn-clock-said");
      if (said && (left === 30 || left === 10 || left === 0) && said.textContent !== text) said.textContent = text;
      clock.classList.toggle("turn-clock-low", left <= 10);
    });
  }
  setInterval(tickTurnClocks, 250);

  // "37 of 150 words" under a textarea with data-word-limit (a debate argument): the engine refuses a longer one,
  // this only tells the writer before sending.
  document.addEventListener("input", function (event) {
    const field = event.target;
    if (!(field instanceof HTMLTextAreaElement) || !field.hasAttribute("data-word-limit")) return;
    const counter = document.querySelector('[data-word-count-for="' + field.id + '"]');
    if (!counter) return;
    const limit = Number(field.getAttribute("data-word-limit"));
    const words = field.value.trim() ? field.value.trim().split(/\s+/).length : 0;
    counter.textContent = words + " of " + limit + " words" + (words > limit ? ": too long" : "");
    counter.classList.toggle("over", words > limit);
  });
})();
