// Codenames' clue form: the Spymaster types a word and picks a number; the engine takes one text, "WORD,N". Just
// before the websocket sends the form, the number is joined to the word (the form's "text") and not sent on its
// own. Without this script the word alone is sent and the engine's answer says a clue needs a number. The page
// loads this once in its head (the presenter's js); the listener sits on the document, so boards swapped in over
// the websocket need nothing re-bound, and a guard keeps the file from ever binding twice.
(function () {
  "use strict";
  if (window.codenamesClueForm) return;
  window.codenamesClueForm = true;

  document.addEventListener("htmx:wsConfigSend", function (event) {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.classList.contains("cn-clue-form")) return;
    const params = event.detail.parameters;
    const word = String(params.text || "").trim();
    const number = String(params.number || "").trim();
    if (word && number) params.text = word + "," + number;
    delete params.number;
  });
})();
