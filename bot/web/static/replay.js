// Stepping the replay without reloading: buttons, arrow keys and the slider change the images
// and the caption; the address keeps the step (?step=N) so a link opens the same step.
// What a step shows (its caption, every image and their alt texts) comes from the server
// (step/N.json), the same as a page opened at ?step=N: one definition of each. A history
// line opens its step in place; the next step's images are fetched ahead, so "Next" is quick.
// A swipe on the board steps too; the score chart's marker follows the step. Live moves
// (live.js) swap in the parts of the page a move changes through tabulaReplay.refresh.
"use strict";
(function () {
  var box = document.getElementById("replay");
  if (!box) { return; }
  var base = box.dataset.base;
  var last = parseInt(box.dataset.last, 10);
  var images = document.getElementById("replay-images");
  var caption = document.getElementById("replay-caption");
  var slider = document.getElementById("replay-slider");
  var step = parseInt(slider.value, 10);
  var asked = 0;  // the latest request: an older answer arriving late is dropped

  function marker(n) {
    var svg = document.getElementById("chart-svg");
    var line = document.getElementById("chart-step");
    if (!svg || !line) { return; }
    var x = parseFloat(svg.dataset.left) +
      parseFloat(svg.dataset.width) * n / Math.max(1, parseInt(svg.dataset.last, 10));
    line.setAttribute("x1", x.toFixed(1));
    line.setAttribute("x2", x.toFixed(1));
  }

  function mark(n) {
    document.querySelectorAll("#history li.current").forEach(function (li) {
      li.classList.remove("current");
    });
    // Every line of the step's move: a move may be told in several.
    var lines = document.querySelectorAll('#history li[data-step="' + n + '"]');
    lines.forEach(function (li) { li.classList.add("current"); });
    // Beside the board the history scrolls in its own box: its current line kept in view
    // there, never by scrolling the page.
    var list = document.getElementById("history");
    if (lines.length && list && getComputedStyle(list).overflowY === "auto") {
      var top = lines[0].offsetTop, bottom = top + lines[0].offsetHeight;
      if (top < list.scrollTop || bottom > list.scrollTop + list.clientHeight) {
        list.scrollTop = Math.max(0, top - list.clientHeight / 3);
      }
    }
  }

  function draw(data) {
    caption.textContent = data.caption;
    var shown = images.querySelectorAll("img");
    data.images.forEach(function (image, k) {
      var img = shown[k];
      if (!img) {
        img = document.createElement("img");
        images.appendChild(img);
      }
      img.src = image.src;
      img.alt = image.alt;
    });
    for (var k = data.images.length; k < shown.length; k++) { images.removeChild(shown[k]); }
    mark(data.step);
    marker(data.step);
    box.dataset.step = String(data.step);
    if (data.step < last) { preload(data.step + 1); }
  }

  var preloaded = {};
  function preload(n) {
    if (preloaded[n]) { return; }
    preloaded[n] = true;
    fetch(base + "/step/" + n + ".json").then(function (answer) {
      return answer.ok ? answer.json() : null;
    }).then(function (data) {
      if (!data) { return; }
      data.images.forEach(function (image) { new Image().src = image.src; });
    }).catch(function () { preloaded[n] = false; });
  }

  function show(n, push) {
    step = Math.max(0, Math.min(last, n));
    slider.value = String(step);
    var links = { first: 0, prev: Math.max(step - 1, 0), next: Math.min(step + 1, last),
                  last: last };
    Object.keys(links).forEach(function (id) {
      var a = document.getElementById(id);
      a.dataset.step = String(links[id]);
      a.href = base + "?step=" + links[id] + "#replay";
    });
    if (push) { history.replaceState(null, "", base + "?step=" + step + "#replay"); }
    var mine = ++asked;
    fetch(base + "/step/" + step + ".json").then(function (answer) {
      if (!answer.ok) { throw new Error(String(answer.status)); }
      return answer.json();
    }).then(function (data) {
      if (mine === asked) { draw(data); }
    }).catch(function () {
      // The page is still right at its own step: a reload (the address has it) shows this one.
      if (mine === asked) { caption.textContent = "Step " + step + " could not be loaded."; }
    });
  }

  function typing(target) {
    if (!target || !target.tagName) { return false; }
    return target.isContentEditable ||
      ["INPUT", "TEXTAREA", "SELECT", "BUTTON"].indexOf(target.tagName) >= 0;
  }

  document.querySelectorAll("#replay a.step").forEach(function (a) {
    a.addEventListener("click", function (event) {
      event.preventDefault();
      show(parseInt(a.dataset.step, 10), true);
    });
  });
  // On the document: the history is swapped for a new one when a move comes live.
  document.addEventListener("click", function (event) {
    var a = event.target.closest ? event.target.closest("#history a.to-step") : null;
    if (!a || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) { return; }
    event.preventDefault();
    show(parseInt(a.dataset.step, 10), true);
    // On a phone the board is above the history: back up to it. Beside it, it is in view.
    var top = box.getBoundingClientRect().top;
    if (top < 0 || top > window.innerHeight / 2) { box.scrollIntoView({ block: "start" }); }
  });
  // A swipe across the board: left for the next step, right for the one before.
  var touch = null;
  images.addEventListener("touchstart", function (event) {
    touch = event.touches.length === 1 ?
      { x: event.touches[0].clientX, y: event.touches[0].clientY } : null;
  }, { passive: true });
  images.addEventListener("touchend", function (event) {
    if (!touch || event.changedTouches.length !== 1) { return; }
    var dx = event.changedTouches[0].clientX - touch.x;
    var dy = event.changedTouches[0].clientY - touch.y;
    touch = null;
    if (Math.abs(dx) > 50 && Math.abs(dx) > 2 * Math.abs(dy)) { show(step + (dx < 0 ? 1 : -1), true); }
  });
  // The slider steps itself (arrows, Home, End, dragging): only its value is followed here.
  slider.addEventListener("input", function () { show(parseInt(slider.value, 10), true); });
  document.addEventListener("keydown", function (event) {
    // Alt+arrow is the browser's back and forward, Home and End scroll: only plain arrows,
    // and not while a form's control has the keys.
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey ||
        event.shiftKey || typing(event.target)) { return; }
    if (event.key === "ArrowRight") { event.preventDefault(); show(step + 1, true); }
    if (event.key === "ArrowLeft") { event.preventDefault(); show(step - 1, true); }
  });
  // A live move: the parts it changed, from the page read again (doc); the reader at the
  // last step goes on to the new one.
  function refresh(doc) {
    ["status", "summary", "history", "chart-box", "seats"].forEach(function (id) {
      var now = document.getElementById(id), fresh = doc.getElementById(id);
      if (now && fresh) {
        var copy = document.importNode(fresh, true);
        now.replaceWith(copy);
        if (window.tabulaLocalTimes) { window.tabulaLocalTimes(copy); }
      }
    });
    var fresh = doc.getElementById("replay");
    var atLast = step === last;
    last = parseInt(fresh.dataset.last, 10);
    box.dataset.last = String(last);
    box.dataset.version = fresh.dataset.version;
    slider.max = String(last);
    preloaded = {};
    if (atLast) { show(last, true); } else { show(step, false); }
    return { shown: atLast, last: last };
  }
  window.tabulaReplay = { refresh: refresh, show: function (n) { show(n, true); } };

  mark(step);
  if (step < last) { preload(step + 1); }
  box.dataset.ready = "1";
})();
