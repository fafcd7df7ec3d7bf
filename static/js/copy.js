// Copy buttons: <button type="button" data-copy="text">. Clicking copies the text and says so on the button (and
// to screen readers through its live region); where the clipboard is not available, the text is selected instead
// so the person can copy it by hand.
(function () {
  "use strict";

  function selectText(button) {
    const target = document.getElementById(button.getAttribute("aria-controls") || "");
    if (!target) return;
    const range = document.createRange();
    range.selectNodeContents(target);
    const selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }

  function say(button, text) {
    const status = button.parentElement && button.parentElement.querySelector(".copy-status");
    if (status) status.textContent = text;
  }

  document.addEventListener("click", function (event) {
    const button = event.target instanceof Element ? event.target.closest("button[data-copy]") : null;
    if (!button) return;
    const text = button.getAttribute("data-copy");
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(
        function () { say(button, "Copied."); },
        function () { selectText(button); say(button, "Selected: press Ctrl+C (or ⌘C) to copy."); }
      );
    } else {
      selectText(button);
      say(button, "Selected: press Ctrl+C (or ⌘C) to copy.");
    }
  });
})();
