/* What both pages of the Mini App (the tile picker, the season page) share: Telegram's WebApp object, the
   signed initData (from Telegram, else the URL's hash as a browser opened it), Telegram's theme colours as
   CSS variables, and a catalog string with its {placeholders} and {n:p:one|other} plurals filled in.
   Plain browser JS, loaded before the page's own script. */
"use strict";
window.MiniApp = (() => {
  const tg = window.Telegram && window.Telegram.WebApp;
  const hash = new URLSearchParams(location.hash.slice(1));
  const initData = (tg && tg.initData) || hash.get("tgWebAppData") || "";

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

  function format(strings, key, params) {
    let text = (strings && strings[key]) || key;
    for (const [k, v] of Object.entries(params || {})) {
      text = text.replace(new RegExp("\\{" + k + "(:p:([^|}]*)\\|([^}]*))?\\}", "g"),
        (m, spec, one, other) => (spec ? (v === 1 ? one : other) : String(v)));
    }
    return text;
  }

  return { tg, hash, initData, applyTheme, format };
})();
