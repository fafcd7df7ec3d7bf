// Fruit Trading's offer builder: the steppers per fruit compose an offer id (propose:<give>:<get>, fruits in the
// fixed order, "nothing" for an empty side) and pick it in the form's offer list, which is what the form sends; the
// list is the engine's legal offers, so a composition it lacks is explained instead. Picking from the list sets the
// steppers back. The page loads this once in its head (the presenter's js); listeners sit on the document, so boards
// swapped in over the websocket need nothing re-bound, and a guard keeps the file from ever binding twice.
(function () {
  "use strict";
  if (window.fruitTradingBuilder) return;
  window.fruitTradingBuilder = true;

  const FRUITS = ["apple", "banana", "blueberry", "kiwi"];

  function side(form, name) {
    const parts = [];
    for (const fruit of FRUITS) {
      const input = form.querySelector('input[data-side="' + name + '"][data-fruit="' + fruit + '"]');
      const n = input ? parseInt(input.value, 10) || 0 : 0;
      if (n > 0) parts.push(fruit + n);
    }
    return parts;
  }

  function count(parts) {
    return parts.reduce(function (sum, p) { return sum + parseInt(p.replace(/^[a-z]+/, ""), 10); }, 0);
  }

  function problem(form, give, get) {
    const max = parseInt(form.getAttribute("data-max-units"), 10) || 3;
    if (!give.length && !get.length) return "";
    const fruitOf = function (p) { return p.replace(/[0-9]+$/, ""); };
    const both = give.map(fruitOf).filter(function (f) { return get.map(fruitOf).indexOf(f) >= 0; });
    if (both.length) return "The same fruit cannot be on both sides (" + both.join(", ") + ").";
    if (count(give) > max || count(get) > max) return "At most " + max + " fruits on each side.";
    return "That is not an offer you can make (you can only give fruit you have).";
  }

  function compose(form) {
    const give = side(form, "give"), get = side(form, "get");
    const select = form.querySelector("select.fruit-offer");
    const status = form.querySelector(".fruit-offer-status");
    if (!select) return;
    const id = "propose:" + (give.join("+") || "nothing") + ":" + (get.join("+") || "nothing");
    const option = Array.prototype.find.call(select.options, function (o) { return o.value === id; });
    if (option) {
      select.value = id;
      if (status) { status.textContent = option.textContent; status.classList.remove("bad"); }
    } else {
      select.value = "";
      if (status) { status.textContent = problem(form, give, get); status.classList.add("bad"); }
    }
  }

  function spread(form, id) {
    const parts = id.split(":");
    form.querySelectorAll("input[data-side]").forEach(function (input) { input.value = "0"; });
    [["give", parts[1]], ["get", parts[2]]].forEach(function (pair) {
      if (!pair[1] || pair[1] === "nothing") return;
      pair[1].split("+").forEach(function (p) {
        const fruit = p.replace(/[0-9]+$/, ""), n = p.slice(fruit.length);
        const input = form.querySelector('input[data-side="' + pair[0] + '"][data-fruit="' + fruit + '"]');
        if (input) input.value = n;
      });
    });
    const status = form.querySelector(".fruit-offer-status");
    if (status) { status.textContent = ""; status.classList.remove("bad"); }
  }

  document.addEventListener("input", function (event) {
    const input = event.target;
    if (!(input instanceof HTMLInputElement) || !input.hasAttribute("data-side")) return;
    const form = input.closest("form.fruit-builder");
    if (form) compose(form);
  });

  document.addEventListener("change", function (event) {
    const select = event.target;
    if (!(select instanceof HTMLSelectElement) || !select.classList.contains("fruit-offer")) return;
    const form = select.closest("form.fruit-builder");
    if (form && select.value) spread(form, select.value);
  });
})();
