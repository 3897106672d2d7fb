// The sentences view of a gecformats report: filters over the embedded data, drawn in
// blocks of sentences, each block only while it is near the screen.
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("data").textContent);
  var SYSTEMS = D.systems, TYPES = D.types, SENT = D.sentences, LINKS = D.links || [];
  var BLOCK = 20;
  var $ = function (id) { return document.getElementById(id); };
  var state = { system: -1, type: -1, outcome: "", q: "", differ: false, side: false, a: 0,
                b: Math.min(1, SYSTEMS.length - 1) };
  var filtered = [];
  var observer = null;
  var tokens = SENT.map(function (s) { return s[0].split(" "); });

  function esc(text) {
    return String(text).replace(/[&<>"]/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c];
    });
  }
  function hyp(sent, s) { var h = sent[2][s][0]; return h === 0 ? sent[0] : h; }
  function goldOf(sent, r) { return r[1] >= 0 ? sent[1][r[1]][1] : []; }

  // does system s's result on sentence i have an edit of the chosen type and outcome?
  function systemMatches(sent, s) {
    var r = sent[2][s], type = state.type, outcome = state.outcome;
    if (type < 0 && outcome === "") return true;
    var gold = goldOf(sent, r), matched = r[6], j, k;
    if (outcome !== "FP") {  // the gold side: an edit of the type, matched (TP) or missed (FN)
      for (j = 0; j < gold.length; j++) {
        if (type >= 0 && gold[j][3] !== type) continue;
        var hit = matched.indexOf(j) >= 0;
        if (outcome === "" || (outcome === "TP") === hit) return true;
      }
    }
    if (type < 0 && (outcome === "TP" || outcome === "FP")) {
      for (k = 0; k < r[5].length; k++) {
        if ((r[5][k][3] > 0) === (outcome === "TP")) return true;
      }
    }
    return false;
  }

  function sentenceMatches(i) {
    var sent = SENT[i], s;
    if (state.differ && hyp(sent, state.a) === hyp(sent, state.b)) return false;
    var shown = shownSystems();
    if (state.q) {
      var q = state.q, found = sent[0].toLowerCase().indexOf(q) >= 0;
      for (s = 0; !found && s < shown.length; s++) found = hyp(sent, shown[s]).toLowerCase().indexOf(q) >= 0;
      if (!found) return false;
    }
    for (s = 0; s < shown.length; s++) if (systemMatches(sent, shown[s])) return true;
    return false;
  }

  function shownSystems() {
    if (state.side) return [state.a, state.b];
    if (state.system >= 0) return [state.system];
    return SYSTEMS.map(function (_, s) { return s; });
  }

  function edit(cls, start, end, orig, corr, type) {
    return '<span class="e ' + cls + '"><b>' + cls.toUpperCase().replace("HIT", "gold") + "</b>" +
      start + ":" + end + " " + esc(orig || "\u2205") + " \u2192 " + esc(corr || "\u2205") +
      (type ? "<i>" + esc(type) + "</i>" : "") + "</span>";
  }

  function systemHtml(i, s) {
    var sent = SENT[i], r = sent[2][s], toks = tokens[i], gold = goldOf(sent, r);
    var link = LINKS[s] && LINKS[s][i], note = "";
    if (link) {  // --align: this sentence's text came from a link that is not one line for one sentence
      var lines = link[2] > link[1] ? "lines " + link[1] + "\u2013" + link[2] : link[2] === link[1] ? "line " + link[1] : "no line";
      note = '<div class="link" title="' + esc(link[3].join("\n")) + '">aligned: ' + esc(link[0]) + " (hypothesis " +
        lines + ")" + (link[3].length ? ": " + esc(link[3].join(" \u00b7 ").slice(0, 200)) : "") + "</div>";
    }
    var h = r[0] === 0 ? '<div class="hyp same">(source unchanged)' + note + "</div>" :
      '<div class="hyp">' + esc(r[0]) + note + "</div>";
    var parts = ['<div class="sys" data-system="' + s + '"><div class="who"><span class="name">' + esc(SYSTEMS[s]) + "</span>",
      '<span class="ann" title="the annotator the scorer chose">ann. ' + (r[1] >= 0 ? sent[1][r[1]][0] : "none") + "</span>",
      '<span class="cnt" title="correct / proposed / gold">c/p/g ' + r[2] + "/" + r[3] + "/" + r[4] + "</span></div>", h,
      '<div class="edits">'];
    r[5].forEach(function (e) {
      var type = "";
      r[6].forEach(function (j) { if (!type && gold[j][0] === e[0] && gold[j][1] === e[1]) type = TYPES[gold[j][3]]; });
      parts.push(edit(e[3] > 0 ? "tp" : "fp", e[0], e[1], toks.slice(e[0], e[1]).join(" "), e[2], type));
    });
    gold.forEach(function (g, j) {
      parts.push(edit(r[6].indexOf(j) >= 0 ? "hit" : "fn", g[0], g[1], toks.slice(g[0], g[1]).join(" "),
                      g[2].split("||").join(" | "), TYPES[g[3]]));
    });
    parts.push("</div></div>");
    return parts.join("");
  }

  function sentenceHtml(i) {
    var shown = shownSystems();
    return '<div class="sent" data-n="' + (i + 1) + '"><div class="src"><span class="num">#' + (i + 1) +
      "</span>" + esc(SENT[i][0]) + '</div><div class="rows' + (state.side ? " side" : "") + '">' +
      shown.map(function (s) { return systemHtml(i, s); }).join("") + "</div></div>";
  }

  function estimate(count) { return count * (46 + 58 * (state.side ? 1 : shownSystems().length)); }

  function draw() {
    filtered = [];
    for (var i = 0; i < SENT.length; i++) if (sentenceMatches(i)) filtered.push(i);
    $("count").textContent = filtered.length + " of " + SENT.length + " sentences" +
      (state.type >= 0 && state.outcome === "FP" ? ": false positives carry no " +
       "gold type; set Gold type to any to list them" : "");
    var list = $("list");
    if (observer) observer.disconnect();
    list.innerHTML = "";
    observer = new IntersectionObserver(onVisible, { rootMargin: "1200px 0px" });
    for (var b = 0; b < filtered.length; b += BLOCK) {
      var block = document.createElement("div");
      block.className = "block";
      block.dataset.first = b;
      block.style.height = estimate(Math.min(BLOCK, filtered.length - b)) + "px";
      list.appendChild(block);
      observer.observe(block);
    }
  }

  function onVisible(entries) {
    entries.forEach(function (entry) {
      var block = entry.target, first = +block.dataset.first;
      if (entry.isIntersecting && !block.dataset.drawn) {
        var html = [];
        for (var k = first; k < Math.min(first + BLOCK, filtered.length); k++) html.push(sentenceHtml(filtered[k]));
        block.innerHTML = html.join("");
        block.style.height = "";
        block.dataset.drawn = "1";
      } else if (!entry.isIntersecting && block.dataset.drawn) {
        block.style.height = block.offsetHeight + "px";  // keeps the scroll position
        block.innerHTML = "";
        delete block.dataset.drawn;
      }
    });
  }

  function read() {
    state.system = +$("f-system").value;
    state.type = +$("f-type").value;
    state.outcome = $("f-outcome").value;
    state.q = $("f-search").value.trim().toLowerCase();
    state.a = +$("f-a").value;
    state.b = +$("f-b").value;
    state.differ = $("f-differ").checked;
    state.side = $("f-side").checked;
    draw();
  }

  function show(view) {
    document.querySelectorAll(".view").forEach(function (v) { v.classList.toggle("active", v.id === view); });
    document.querySelectorAll("#tabs a").forEach(function (a) { a.classList.toggle("active", a.dataset.view === view); });
  }

  function init() {
    document.documentElement.classList.add("js");
    var types = TYPES.map(function (t, k) { return [t, k]; }).sort(function (x, y) { return x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0; });
    $("f-type").insertAdjacentHTML("beforeend", types.map(function (t) {
      return '<option value="' + t[1] + '">' + esc(t[0]) + "</option>";
    }).join(""));
    ["f-system", "f-type", "f-outcome", "f-a", "f-b", "f-differ", "f-side"].forEach(function (id) {
      $(id).addEventListener("change", read);
    });
    var timer = null;
    $("f-search").addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(read, 150); });
    document.querySelectorAll("#heatmap .cell").forEach(function (cell) {
      cell.addEventListener("click", function () {
        $("f-system").value = cell.dataset.system;
        $("f-type").value = TYPES.indexOf(cell.dataset.type);
        $("f-outcome").value = "";
        $("f-side").checked = false;  // one system: the cell's
        location.hash = "#sentences";
        read();
      });
    });
    window.addEventListener("hashchange", function () { show(location.hash === "#sentences" ? "sentences" : "overview"); });
    show(location.hash === "#sentences" ? "sentences" : "overview");
    read();
    window.gecReport = { state: state, filtered: function () { return filtered.slice(); }, read: read, show: show };
    document.body.dataset.ready = "1";
  }

  init();
})();
