// Stepping the replay without reloading: buttons, arrow keys and the slider change the image
// and its caption; the address keeps the step (?step=N) so a link opens the same step.
"use strict";
(function () {
  var box = document.getElementById("replay");
  if (!box) { return; }
  var base = box.dataset.base, version = box.dataset.version;
  var last = parseInt(box.dataset.last, 10);
  var image = document.getElementById("replay-image");
  var caption = document.getElementById("replay-caption");
  var slider = document.getElementById("replay-slider");
  var step = parseInt(slider.value, 10);
  var lines = {};
  document.querySelectorAll("#history li[data-step]").forEach(function (li) {
    lines[li.dataset.step] = li;
  });

  function show(n, push) {
    step = Math.max(0, Math.min(last, n));
    image.src = base + "/img/" + step + "-0.png?v=" + version;
    image.alt = "The board after step " + step;
    var line = lines[String(step)];
    caption.textContent = "Step " + step + " of " + last + ": " +
      (step === 0 ? "the setup." : (line ? line.textContent.replace(/^\d+\.\s*/, "") : ""));
    slider.value = String(step);
    document.querySelectorAll("#history li.current").forEach(function (li) {
      li.classList.remove("current");
    });
    if (line) { line.classList.add("current"); }
    var links = { first: 0, prev: Math.max(step - 1, 0), next: Math.min(step + 1, last),
                  last: last };
    Object.keys(links).forEach(function (id) {
      var a = document.getElementById(id);
      a.dataset.step = String(links[id]);
      a.href = base + "?step=" + links[id] + "#replay";
    });
    box.dataset.step = String(step);
    if (push) { history.replaceState(null, "", base + "?step=" + step + "#replay"); }
  }

  document.querySelectorAll("#replay a.step").forEach(function (a) {
    a.addEventListener("click", function (event) {
      event.preventDefault();
      show(parseInt(a.dataset.step, 10), true);
    });
  });
  slider.addEventListener("input", function () { show(parseInt(slider.value, 10), true); });
  document.addEventListener("keydown", function (event) {
    if (event.target && event.target.tagName === "INPUT") { return; }  // the slider steps itself
    if (event.key === "ArrowRight") { event.preventDefault(); show(step + 1, true); }
    if (event.key === "ArrowLeft") { event.preventDefault(); show(step - 1, true); }
    if (event.key === "Home") { event.preventDefault(); show(0, true); }
    if (event.key === "End") { event.preventDefault(); show(last, true); }
  });
  box.dataset.ready = "1";
  show(step, false);
})();
