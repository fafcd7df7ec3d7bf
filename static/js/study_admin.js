// The study admin (gameplay/studies/admin.py): when the Game select changes, the parts of the form drawn for a
// game are redrawn for the new one at once: the rounds table (its columns are the game's options) and every
// condition's seats (the game's seats; a participant or an agent that plays it), the empty condition that "Add
// another Condition" copies included. They come from StudyAdmin's game_tables view (a GET that reads nothing but
// the registry and the agent directory; its address is the select's data-tables-url). The rows' Play ticks and
// every seat's choice that the new game allows are kept. The hidden rounds_game then names the new game, so the
// form saves at once. Without this script a save redraws them on the server once (StudyAdminForm).
(function () {
  "use strict";

  var SEATS_PLACEHOLDER = "__seats__";

  function fieldName(container) {
    return container.id.replace(/^id_/, "");
  }

  function keepTicks(oldTable, newTable) {
    var ticks = Array.prototype.map.call(oldTable.querySelectorAll('input[type="checkbox"][name$="-play"]'),
      function (box) { return box.checked; });
    newTable.querySelectorAll('input[type="checkbox"][name$="-play"]').forEach(function (box, row) {
      box.checked = Boolean(ticks[row]);
    });
  }

  function keepChoices(oldSeats, newSeats) {
    oldSeats.querySelectorAll("select").forEach(function (old) {
      var select = newSeats.querySelector('select[name="' + old.name + '"]');
      if (!select || !old.value) { return; }
      var allowed = Array.prototype.some.call(select.options, function (o) { return o.value === old.value; });
      if (allowed) { select.value = old.value; }
    });
    var more = newSeats.querySelector("details.more-seats");
    if (more && Array.prototype.some.call(more.querySelectorAll("select"), function (s) { return s.value; })) {
      more.open = true;
    }
  }

  function redrawSeats(template) {
    document.querySelectorAll(".seat-players").forEach(function (oldSeats) {
      var holder = document.createElement("div");
      holder.innerHTML = template.innerHTML.split(SEATS_PLACEHOLDER).join(fieldName(oldSeats));
      var newSeats = holder.querySelector(".seat-players");
      if (!newSeats) { return; }
      keepChoices(oldSeats, newSeats);
      oldSeats.replaceWith(newSeats);
    });
  }

  function redraw(select) {
    var oldTable = document.getElementById("id_rounds");
    var rows = oldTable ? oldTable.tBodies[0].rows.length : 0;
    var query = new URLSearchParams({game_id: select.value});
    if (rows) { query.set("rows", String(rows)); }
    var form = select.form;
    form.setAttribute("aria-busy", "true");
    fetch(select.dataset.tablesUrl + "?" + query.toString(), {credentials: "same-origin"})
      .then(function (response) {
        if (!response.ok) { throw new Error("game tables: " + response.status); }
        return response.text();
      })
      .then(function (html) {
        if (select.value !== new URLSearchParams(query).get("game_id")) { return; }  // changed again meanwhile
        var drawn = new DOMParser().parseFromString(html, "text/html");
        var newTable = drawn.getElementById("id_rounds");
        if (oldTable && newTable) {
          keepTicks(oldTable, newTable);
          oldTable.replaceWith(document.adoptNode(newTable));
        }
        var template = drawn.getElementById("game-seats");
        if (template) { redrawSeats(template); }
        var marker = form.querySelector('input[name="rounds_game"]');
        if (marker) { marker.value = select.value; }
        form.dataset.tablesGame = select.value;
      })
      .catch(function () {
        // The table stays as it was: saving redraws it on the server (and says so) before anything is saved.
      })
      .finally(function () { form.removeAttribute("aria-busy"); });
  }

  document.addEventListener("change", function (event) {
    var target = event.target;
    if (target instanceof HTMLSelectElement && target.dataset.tablesUrl) { redraw(target); }
  });
})();
