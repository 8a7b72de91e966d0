// warnscope report: the filter boxes and the flag search. Plain DOM, no innerHTML.
(function () {
  "use strict";
  var filter = document.getElementById("filter");
  if (filter) {
    var targets = document.querySelectorAll(filter.getAttribute("data-filter")), rows = [];
    for (var t = 0; t < targets.length; t++) {
      rows = rows.concat(Array.prototype.slice.call(targets[t].querySelectorAll("tbody tr, li")));
    }
    var count = document.getElementById("filter-count");
    filter.addEventListener("input", function () {
      var q = filter.value.trim().toLowerCase(), shown = 0;
      for (var i = 0; i < rows.length; i++) {
        var hit = !q || rows[i].textContent.toLowerCase().indexOf(q) !== -1;
        rows[i].hidden = !hit;
        if (hit) shown++;
      }
      if (count) count.textContent = q ? shown + " of " + rows.length : "";
    });
  }
  // A wide table's wrapper says that it scrolls sideways (the shadows of style.css show where).
  var wrappers = document.querySelectorAll(".scroll");
  function hints() {
    for (var w = 0; w < wrappers.length; w++) {
      var box = wrappers[w], hint = box.previousElementSibling;
      var has = hint && hint.className === "scroll-hint";
      var wide = box.scrollWidth > box.clientWidth + 1;
      if (wide && !has) {
        hint = document.createElement("p");
        hint.className = "scroll-hint";
        hint.textContent = "wider than the screen: scroll sideways →";
        box.parentNode.insertBefore(hint, box);
      } else if (!wide && has) {
        hint.parentNode.removeChild(hint);
      }
    }
  }
  hints();
  window.addEventListener("resize", hints);
  var search = document.getElementById("search");
  var results = document.getElementById("search-results");
  if (search && results && window.WARNSCOPE_FLAGS) {
    var names = window.WARNSCOPE_FLAGS, root = search.getAttribute("data-root") || "";
    search.addEventListener("input", function () {
      var q = search.value.trim().toLowerCase().replace(/^-+/, "");
      while (results.firstChild) results.removeChild(results.firstChild);
      if (!q) return;
      var exact = [], rest = [];
      for (var i = 0; i < names.length; i++) {
        var n = names[i][0].toLowerCase().replace(/^-+/, "");
        if (n.indexOf(q) === -1) continue;
        (n === q || n === "w" + q || n.indexOf("w" + q) === 0 ? exact : rest).push(names[i]);
      }
      var hits = exact.concat(rest).slice(0, 50);
      for (var j = 0; j < hits.length; j++) {
        var li = document.createElement("li"), a = document.createElement("a");
        a.href = root + "flags/" + hits[j][1] + ".html";
        a.textContent = hits[j][0];
        a.className = "flag";
        li.appendChild(a);
        results.appendChild(li);
      }
      if (!hits.length) {
        var none = document.createElement("li");
        none.textContent = "no flag matches";
        results.appendChild(none);
      }
    });
  }
})();
