/* The season page: standings (sortable, a "≥ N sessions" filter), the trend night by night (uPlot; a tap
   opens that night), who fed whom (count and money; each person's 克星 and 财神), pairs, the hands'
   statistics, the records, and a person's profile from any name. Test contract: [data-standings]
   [data-player] with data-name, data-net, data-nights; [data-matrix] [data-from][data-to] with data-count
   and data-money; [data-trend] with data-series (JSON: name → cumulative money after each night).
   Plain browser JS, no build step. */
"use strict";
(() => {
  const { tg, initData, applyTheme } = window.MiniApp;
  const TABS = ["standings", "trend", "fed", "pairs", "hands", "records"];
  const COLUMNS = ["net", "nights", "per_night", "profit_nights", "week", "skill"];
  const COLOURS = ["#e53935", "#1e88e5", "#43a047", "#fb8c00", "#8e24aa", "#00897b", "#6d4c41", "#3949ab",
                   "#c0ca33", "#d81b60"];
  const MINUS = "\u2212";
  let D = null;               // the season as the server describes it
  let sortBy = "net", sortDown = true, minNights = 0, tab = "standings", plot = null;
  const $ = (id) => document.getElementById(id);

  function tr(key, params) {
    return window.MiniApp.format(D && D.strings, key, params);
  }

  function signed(n) { return n > 0 ? "+" + n : n < 0 ? MINUS + (-n) : "0"; }
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") node.className = v;
      else if (k === "text") node.textContent = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else if (v !== null && v !== undefined) node.setAttribute(k, String(v));
    }
    for (const child of children) node.append(child);
    return node;
  }
  function money(n) { return el("span", { class: n > 0 ? "gain" : n < 0 ? "loss" : "", text: signed(n) }); }
  function nameOf(id) { const p = D.people.find((x) => x.id === id); return p ? p.name : String(id); }
  function nameButton(id) {
    return el("button", { class: "name", "data-person": id, text: nameOf(id), onclick: () => profile(id) });
  }

  async function load() {
    applyTheme();
    if (tg) { tg.ready(); tg.expand(); }
    let response, data = {};
    try {
      response = await fetch("../../api/season", { headers: { "Authorization": "tma " + initData } });
      data = await response.json();
    } catch (e) { response = { ok: false }; }
    if (!response.ok) {
      $("error").textContent = data.error || String(response.status || "");
      $("error").hidden = false;
      $("season").dataset.state = "refused";
      return;
    }
    D = data;
    document.documentElement.lang = D.lang;
    $("title").textContent = D.title;
    document.title = D.title;
    $("note").textContent = D.note;
    $("skill-note").textContent = tr("skill_note");
    $("panel-close").textContent = tr("close");
    $("panel-close").addEventListener("click", () => { $("panel").hidden = true; });
    tabs();
    filter();
    standings();
    trend();
    matrix();
    pairs();
    hands();
    records();
    show("standings");
    $("season").dataset.state = "ready";
    $("season").dataset.readyMs = String(Math.round(performance.now()));  // since the navigation began
  }

  function tabs() {
    const nav = $("tabs");
    nav.replaceChildren(...TABS.map((name) =>
      el("button", { class: "chip", "data-action": "tab-" + name, text: tr(name), onclick: () => show(name) })));
  }

  function show(name) {
    tab = name;
    for (const section of document.querySelectorAll("section[data-tab]")) {
      section.hidden = section.dataset.tab !== name;
    }
    for (const button of $("tabs").children) {
      button.classList.toggle("on", button.dataset.action === "tab-" + name);
    }
    if (name === "trend") drawTrend();
  }

  function filter() {
    const most = Math.max(0, ...D.standings.map((s) => s.nights));
    const select = $("min-nights");
    $("min-label").textContent = tr("nights");
    select.replaceChildren(el("option", { value: 0, text: tr("all") }),
      ...Array.from({ length: most }, (_, i) => el("option", { value: i + 1, text: tr("min_nights", { n: i + 1 }) })));
    select.addEventListener("change", () => { minNights = Number(select.value); standings(); });
  }

  function standings() {
    const head = $("standings-head");
    head.replaceChildren(el("th", { text: tr("name") }), ...COLUMNS.map((key) => el("th", {},
      el("button", { class: key === sortBy ? "on" : "", "data-sort": key,
        text: tr(key === "net" ? "money" : key) + (key === sortBy ? (sortDown ? " ↓" : " ↑") : ""),
        onclick: () => { sortDown = key === sortBy ? !sortDown : true; sortBy = key; standings(); } }))));
    const rows = D.standings.filter((s) => s.nights >= minNights).slice();
    rows.sort((a, b) => ((b[sortBy] ?? -Infinity) - (a[sortBy] ?? -Infinity)) * (sortDown ? 1 : -1) || a.id - b.id);
    $("standings").tBodies[0].replaceChildren(...rows.map((s) => el("tr",
      { "data-player": s.id, "data-name": s.name, "data-net": s.net, "data-nights": s.nights },
      el("td", {}, nameButton(s.id)), el("td", {}, money(s.net)), el("td", { text: s.nights }),
      el("td", {}, s.per_night === null ? "—" : money(s.per_night)), el("td", { text: s.profit_nights }),
      el("td", {}, money(s.week)), el("td", { "data-skill": s.skill ?? "", text: s.skill === null ? "—" : s.skill.toFixed(1) }))));
  }

  function trend() {
    $("trend").dataset.series = JSON.stringify(D.trend);
    $("trend-nights").replaceChildren(...D.nights.map((night) =>
      el("button", { class: "chip", "data-night": night.n, text: tr("night", { n: night.n }),
        onclick: () => openNight(night.n) })));
  }

  function drawTrend() {
    const box = $("trend");
    if (plot || !window.uPlot || !D.nights.length) return;
    const names = Object.keys(D.trend);
    const xs = D.nights.map((n) => n.n);
    const opts = {
      width: Math.max(280, box.clientWidth || 340), height: 240,
      scales: { x: { time: false } },
      legend: { live: false },
      axes: [{ stroke: getComputedStyle(document.body).color, incrs: [1, 2, 5, 10, 20, 50] },
             { stroke: getComputedStyle(document.body).color }],
      series: [{}, ...names.map((name, i) => ({ label: name, stroke: COLOURS[i % COLOURS.length], width: 2,
        points: { show: xs.length <= 40 } }))],
    };
    plot = new uPlot(opts, [xs, ...names.map((name) => D.trend[name])], box);
    plot.over.addEventListener("click", () => {
      const idx = plot.cursor.idx;
      if (idx !== null && idx !== undefined) openNight(xs[idx]);
    });
  }

  function openNight(n) {
    const night = D.nights.find((x) => x.n === n);
    if (!night) return;
    const rows = Object.entries(night.money).map(([id, amount]) => [Number(id), amount]).sort((a, b) => b[1] - a[1]);
    panel(el("div", { "data-night-panel": n },
      el("h2", { text: tr("night", { n }) + " · " + night.date }),
      el("ul", { class: "list" }, ...rows.map(([id, amount]) => el("li", {}, nameButton(id), " ", money(amount))))));
  }

  function panel(content) {
    $("panel-body").replaceChildren(content);
    $("panel").hidden = false;
  }

  function matrix() {
    const ids = D.standings.filter((s) => s.nights > 0).map((s) => s.id);
    const fed = new Map(D.fed.map((f) => [f.from + ":" + f.to, f]));
    const table = $("matrix");
    table.replaceChildren(
      el("thead", {}, el("tr", {}, el("th", { text: tr("from_to") }), ...ids.map((id) => el("th", {}, nameButton(id))))),
      el("tbody", {}, ...ids.map((from) => el("tr", {}, el("th", {}, nameButton(from)), ...ids.map((to) => {
        if (from === to) return el("td", { class: "self" });
        const f = fed.get(from + ":" + to) || { count: 0, money: 0 };
        return el("td", { "data-from": nameOf(from), "data-to": nameOf(to), "data-count": f.count,
          "data-money": f.money, text: f.count ? tr("count_money", { count: f.count, money: f.money }) : "·" });
      })))));
    $("foes").replaceChildren(...ids.map((id) => {
      const nemesis = best(D.fed.filter((f) => f.from === id), "to");
      const patron = best(D.fed.filter((f) => f.to === id), "from");
      return el("li", {}, nameButton(id), " · ", tr("nemesis", { name: nemesis ? nameOf(nemesis) : "—" }),
        " · ", tr("patron", { name: patron ? nameOf(patron) : "—" }));
    }));
  }

  function best(rows, key) {
    let top = null;
    for (const row of rows) if (!top || row.money > top.money || (row.money === top.money && row.count > top.count)) top = row;
    return top ? top[key] : null;
  }

  function pairs() {
    const ids = D.standings.filter((s) => s.nights > 0).map((s) => s.id);
    for (const [select, i] of [[$("pair-a"), 0], [$("pair-b"), 1]]) {
      select.replaceChildren(...ids.map((id) => el("option", { value: id, text: nameOf(id) })));
      if (ids[i] !== undefined) select.value = ids[i];
      select.addEventListener("change", pair);
    }
    pair();
    $("pairs").tBodies[0].replaceChildren(...D.pairs.map((p) => el("tr", { "data-pair": p.a + ":" + p.b },
      el("td", {}, nameButton(p.a), " · ", nameButton(p.b)), el("td", { text: p.nights }), el("td", {}, money(p.money)))));
  }

  function pair() {
    const a = Number($("pair-a").value), b = Number($("pair-b").value);
    const found = D.pairs.find((p) => (p.a === a && p.b === b) || (p.a === b && p.b === a));
    const paid = found ? (found.a === a ? found.money : -found.money) : 0;
    $("pair").replaceChildren(el("div", {}, tr("together") + ": " + (found ? found.nights : 0)),
      el("div", {}, tr("between") + ": " + nameOf(a) + " ", money(paid)));
  }

  function hands() {
    const keys = ["hands", "wins", "self_draws", "fed_wins", "dealer_wins", "draws", "baozi"];
    $("hands").replaceChildren(...keys.map((key) =>
      el("li", { "data-stat": key }, tr(key) + ": " + (D.hands[key] || 0))));
    const rows = Object.entries(D.hua).map(([id, h]) => el("li", {}, nameButton(Number(id)),
      " · " + tr("hua_per_win") + " " + (h.wins ? (h.hua / h.wins).toFixed(1) : "—")));
    const total = {};
    for (const found of Object.values(D.patterns)) {
      for (const [name, count] of Object.entries(found)) total[name] = (total[name] || 0) + count;
    }
    const patterns = Object.entries(total).sort((a, b) => b[1] - a[1]).map(([name, count]) =>
      el("li", { "data-pattern": name, text: name + " × " + count }));
    $("hua").replaceChildren(el("ul", { class: "list" }, ...rows), el("h3", { text: tr("patterns") }),
      el("ul", { class: "list" }, ...patterns));
  }

  function records() {
    $("records").replaceChildren(...D.records.map((r) => el("li", { "data-record": r.key }, r.text,
      r.night ? " · " : "", r.night ? el("button", { class: "link", text: r.hand
        ? tr("hand_at", { night: r.night, hand: r.hand }) : tr("night", { n: r.night }),
        onclick: () => openNight(r.night) }) : "")));
  }

  function profile(id) {
    const s = D.standings.find((x) => x.id === id);
    if (!s) return;
    const nights = D.nights.filter((n) => String(id) in n.money);
    const patterns = Object.entries(D.patterns[String(id)] || {}).sort((a, b) => b[1] - a[1]);
    const partners = D.pairs.filter((p) => p.a === id || p.b === id)
      .map((p) => ({ other: p.a === id ? p.b : p.a, nights: p.nights, money: p.a === id ? p.money : -p.money }));
    panel(el("div", { "data-profile": s.name },
      el("h2", { text: s.name }),
      el("div", {}, tr("money") + " ", money(s.net), " · " + tr("nights") + " " + s.nights),
      el("div", {}, tr("wins") + " " + s.wins + " · " + tr("self_draws") + " " + s.self_draws),
      el("h3", { text: tr("nights") }),
      el("ul", { class: "list" }, ...nights.map((n) => el("li", {}, el("button", { class: "link",
        text: tr("night", { n: n.n }), onclick: () => openNight(n.n) }), " " + n.date + " ", money(n.money[String(id)])))),
      el("h3", { text: tr("patterns") }),
      el("ul", { class: "list" }, ...patterns.map(([name, count]) => el("li", { text: name + " × " + count }))),
      el("h3", { text: tr("partners") }),
      el("ul", { class: "list" }, ...partners.map((p) => el("li", {}, nameButton(p.other),
        " · " + p.nights + " · ", money(p.money))))));
  }

  window.addEventListener("load", () => { if (D && tab === "trend") drawTrend(); });  // uPlot came after
  load();
})();
