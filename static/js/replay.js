// Replay pages: step with the keyboard. Left and right arrows press the Back and Next buttons, Home and End jump to
// the start and the end (htmx then fetches that step, as for a click). Keys typed into a field are left alone.
(function () {
  "use strict";

  const KEYS = { ArrowLeft: "#prev", ArrowRight: "#next", Home: ".replay-nav a:first-child", End: ".replay-nav a:last-child" };

  document.addEventListener("keydown", function (event) {
    const selector = KEYS[event.key];
    if (!selector || event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target;
    if (target instanceof HTMLElement && (target.isContentEditable || target.closest("input, textarea, select"))) return;
    const link = document.querySelector(selector);
    if (!link) return;
    event.preventDefault();
    link.click();
  });
})();
