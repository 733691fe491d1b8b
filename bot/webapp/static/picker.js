/* The tile picker: tap tiles into the hand or into melds, flowers, the winner and how; the server scores
   the hand as it stands and, at a table, posts it to the group's preview. No build step: plain browser JS. */
"use strict";
(() => {
  const tg = window.Telegram && window.Telegram.WebApp;
  const hash = new URLSearchParams(location.hash.slice(1));
  const initData = (tg && tg.initData) || hash.get("tgWebAppData") || "";
  const SEATS = ["E", "S", "W", "N"];
  const HOWS = ["self_draw", "discard", "rob_kong", "bao"];
  const MODES = ["concealed", "pung", "kong", "concealed_kong", "added_kong"];
  const SUIT_ORDER = "mpsz";
  let view = null;           // the table as the server describes it
  let rules = null;          // the rule set's tiles and flowers
  let S = null;              // the picked hand (state); every tap pushes the one before onto `history`
  const history = [];
  let scoreTimer = null, scoreSeq = 0;
  const $ = (id) => document.getElementById(id);

  function applyTheme() {
    let params = tg && tg.themeParams;
    if (!params || !Object.keys(params).length) {
      try { params = JSON.parse(hash.get("tgWebAppThemeParams") || "{}"); } catch (e) { params = {}; }
    }
    const root = document.documentElement.style;
    for (const [key, value] of Object.entries(params || {})) {
      root.setProperty("--tg-theme-" + key.replace(/_/g, "-"), value);
    }
  }

  function tr(key, params) {
    let text = (view && view.strings[key]) || key;
    for (const [k, v] of Object.entries(params || {})) {
      text = text.replace(new RegExp("\\{" + k + "(:p:([^|}]*)\\|([^}]*))?\\}", "g"),
        (m, spec, one, other) => (spec ? (v === 1 ? one : other) : String(v)));
    }
    return text;
  }

  async function api(method, path, body) {
    const response = await fetch(path, {
      method, headers: { "Authorization": "tma " + initData, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    let data = {};
    try { data = await response.json(); } catch (e) { data = { error: String(response.status) }; }
    return { ok: response.ok, status: response.status, data };
  }

  function fresh() {
    const me = view.seats.find((s) => s.me);
    return { concealed: [], melds: [], flowers: [], winning: null, winner: me ? me.seat : "S",
             how: "self_draw", by: null, wild: null, mode: "concealed", from: null,
             rules: rules.rules };
  }

  function tap(change) {
    history.push(JSON.stringify(S));
    change(S);
    render();
  }

  function tileButton(code, action, extra) {
    const b = document.createElement("button");
    b.className = "tile" + (extra ? " " + extra : "");
    b.dataset.tile = code;
    b.dataset.action = action;
    b.setAttribute("aria-label", TileFaces.label(code));
    b.appendChild(TileFaces.face(code));
    return b;
  }

  function chip(action, text, on) {
    const b = document.createElement("button");
    b.className = "chip" + (on ? " on" : "");
    b.dataset.action = action;
    b.textContent = text;
    return b;
  }

  function count() {
    return S.concealed.length + 3 * S.melds.length;
  }

  function copiesUsed(code) {
    let n = S.concealed.filter((t) => t === code).length;
    for (const m of S.melds) n += m.tiles === code ? m.size : 0;
    return n;
  }

  function addTile(code) {
    if (S.mode === "concealed") {
      if (copiesUsed(code) >= 4) return;
      tap((s) => { s.concealed.push(code); s.winning = s.concealed.length - 1; });
      return;
    }
    const size = S.mode === "pung" ? 3 : 4;
    if (copiesUsed(code) + size > 4) return;
    tap((s) => s.melds.push({ mode: s.mode, tiles: code, size, from: s.mode === "concealed_kong" ? null : s.from }));
  }

  function meldJSON(m) {
    const tiles = m.tiles[0].repeat(m.size) + m.tiles[1];
    const out = { type: m.size === 3 ? "pung" : "kong", tiles, exposed: m.mode !== "concealed_kong" };
    if (m.mode === "kong") out.kind = "direct";
    if (m.mode === "added_kong") out.kind = "added";
    if (m.from && out.exposed) out.from = m.from;
    return out;
  }

  function shorthand(tiles) {
    const sorted = tiles.slice().sort((a, b) =>
      SUIT_ORDER.indexOf(a[1]) - SUIT_ORDER.indexOf(b[1]) || a[0] - b[0]);
    let out = "", suit = null;
    for (const t of sorted) {
      if (suit !== null && t[1] !== suit) out += suit;
      out += t[0];
      suit = t[1];
    }
    return suit === null ? "" : out + suit;
  }

  function entry() {
    const hand = {
      concealed: shorthand(S.concealed),
      winning_tile: S.winning !== null ? S.concealed[S.winning] : null,
      melds: S.melds.map(meldJSON),
      flowers: S.flowers.slice(),
    };
    const win = { winner: S.winner, type: S.how === "bao" ? "self_draw" : S.how, hand };
    if (S.how === "bao") win.flags = { after_kong: true, kong_fed_by: S.by };
    if (S.wild) win.wild = S.wild;
    const discarder = S.how === "discard" || S.how === "rob_kong" ? S.by : null;
    return { event: "win", discarder, wins: [win] };
  }

  function inlineQuery() {
    const how = { self_draw: "自摸", discard: "冲" }[S.how] || "";
    const melds = S.melds.map((m) => {
      const j = meldJSON(m);
      return j.exposed ? "[" + j.tiles + "]" : "(" + j.tiles + ")";
    });
    const rulesWord = S.rules === "suzhou-anhui" ? "宿州" : "苏州";
    return [rulesWord, ...melds, shorthand(S.concealed), S.flowers.join(""), how].filter(Boolean).join(" ");
  }

  function ready() {
    const needs = S.how !== "self_draw" ? S.by !== null && S.by !== S.winner : true;
    return count() === 14 && needs;
  }

  function scoreSoon() {
    clearTimeout(scoreTimer);
    const n = count();
    $("error").textContent = "";
    if (n !== 14) {
      $("score-text").textContent = n < 14 ? tr("need_tiles", { n: 14 - n }) : tr("too_many", { n: n - 14 });
      $("submit").disabled = true;
      return;
    }
    if (!ready()) { $("score-text").textContent = tr("by"); $("submit").disabled = true; return; }
    $("score-text").textContent = tr("scoring");
    const seq = ++scoreSeq;
    scoreTimer = setTimeout(async () => {
      const r = await api("POST", "/api/score", { entry: entry(), rules: S.rules });
      if (seq !== scoreSeq) return;
      $("score-text").textContent = r.ok ? r.data.text : "";
      $("error").textContent = r.ok ? "" : r.data.error;
      $("submit").disabled = !(r.ok && r.data.allowed);
      document.body.dataset.scored = r.ok ? "ok" : "error";
    }, 120);
  }

  function seatName(seat) {
    const s = view.seats.find((x) => x.seat === seat);
    const name = s && s.name ? " " + s.name : "";
    return view.winds[seat] + name + (s && s.me ? " (" + tr("me") + ")" : "");
  }

  function renderHand() {
    const hand = $("hand"); hand.replaceChildren();
    S.concealed.forEach((code, i) => {
      const b = tileButton(code, "hand-" + i, i === S.winning ? "winning" : "");
      b.dataset.index = i;
      hand.appendChild(b);
    });
    const melds = $("melds"); melds.replaceChildren();
    S.melds.forEach((m, i) => {
      const box = document.createElement("span");
      box.className = "meld " + m.mode;
      box.dataset.action = "meld-" + i;
      for (let k = 0; k < m.size; k++) {
        const b = tileButton(m.tiles, "meld-" + i, m.mode === "concealed_kong" && (k === 0 || k === 3) ? "back" : "");
        box.appendChild(b);
      }
      const tag = document.createElement("small");
      tag.textContent = tr(m.mode) + (m.from ? " · " + view.winds[m.from] : "");
      box.appendChild(tag);
      melds.appendChild(box);
    });
    const fl = $("flowers-picked"); fl.replaceChildren();
    S.flowers.forEach((name, i) => fl.appendChild(tileButton(name, "flower-out-" + i, "small")));
    $("count").textContent = count() + " / 14";
    $("count").dataset.count = count();
  }

  function renderChoices() {
    const modes = $("modes"); modes.replaceChildren();
    MODES.forEach((m) => modes.appendChild(chip("mode-" + m, tr(m), S.mode === m)));
    const from = $("from"); from.replaceChildren();
    from.hidden = !(S.mode === "pung" || S.mode === "kong" || S.mode === "added_kong");
    from.appendChild(Object.assign(document.createElement("span"), { className: "label", textContent: tr("from") }));
    SEATS.filter((s) => s !== S.winner).forEach((s) => from.appendChild(chip("from-" + s, view.winds[s], S.from === s)));
    const winner = $("winner"); winner.replaceChildren();
    SEATS.forEach((s) => winner.appendChild(chip("winner-" + s, seatName(s), S.winner === s)));
    const how = $("how"); how.replaceChildren();
    HOWS.forEach((h) => how.appendChild(chip("how-" + h, tr(h), S.how === h)));
    $("by-box").hidden = S.how === "self_draw";
    const by = $("by"); by.replaceChildren();
    SEATS.filter((s) => s !== S.winner).forEach((s) => by.appendChild(chip("by-" + s, seatName(s), S.by === s)));
    const wild = $("wild");
    $("wild-box").hidden = S.rules !== "suzhou-anhui";
    if (!wild.options.length || wild.dataset.rules !== S.rules) {
      wild.replaceChildren(new Option(tr("none"), ""));
      view.wild.forEach((t) => wild.appendChild(new Option(TileFaces.label(t), t)));
      wild.dataset.rules = S.rules;
    }
    wild.value = S.wild || "";
    const rulesBox = $("rules"); rulesBox.replaceChildren();
    view.rule_sets.forEach((r) => rulesBox.appendChild(chip("rules-" + r.rules, view.rules_names[r.rules], S.rules === r.rules)));
  }

  function renderPalette() {
    const pal = $("palette");
    if (pal.dataset.rules === S.rules) return;
    pal.dataset.rules = S.rules;
    pal.replaceChildren();
    rules.tiles.forEach((code) => pal.appendChild(tileButton(code, "add")));
    const fp = $("flower-palette"); fp.replaceChildren();
    rules.flowers.forEach((f) => fp.appendChild(tileButton(f.name, "flower")));
  }

  function render() {
    renderPalette();
    renderHand();
    renderChoices();
    $("undo").disabled = !history.length;
    document.querySelectorAll("#palette .tile").forEach((b) => {
      b.disabled = copiesUsed(b.dataset.tile) >= 4;
    });
    document.querySelectorAll("#flower-palette .tile").forEach((b) => {
      const f = rules.flowers.find((x) => x.name === b.dataset.tile);
      b.disabled = S.flowers.filter((x) => x === b.dataset.tile).length >= f.copies;
    });
    scoreSoon();
  }

  async function submit() {
    $("submit").disabled = true;
    if (!view.table) {
      if (tg && tg.switchInlineQuery) tg.switchInlineQuery(inlineQuery(), ["users", "groups", "channels"]);
      return;
    }
    const key = (crypto.randomUUID ? crypto.randomUUID() : String(Date.now()) + Math.random()).replace(/[^A-Za-z0-9-]/g, "");
    const r = await api("POST", "/api/submit", { entry: entry(), key });
    $("error").textContent = r.ok ? "" : r.data.error;
    if (r.ok) {
      $("score-text").textContent = r.data.text || tr("sent");
      document.body.dataset.submitted = r.data.status;
      if (tg && tg.close) setTimeout(() => tg.close(), 800);
    } else {
      $("submit").disabled = false;
    }
  }

  function onClick(event) {
    const target = event.target.closest("[data-action]");
    if (!target || target.disabled || !S) return;
    const action = target.dataset.action;
    const [verb, arg] = [action.split("-")[0], action.slice(action.indexOf("-") + 1)];
    if (action === "add") addTile(target.dataset.tile);
    else if (action === "flower") tap((s) => s.flowers.push(target.dataset.tile));
    else if (verb === "flower") tap((s) => s.flowers.splice(Number(action.split("-")[2]), 1));
    else if (verb === "hand") tap((s) => {  // a tap marks the winning tile; a tap on it takes it out
      const i = Number(arg);
      if (s.winning === i) { s.concealed.splice(i, 1); s.winning = s.concealed.length ? s.concealed.length - 1 : null; }
      else s.winning = i;
    });
    else if (verb === "meld") tap((s) => s.melds.splice(Number(arg), 1));
    else if (verb === "mode") tap((s) => { s.mode = arg; });
    else if (verb === "from") tap((s) => { s.from = s.from === arg ? null : arg; });
    else if (verb === "winner") tap((s) => { s.winner = arg; if (s.by === arg) s.by = null; });
    else if (verb === "how") tap((s) => { s.how = arg; if (arg === "self_draw") s.by = null; });
    else if (verb === "by") tap((s) => { s.by = arg; });
    else if (verb === "rules") {
      const next = view.rule_sets.find((r) => r.rules === arg);
      rules = next;
      tap((s) => { s.rules = arg; s.wild = null; s.flowers = s.flowers.filter((f) => next.flowers.some((x) => x.name === f)); });
    } else if (action === "undo") {
      if (!history.length) return;
      S = JSON.parse(history.pop());
      rules = view.rule_sets.find((r) => r.rules === S.rules);
      render();
    } else if (action === "clear") tap((s) => Object.assign(s, fresh(), { rules: s.rules }));
    else if (action === "submit") submit();
  }

  async function start() {
    applyTheme();
    if (tg) {
      tg.ready();
      if (tg.expand) tg.expand();
      if (tg.onEvent) tg.onEvent("themeChanged", applyTheme);
    }
    const r = await api("GET", "/api/table");
    if (!r.ok) {
      $("error").textContent = r.data.error;
      $("picker").dataset.state = "refused";
      return;
    }
    view = r.data;
    TileFaces.use(view.faces);
    rules = view.rule_sets[0];
    document.documentElement.lang = view.lang;
    $("title").textContent = tr("title");
    $("hand-label").textContent = tr("hand");
    $("winner-label").textContent = tr("winner");
    $("how-label").textContent = tr("how");
    $("by-label").textContent = tr("by");
    $("wild-label").textContent = tr("wild");
    $("undo").textContent = tr("undo");
    $("clear").textContent = tr("clear");
    $("submit").textContent = view.table ? tr("submit") : tr("send_inline");
    S = fresh();
    document.addEventListener("click", onClick);
    $("wild").addEventListener("change", (e) => tap((s) => { s.wild = e.target.value || null; }));
    $("picker").dataset.state = "ready";
    render();
  }

  start();
})();
