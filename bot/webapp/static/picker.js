/* The tile picker: tap tiles into the hand or into melds, flowers, the winner, how and the flags (杠开 海底
   …), a second and third winner on one discard (一炮多响); the page posts the arguments of the bot's one
   builder (scoring.entry.build_entry): the server builds the entry, scores it and, at a table, posts it to
   the group's preview. Test contract:
   data-tile / data-action on every control (flags: data-action="flag-<name>"), and #score-text's
   data-score, the amounts by seat as JSON (empty while the hand cannot be scored). Plain browser JS. */
"use strict";
(() => {
  const { tg, initData, applyTheme } = window.MiniApp;
  // The same Mini App opened with a group's token (27 characters, a table's has 38) is the season page.
  if ((new URLSearchParams(initData).get("start_param") || "").length === 27) {
    location.replace("season/" + location.hash);
    return;
  }
  const SEATS = ["E", "S", "W", "N"];
  const MULTI = ["discard", "rob_kong"];  // ways several players can win at once (一炮多响)
  const MOST_WINNERS = 3;
  const MODES = ["concealed", "pung", "kong", "concealed_kong", "added_kong"];
  const SUIT_ORDER = "mpsz";
  let view = null;           // the table as the server describes it
  let rules = null;          // the rule set's tiles and flowers
  let S = null;              // the picked hand (state); every tap pushes the one before onto `history`
  const history = [];
  let scoreTimer = null, scoreSeq = 0, scored = null;  // scored: the last answer for the hand as it is
  const $ = (id) => document.getElementById(id);

  function tr(key, params) {
    return window.MiniApp.format(view && view.strings, key, params);
  }

  async function api(method, path, body) {
    const response = await fetch(path, {
      method, headers: { "Authorization": "tma " + initData, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    let data = {};
    try { data = await response.json(); } catch (e) { data = {}; }  // a proxy's page: no error of ours
    return { ok: response.ok, status: response.status, data };
  }

  function newHand(winner) {
    return { winner, concealed: [], melds: [], flowers: [], winning: null, flags: {} };
  }

  function fresh() {
    const me = view.seats.find((s) => s.me);
    return { hands: [newHand(me ? me.seat : "S")], cur: 0, how: "self_draw", by: null, wild: null,
             mode: "concealed", from: null, rules: rules.rules, nonce: nonce() };
  }

  function nonce() {
    const bytes = new Uint8Array(9);
    if (window.crypto && crypto.getRandomValues) crypto.getRandomValues(bytes);
    else bytes.forEach((_, i) => { bytes[i] = Math.floor(Math.random() * 256); });
    return Array.from(bytes, (b) => b.toString(36).padStart(2, "0")).join("");
  }

  function H() { return S.hands[S.cur]; }
  function winners() { return S.hands.map((h) => h.winner); }

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

  function chip(action, text, on, disabled) {
    const b = document.createElement("button");
    b.className = "chip" + (on ? " on" : "");
    b.dataset.action = action;
    b.textContent = text;
    b.setAttribute("aria-pressed", on ? "true" : "false");
    if (disabled) b.disabled = true;
    return b;
  }

  function count(h) {
    h = h || H();
    return h.concealed.length + 3 * h.melds.length;
  }

  function copiesUsed(code) {
    const h = H();
    let n = h.concealed.filter((t) => t === code).length;
    for (const m of h.melds) n += m.tiles === code ? m.size : 0;
    return n;
  }

  function addTile(code) {
    if (S.mode === "concealed") {
      if (copiesUsed(code) >= 4) return;
      tap((s) => { const h = s.hands[s.cur]; h.concealed.push(code); h.winning = h.concealed.length - 1; });
      return;
    }
    const size = S.mode === "pung" ? 3 : 4;
    if (copiesUsed(code) + size > 4) return;
    tap((s) => {  // a meld mode is for one meld: the next tile goes into the hand again
      s.hands[s.cur].melds.push({ mode: s.mode, tiles: code, size, from: s.mode === "concealed_kong" ? null : s.from });
      s.mode = "concealed";
      s.from = null;
    });
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

  // The page's state as the arguments of the bot's one builder, scoring.entry.build_entry (read on the
  // server by entry_args_from_json): the way of winning, the other seat, the 混子 and each winner's claim.
  function args() {
    const claims = S.hands.map((h) => ({
      winner: h.winner,
      hand: {
        concealed: shorthand(h.concealed),
        winning_tile: h.winning !== null ? h.concealed[h.winning] : null,
        melds: h.melds.map(meldJSON),
        flowers: h.flowers.slice(),
      },
      flags: rules.flags.filter((f) => h.flags[f]),
    }));
    return { how: S.how, other: S.how === "self_draw" ? null : S.by, wild: S.wild, claims };
  }

  // A submission's key belongs to the hand being entered: this page's nonce and the entry, so a retry of
  // the same hand (after any failure) is the same submission, and a changed hand a new one.
  function submissionKey() {
    let h = 2166136261;
    for (const c of JSON.stringify(args())) { h ^= c.codePointAt(0); h = Math.imul(h, 16777619) >>> 0; }
    return S.nonce + "-" + h.toString(36);
  }

  function ready() {
    const needs = S.how !== "self_draw" ? S.by !== null && !winners().includes(S.by) : true;
    return S.hands.every((h) => count(h) === 14) && needs;
  }

  function setScore(text, payments) {
    $("score-text").textContent = text;
    $("score-text").dataset.score = payments ? JSON.stringify(payments) : "";
    $("score").scrollTop = $("score").scrollHeight;  // the total and 输赢 are the last lines
  }

  function scoreSoon() {
    clearTimeout(scoreTimer);
    scored = null;
    $("submit").disabled = true;
    $("error").textContent = "";
    $("retry").hidden = true;
    const short = S.hands.findIndex((h) => count(h) !== 14);
    if (short >= 0) {
      const n = count(S.hands[short]);
      const text = n < 14 ? tr("need_tiles", { n: 14 - n }) : tr("too_many", { n: n - 14 });
      setScore((S.hands.length > 1 ? tr("winner_n", { n: short + 1 }) + " · " : "") + text, null);
      ++scoreSeq;
      return;
    }
    if (!ready()) { setScore(tr("by"), null); ++scoreSeq; return; }
    setScore(tr("scoring"), null);
    const seq = ++scoreSeq;
    scoreTimer = setTimeout(() => score(seq), 120);
  }

  async function score(seq) {
    let r;
    try {
      r = await api("POST", "/api/score", { args: args(), rules: S.rules });
    } catch (e) {
      r = null;  // the network, not the hand: say so, with a retry
    }
    if (seq !== scoreSeq) return;
    if (!r || r.status >= 500 || !r.data.error && !r.ok) {
      setScore("", null);
      $("error").textContent = tr("network");
      $("retry").hidden = false;
      document.body.dataset.scored = "error";
      return;
    }
    setScore(r.ok ? r.data.text : "", r.ok ? r.data.payments : null);
    $("error").textContent = r.ok ? "" : r.data.error;
    scored = r.ok ? r.data : null;
    $("submit").disabled = !(r.ok && r.data.allowed);
    document.body.dataset.scored = r.ok ? "ok" : "error";
  }

  function seatName(seat) {
    const s = view.seats.find((x) => x.seat === seat);
    const name = s && s.name ? " " + s.name : "";
    return view.winds[seat] + name + (s && s.me ? " (" + tr("me") + ")" : "");
  }

  function renderHand() {
    const h = H();
    const tabs = $("winners"); tabs.replaceChildren();
    tabs.hidden = S.hands.length < 2;
    S.hands.forEach((x, i) => tabs.appendChild(
      chip("win-" + i, tr("winner_n", { n: i + 1 }) + " " + view.winds[x.winner], i === S.cur)));
    if (S.hands.length > 1) tabs.appendChild(chip("win-remove", tr("remove_winner"), false));
    const hand = $("hand"); hand.replaceChildren();
    h.concealed.forEach((code, i) => {
      const b = tileButton(code, "hand-" + i, i === h.winning ? "winning" : "");
      b.dataset.index = i;
      if (i === h.winning) b.setAttribute("aria-label", b.getAttribute("aria-label") + " · " + tr("winning"));
      hand.appendChild(b);
    });
    $("hand-hint").textContent = h.concealed.length ? tr("winning_hint") : tr("add_to") + " " + tr(S.mode);
    const melds = $("melds"); melds.replaceChildren();
    h.melds.forEach((m, i) => {
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
    h.flowers.forEach((name, i) => fl.appendChild(tileButton(name, "flower-out-" + i, "small")));
    $("count").textContent = count() + " / 14";
    $("count").dataset.count = count();
  }

  function renderChoices() {
    const modes = $("modes"); modes.replaceChildren();
    MODES.forEach((m) => modes.appendChild(chip("mode-" + m, tr(m), S.mode === m)));
    const from = $("from"); from.replaceChildren();
    from.hidden = !(S.mode === "pung" || S.mode === "kong" || S.mode === "added_kong");
    from.appendChild(Object.assign(document.createElement("span"), { className: "label", textContent: tr("from") }));
    const h = H(), taken = winners();
    SEATS.filter((s) => s !== h.winner).forEach((s) => from.appendChild(chip("from-" + s, view.winds[s], S.from === s)));
    const winner = $("winner"); winner.replaceChildren();
    SEATS.forEach((s) => winner.appendChild(
      chip("winner-" + s, seatName(s), h.winner === s, s !== h.winner && taken.includes(s))));
    const how = $("how"); how.replaceChildren();
    rules.hows.forEach((x) => how.appendChild(chip("how-" + x, tr(x), S.how === x, S.hands.length > 1 && !MULTI.includes(x))));
    const more = $("more"); more.replaceChildren();
    more.hidden = !MULTI.includes(S.how) || S.hands.length >= MOST_WINNERS;
    more.appendChild(chip("win-add", tr("add_winner"), false, !SEATS.some((s) => !taken.includes(s) && s !== S.by)));
    const flags = $("flags"); flags.replaceChildren();
    rules.flags.forEach((f) => flags.appendChild(chip("flag-" + f, tr(f), !!h.flags[f] || (f === "after_kong" && S.how === "bao"))));
    $("by-box").hidden = S.how === "self_draw";
    const by = $("by"); by.replaceChildren();
    SEATS.filter((s) => !taken.includes(s)).forEach((s) => by.appendChild(chip("by-" + s, seatName(s), S.by === s)));
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
      b.disabled = H().flowers.filter((x) => x === b.dataset.tile).length >= f.copies;
    });
    scoreSoon();
  }

  async function submit() {
    if (!scored) return;  // never while the score is unknown
    $("submit").disabled = true;
    if (!view.table) {  // the hand back to the chat as the words inline mode reads into the same entry
      if (tg && tg.switchInlineQuery) tg.switchInlineQuery(scored.query, ["users", "groups", "channels"]);
      return;
    }
    let r;
    try {
      r = await api("POST", "/api/submit", { args: args(), key: submissionKey() });
    } catch (e) {
      r = { ok: false, status: 0, data: {} };
    }
    $("error").textContent = r.ok ? "" : r.data.error || tr("network");
    if (r.ok) {
      $("score-text").textContent = r.data.text || tr("sent");
      document.body.dataset.submitted = r.data.status;
      if (tg && tg.close) setTimeout(() => tg.close(), 800);
    } else {
      $("submit").disabled = false;  // the same key: a retry records nothing twice
    }
  }

  function setWinner(s, seat) {
    s.hands[s.cur].winner = seat;
    if (s.by === seat) s.by = null;
  }

  function addWinner(s) {
    const taken = s.hands.map((h) => h.winner);
    const seat = SEATS.find((x) => !taken.includes(x) && x !== s.by);
    if (!seat || s.hands.length >= MOST_WINNERS) return;
    s.hands.push(newHand(seat));
    s.cur = s.hands.length - 1;
  }

  // The winner being entered: their tiles brought into view (a new winner's are above the button that
  // added them).
  function showHand() {
    $("hand-area").scrollIntoView({ block: "start" });
  }

  function onClick(event) {
    const target = event.target.closest("[data-action]");
    if (!target || target.disabled || !S) return;
    const action = target.dataset.action;
    const [verb, arg] = [action.split("-")[0], action.slice(action.indexOf("-") + 1)];
    if (action === "add") addTile(target.dataset.tile);
    else if (action === "flower") tap((s) => s.hands[s.cur].flowers.push(target.dataset.tile));
    else if (verb === "flower") tap((s) => s.hands[s.cur].flowers.splice(Number(action.split("-")[2]), 1));
    else if (verb === "hand") tap((s) => {  // a tap marks the winning tile; a tap on it takes it out
      const h = s.hands[s.cur], i = Number(arg);
      if (h.winning === i) { h.concealed.splice(i, 1); h.winning = h.concealed.length ? h.concealed.length - 1 : null; }
      else h.winning = i;
    });
    else if (verb === "meld") tap((s) => s.hands[s.cur].melds.splice(Number(arg), 1));
    else if (verb === "mode") tap((s) => { s.mode = arg; });
    else if (verb === "from") tap((s) => { s.from = s.from === arg ? null : arg; });
    else if (verb === "winner") tap((s) => setWinner(s, arg));
    else if (verb === "how") tap((s) => {
      s.how = arg;
      if (arg === "self_draw") s.by = null;
      if (!MULTI.includes(arg)) { s.hands = [s.hands[s.cur]]; s.cur = 0; }
    });
    else if (verb === "by") tap((s) => { s.by = arg; });
    else if (verb === "flag") tap((s) => { const f = s.hands[s.cur].flags; f[arg] = !f[arg]; });
    else if (action === "win-add") { tap(addWinner); showHand(); }
    else if (action === "win-remove") tap((s) => { s.hands.splice(s.cur, 1); s.cur = Math.max(0, s.cur - 1); });
    else if (verb === "win") { tap((s) => { s.cur = Number(arg); }); showHand(); }
    else if (action === "retry") scoreSoon();
    else if (verb === "rules") {
      const next = view.rule_sets.find((r) => r.rules === arg);
      rules = next;
      tap((s) => {
        s.rules = arg; s.wild = null;
        if (!next.hows.includes(s.how)) { s.how = "self_draw"; s.by = null; }
        for (const h of s.hands) {
          h.flowers = h.flowers.filter((f) => next.flowers.some((x) => x.name === f));
          for (const f of Object.keys(h.flags)) if (!next.flags.includes(f)) delete h.flags[f];
        }
      });
    } else if (action === "undo") {
      if (!history.length) return;
      S = JSON.parse(history.pop());
      rules = view.rule_sets.find((r) => r.rules === S.rules);
      render();
    } else if (action === "clear") tap((s) => Object.assign(s, fresh(), { rules: s.rules, nonce: s.nonce }));
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
      $("error").textContent = r.data.error || tr("network");
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
    $("flags-label").textContent = tr("flags");
    $("retry").textContent = tr("retry");
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
