// The turn cue of a match page: while it is this seat's turn (#status.your-turn, drawn by the server), the tab's
// title starts with "Your turn", so a person in another tab sees it; with the sound switched on (the page's
// "Sound when it is my turn" box, remembered in this browser), a short tone plays when the turn arrives.
(function () {
  "use strict";

  const PREFIX = "(Your turn) ";
  const SOUND_KEY = "strategic-play:turn-sound";
  let wasMyTurn = null;
  let audio = null;

  function myTurn() {
    return !!document.querySelector("#status.your-turn") && !document.getElementById("result");
  }

  function soundOn() {
    try {
      return window.localStorage.getItem(SOUND_KEY) === "on";
    } catch (error) {
      return false;  // storage refused (private mode): no sound
    }
  }

  function tone() {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    audio = audio || new Context();
    const oscillator = audio.createOscillator();
    const gain = audio.createGain();
    oscillator.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.35);
    oscillator.connect(gain).connect(audio.destination);
    oscillator.start();
    oscillator.stop(audio.currentTime + 0.35);
  }

  function update() {
    const mine = myTurn();
    const base = document.title.startsWith(PREFIX) ? document.title.slice(PREFIX.length) : document.title;
    document.title = mine ? PREFIX + base : base;
    if (mine && wasMyTurn === false && soundOn()) tone();
    wasMyTurn = mine;
    const box = document.getElementById("turn-sound");
    if (box) box.checked = soundOn();
  }

  document.addEventListener("DOMContentLoaded", update);
  document.addEventListener("htmx:wsAfterMessage", update);
  document.addEventListener("change", function (event) {
    if (!(event.target instanceof HTMLInputElement) || event.target.id !== "turn-sound") return;
    try {
      window.localStorage.setItem(SOUND_KEY, event.target.checked ? "on" : "off");
    } catch (error) {
      event.target.checked = false;
    }
    if (event.target.checked) tone();  // a first tone now: browsers play sound only after a person's gesture
  });
})();
