// The live stage of a realtime game (templates/games/<game>/live.html, gameplay.live): draws the frames the match's
// socket streams as binary messages, and tells the server what this person holds (kind "live") on every change.
// The debug line measures frames per second and the time from a key press to the first frame that shows it (each
// frame carries the counter of the last input it reflects).
(function () {
  "use strict";

  const stage = document.getElementById("live-stage");
  if (!stage) return;
  const canvas = document.getElementById("live-canvas");
  const context = canvas.getContext("2d");
  const actions = JSON.parse(stage.getAttribute("data-actions"));
  const order = stage.getAttribute("data-inputs").split(" ");
  const keys = JSON.parse(stage.getAttribute("data-keys"));
  const debug = document.getElementById("live-debug");
  const status = document.getElementById("live-status");
  // The figures are for measuring (benchmarks and tests read its data attributes), not for players: shown only
  // with ?debug=1 in the page's address.
  debug.hidden = !new URLSearchParams(window.location.search).has("debug");

  // The bout is over once the status shows its result: the pad, the punch button and the keys' hint leave with it.
  function retireControls() {
    if (!document.getElementById("result")) return;
    stage.querySelectorAll(".live-controls, .keys").forEach(function (element) { element.hidden = true; });
  }
  retireControls();
  document.addEventListener("htmx:wsAfterMessage", retireControls);

  // Until the first streamed frame, the ring as the match stands (the seat's board picture).
  const first = new Image();
  first.addEventListener("load", function () {
    if (!frames) context.drawImage(first, 0, 0, canvas.width, canvas.height);
  });
  if (stage.getAttribute("data-first-frame")) first.src = stage.getAttribute("data-first-frame");

  const held = [];  // inputs held now, oldest first (a later one wins over its opposite)
  const opposite = { up: "down", down: "up", left: "right", right: "left" };
  let socket = null;
  let seq = 0;
  let sentAction = null;
  const pressedAt = new Map();  // input counter -> when it was pressed
  const latencies = [];
  const arrivals = [];
  const deliveries = [];  // ms from the runner sending a frame to its arrival here (same clock on one machine)
  let frames = 0;

  function currentAction() {
    const on = new Set();
    for (const input of held) {
      if (opposite[input]) on.delete(opposite[input]);
      on.add(input);
    }
    const name = order.filter(function (input) { return on.has(input); }).join("+");
    return Object.prototype.hasOwnProperty.call(actions, name) ? actions[name] : actions[""];
  }

  function send() {
    const action = currentAction();
    if (action === sentAction || !socket) return;
    sentAction = action;
    seq += 1;
    pressedAt.set(seq, performance.now());
    socket.send(JSON.stringify({ kind: "live", action_id: action, seq: seq }));
  }

  function press(inputs) {
    for (const input of inputs) {
      const at = held.indexOf(input);
      if (at >= 0) held.splice(at, 1);
      held.push(input);
    }
    send();
  }

  function release(inputs) {
    for (const input of inputs) {
      const at = held.indexOf(input);
      if (at >= 0) held.splice(at, 1);
    }
    send();
  }

  document.addEventListener("htmx:wsOpen", function (event) {
    socket = event.detail.socketWrapper;
    sentAction = null;
    send();
  });

  document.addEventListener("keydown", function (event) {
    if (!(event.key in keys) || event.target.closest("input, textarea")) return;
    event.preventDefault();
    if (!event.repeat) press([keys[event.key]]);
  });
  document.addEventListener("keyup", function (event) {
    if (!(event.key in keys)) return;
    event.preventDefault();
    release([keys[event.key]]);
  });
  window.addEventListener("blur", function () {
    held.length = 0;
    send();
  });

  stage.querySelectorAll("[data-hold]").forEach(function (button) {
    const inputs = button.getAttribute("data-hold").split(" ");
    button.addEventListener("pointerdown", function (event) {
      event.preventDefault();
      button.setPointerCapture(event.pointerId);
      button.classList.add("held");
      press(inputs);
    });
    ["pointerup", "pointercancel"].forEach(function (type) {
      button.addEventListener(type, function () {
        button.classList.remove("held");
        release(inputs);
      });
    });
  });

  function median(values) {
    if (!values.length) return null;
    const sorted = values.slice().sort(function (a, b) { return a - b; });
    return sorted[Math.floor(sorted.length / 2)];
  }

  async function draw(blob) {
    const header = new DataView(await blob.slice(0, 12).arrayBuffer());
    const reflected = header.getUint32(4);
    const sent = header.getUint32(8);
    deliveries.push((Date.now() % 4294967296) - sent);
    if (deliveries.length > 120) deliveries.shift();
    const picture = await createImageBitmap(blob.slice(12, blob.size, "image/png"));
    context.drawImage(picture, 0, 0, canvas.width, canvas.height);
    const now = performance.now();
    frames += 1;
    arrivals.push(now);
    while (arrivals.length && arrivals[0] < now - 1000) arrivals.shift();
    for (const [counter, at] of pressedAt) {
      if (counter <= reflected) {
        latencies.push(now - at);
        pressedAt.delete(counter);
      }
    }
    if (status.textContent) status.textContent = "";
  }

  setInterval(function () {
    const fps = arrivals.length;
    const latency = median(latencies);
    debug.setAttribute("data-fps", String(fps));
    debug.setAttribute("data-frames", String(frames));
    debug.setAttribute("data-latency-ms", latency === null ? "" : latency.toFixed(1));
    debug.setAttribute("data-latency-samples", String(latencies.length));
    const delivery = median(deliveries);
    debug.setAttribute("data-delivery-ms", delivery === null ? "" : String(delivery));
    debug.textContent = fps + " frames/s · key to frame " + (latency === null ? "–" : latency.toFixed(0) + " ms") +
      " (median of " + latencies.length + ")";
  }, 500);

  // Frames are binary messages on the match socket; everything else is HTML for htmx.
  document.addEventListener("htmx:wsBeforeMessage", function (event) {
    const message = event.detail.message;
    if (typeof message === "string") return;
    event.preventDefault();
    draw(message instanceof Blob ? message : new Blob([message])).catch(function () {});
  });
})();
