// The new-match form shows only the seats of the chosen number of players. Each seat's field carries its index
// (data-seat); the seats at or beyond the number chosen in the Players select (data-seat-count) are hidden and
// disabled, so they are neither seen, reached with Tab nor sent. Without this script every seat shows and the server
// ignores the seats beyond the number (NewMatchForm.controllers). A game with a fixed number of seats has no Players
// select, and then nothing here runs.
(function () {
  "use strict";

  const form = document.getElementById("new-match");
  const players = form && form.querySelector("select[data-seat-count]");
  if (!players) return;

  function showChosenSeats() {
    const count = Number(players.value);
    form.querySelectorAll("[data-seat]").forEach(function (seat) {
      const unused = Number(seat.getAttribute("data-seat")) >= count;
      seat.hidden = unused;
      seat.querySelectorAll("select, input").forEach(function (control) {
        control.disabled = unused;
      });
    });
  }

  players.addEventListener("change", showChosenSeats);
  // Coming back to the page (Back, or from the back-forward cache), the browser may restore an earlier choice.
  window.addEventListener("pageshow", showChosenSeats);
  showChosenSeats();
})();
