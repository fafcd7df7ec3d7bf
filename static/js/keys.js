// Keyboard shortcuts for board controls: a button inside #board with data-key="ArrowUp w" is pressed by
// either key. Keys typed into a form field (the chat box) are left alone.
document.addEventListener("keydown", (event) => {
  if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
  const target = event.target;
  if (target && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName))) return;
  const button = document.querySelector(`#board button[data-key~="${CSS.escape(event.key)}"]:not([disabled])`);
  if (!button) return;
  event.preventDefault();
  button.click();
});
