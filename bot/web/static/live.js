// A new move shown without a reload: the table's event stream says when its version moves;
// the page is then read again and its changing parts swapped in (the replay script does it).
// A reader at the last step sees the new one; one further back is offered it.
"use strict";
(function () {
  var cue = document.getElementById("live");
  if (!cue || !window.EventSource || !window.fetch || !window.DOMParser) { return; }
  var version = cue.dataset.version;
  var source = new EventSource(cue.dataset.events);
  var reading = false, again = false, quiet = 0;

  function say(text, step) {
    cue.textContent = text;
    if (step !== undefined) {
      var button = document.createElement("button");
      button.type = "button";
      button.textContent = "Show step " + step;
      button.addEventListener("click", function () {
        window.tabulaReplay.show(step);
        cue.hidden = true;
      });
      cue.appendChild(document.createTextNode(" "));
      cue.appendChild(button);
    }
    cue.hidden = false;
    clearTimeout(quiet);
    if (step === undefined) { quiet = setTimeout(function () { cue.hidden = true; }, 8000); }
  }

  function read() {
    reading = true;
    fetch(location.pathname, { cache: "no-store" }).then(function (answer) {
      if (!answer.ok) { throw new Error(String(answer.status)); }
      return answer.text();
    }).then(function (text) {
      var doc = new DOMParser().parseFromString(text, "text/html");
      var fresh = doc.getElementById("live");
      if (!window.tabulaReplay || !doc.getElementById("replay") ||
          !document.getElementById("replay")) {
        location.reload();  // a game just started: its page is another shape
        return;
      }
      var done = window.tabulaReplay.refresh(doc);
      if (fresh) { version = fresh.dataset.version; } else { source.close(); }
      var over = fresh ? "" : " The game is over.";
      if (done.shown) { say("New move: step " + done.last + "." + over); }
      else { say("New move: step " + done.last + "." + over, done.last); }
    }).catch(function () {
      // The next event, or the reconnection's first, tries again.
    }).then(function () {
      reading = false;
      if (again) { again = false; read(); }
    });
  }

  source.addEventListener("version", function (event) {
    var data = JSON.parse(event.data);
    if (String(data.version) === version) { return; }
    if (reading) { again = true; } else { read(); }
  });
})();
