// hindsight console: keyboard shortcuts and "select all" (the pages work without JavaScript).
// "/" focuses search, j/k move between results, Enter opens the selected one, x ticks its checkbox for the bulk
// form, [ and ] go to the previous / next page, g then b/q/h switches pages.
(function () {
  "use strict";
  var hits = Array.prototype.slice.call(document.querySelectorAll(".hit"));
  var current = -1;
  var pendingG = false;
  function select(i) {
    if (!hits.length) return;
    current = Math.max(0, Math.min(hits.length - 1, i));
    hits.forEach(function (h, j) { h.classList.toggle("selected", j === current); });
    hits[current].focus();
  }
  function picks() { return Array.prototype.slice.call(document.querySelectorAll("input.pick")); }
  var all = document.getElementById("pick-all");
  if (all) {
    document.getElementById("pick-all-label").hidden = false;
    all.addEventListener("change", function () { picks().forEach(function (p) { p.checked = all.checked; }); });
    picks().forEach(function (p) {
      p.addEventListener("change", function () { all.checked = picks().every(function (q) { return q.checked; }); });
    });
  }
  function follow(id) {
    var link = document.getElementById(id);
    if (link) window.location.href = link.getAttribute("href");
  }
  document.addEventListener("keydown", function (e) {
    var tag = (e.target && e.target.tagName) || "";
    if (/INPUT|TEXTAREA|SELECT|BUTTON/.test(tag) || e.ctrlKey || e.metaKey || e.altKey) return;
    if (pendingG) {
      pendingG = false;
      var dest = {b: "/console", q: "/console/queues", h: "/console/health"}[e.key];
      if (dest) { window.location.href = dest; e.preventDefault(); }
      return;
    }
    if (e.key === "/") { var q = document.getElementById("q"); if (q) { q.focus(); e.preventDefault(); } }
    else if (e.key === "j") { select(current + 1); e.preventDefault(); }
    else if (e.key === "k") { select(current - 1); e.preventDefault(); }
    else if (e.key === "x" && current >= 0) {
      var box = hits[current].querySelector("input.pick");
      if (box) { box.checked = !box.checked; box.dispatchEvent(new Event("change")); e.preventDefault(); }
    }
    else if (e.key === "[") { follow("prev"); }
    else if (e.key === "]") { follow("next"); }
    else if (e.key === "Enter" && current >= 0) {
      var link = hits[current].querySelector("a.open");
      if (link) { window.location.href = link.getAttribute("href"); e.preventDefault(); }
    }
    else if (e.key === "g") { pendingG = true; }
  });
})();
