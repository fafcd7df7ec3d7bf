// Keyboard shortcuts for board controls: a button inside #board with data-key="ArrowUp w" is pressed by
// either key. Keys typed into a form field (the chat box) are left alone.
// Where no button claims an arrow key, the arrow keys move the keyboard between the board's cells ([data-cell]
// that can be pressed) by where they are on the screen, so a board is played with the arrows and Enter alone,
// without Tab-ing through every cell; from the board itself (after "Skip to the board"), an arrow goes to its
// first cell.
(function () {
  "use strict";

  // A control of the board the keyboard can press: an enabled button, or an element made focusable (Hive's cells).
  // Shared with live.js (loaded after this file on every page with a board), which puts the focus back after a move.
  const PRESSABLE = "button:not([disabled]), [tabindex]:not([tabindex='-1'])";
  window.StrategicPlay = Object.assign(window.StrategicPlay || {}, { PRESSABLE: PRESSABLE });
  const DIRECTIONS = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] };

  function centre(element) {
    const box = element.getBoundingClientRect();
    return [box.left + box.width / 2, box.top + box.height / 2];
  }

  // The pressable cell nearest to ``from`` in the direction [dx, dy]: ahead along that axis, preferring the ones
  // closest to the line (a cell two columns right on the same row beats one a column right but two rows down).
  function nextCell(from, direction) {
    const cells = Array.from(document.querySelectorAll("#board [data-cell]")).filter((c) => c.matches(PRESSABLE));
    const origin = centre(from);
    let best = null;
    let bestScore = Infinity;
    for (const cell of cells) {
      if (cell === from) continue;
      const [x, y] = centre(cell);
      const along = (x - origin[0]) * direction[0] + (y - origin[1]) * direction[1];
      const across = Math.abs((x - origin[0]) * direction[1]) + Math.abs((y - origin[1]) * direction[0]);
      if (along <= 1) continue;
      const score = along + 2 * across;
      if (score < bestScore) {
        best = cell;
        bestScore = score;
      }
    }
    return best;
  }

  document.addEventListener("keydown", (event) => {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target;
    if (target && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName))) return;
    const button = document.querySelector(`#board button[data-key~="${CSS.escape(event.key)}"]:not([disabled])`);
    if (button) {
      event.preventDefault();
      button.click();
      return;
    }
    const direction = DIRECTIONS[event.key];
    if (!direction || !(target instanceof Element) || !target.closest("#board")) return;
    const from = target.closest("#board [data-cell]");
    const next = from ? nextCell(from, direction)
      : Array.from(document.querySelectorAll("#board [data-cell]")).find((c) => c.matches(PRESSABLE));
    if (!next) return;
    event.preventDefault();
    next.focus();
  });
})();
