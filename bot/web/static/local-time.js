// Each <time class="local"> (UTC in the page) shown in the reader's own time zone; again for
// the parts a live move swaps in (tabulaLocalTimes).
"use strict";
window.tabulaLocalTimes = function (root) {
  root.querySelectorAll("time.local").forEach(function (el) {
    var moment = new Date(el.getAttribute("datetime"));
    if (isNaN(moment)) { return; }
    var zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    el.textContent = moment.toLocaleString(undefined, {
      weekday: "short", year: "numeric", month: "short", day: "numeric",
      hour: "2-digit", minute: "2-digit", timeZoneName: "short"
    });
    el.title = moment.toISOString() + " (" + zone + ")";
  });
};
window.tabulaLocalTimes(document);
