// Who is Spy's describe form. A refused description (one holding the player's own word, too long, a repeat) comes
// back as the page's error message (#flash, below the board on a phone) with the board drawn again, which empties
// the field. This puts back what was typed and repeats the error right under the field, where the person is typing.
// Listeners sit on the document (boards swapped in over the websocket need nothing re-bound); a guard keeps the file
// from binding twice when a swapped board brings its script tag again. Without this script the error still shows in
// #flash (an alert for screen readers) and the field is empty.
(function () {
  "use strict";
  if (window.whoIsSpyDescribe) return;
  window.whoIsSpyDescribe = true;
  let typed = null;

  document.addEventListener("htmx:wsConfigSend", function (event) {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.classList.contains("spy-describe")) return;
    typed = String(event.detail.parameters.text || "");
  });

  document.addEventListener("htmx:wsAfterMessage", function () {
    if (typed === null) return;
    const field = document.getElementById("spy-describe-text");
    if (!field) {
      typed = null; // the turn has passed: the description was taken
      return;
    }
    const flash = document.getElementById("flash");
    const error = flash && flash.classList.contains("error") ? flash.textContent.trim() : "";
    if (!error) return;
    if (!field.value) field.value = typed;
    const note = document.getElementById("spy-describe-error");
    if (note) {
      note.textContent = error;
      note.hidden = false;
    }
    field.setAttribute("aria-invalid", "true");
    field.focus({ preventScroll: true });
    typed = null;
  });
})();
