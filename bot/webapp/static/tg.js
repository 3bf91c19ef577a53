// Telegram's side of a Mini App, without telegram-web-app.js (no script from elsewhere at run
// time), doing what that script does for the calls this page makes (core.telegram.org/bots/
// webapps): the launch parameters Telegram puts in the page's address (#tgWebAppData=...),
// kept in sessionStorage under the official script's key so that a reload keeps them; the
// events the page sends (ready, expand, a popup, swipes, closing confirmation), each only from
// the Bot API version that has it; the ones Telegram sends the page, taken only from Telegram
// (the parent window of Telegram Web's iframe); and Telegram Web's reload of the iframe.

const STORED = "__telegram__initParams";
const launch = launchParams();
const handlers = [];
let popupAnswer = null; // resolves the popup open now with the id of the button pressed

function launchParams() {
  const found = Object.fromEntries(new URLSearchParams(location.hash.slice(1)));
  try {
    const stored = JSON.parse(window.sessionStorage.getItem(STORED) || "{}");
    for (const [key, value] of Object.entries(stored || {})) {
      if (!(key in found)) found[key] = value;
    }
    window.sessionStorage.setItem(STORED, JSON.stringify(found));
  } catch {
    // no sessionStorage (a private window): the address is all there is
  }
  return found;
}

/** The signed init data, as Telegram sent it (checked by the server, never trusted here). */
export function initData() {
  return window.Telegram?.WebApp?.initData || launch.tgWebAppData || "";
}

/** The Mini App's start parameter (a Direct Link's startapp=...), if any. */
export function startParam() {
  return new URLSearchParams(initData()).get("start_param") || launch.tgWebAppStartParam;
}

/** Telegram's theme colours (themeParams), {} outside Telegram. */
export function themeParams() {
  try {
    return JSON.parse(launch.tgWebAppThemeParams || "{}");
  } catch {
    return {};
  }
}

/** The Bot API version of the Telegram client the page runs in ("6.0" when it does not say,
 * as the official script assumes). */
export function version() {
  return launch.tgWebAppVersion || "6.0";
}

/** Whether the client's Bot API version is ``wanted`` or later ("7.7" > "7.10" is false). */
export function versionAtLeast(wanted) {
  const have = version().split(".").map(Number);
  const need = String(wanted).split(".").map(Number);
  for (let i = 0; i < Math.max(have.length, need.length); i++) {
    const a = have[i] || 0;
    const b = need[i] || 0;
    if (a !== b) return a > b;
  }
  return true;
}

const inIframe = window.parent !== window;

/** Whether the page runs inside a Telegram client (one that takes its events). */
export function insideTelegram() {
  return Boolean(
    window.TelegramWebviewProxy?.postEvent ||
      (window.external && "notify" in window.external) ||
      inIframe,
  );
}

/** Sends Telegram an event (web_app_ready, web_app_expand...), wherever the page runs. */
export function postEvent(type, data = {}) {
  const body = JSON.stringify(data);
  if (window.TelegramWebviewProxy?.postEvent) {
    window.TelegramWebviewProxy.postEvent(type, body); // Android, iOS, desktop
  } else if (window.external && "notify" in window.external) {
    window.external.notify(JSON.stringify({ eventType: type, eventData: data })); // Windows Phone
  } else if (inIframe) {
    window.parent.postMessage(JSON.stringify({ eventType: type, eventData: data }), "*"); // web
  }
}

/** Calls handler(type, data) for every event Telegram sends the page. */
export function onEvent(handler) {
  handlers.push(handler);
}

function receive(type, data) {
  if (type === "popup_closed" && popupAnswer) {
    const answer = popupAnswer;
    popupAnswer = null;
    answer((data && data.button_id) || null);
  }
  for (const handler of handlers) handler(type, data);
}

window.Telegram = window.Telegram || {};
window.Telegram.WebView = { ...(window.Telegram.WebView || {}), receiveEvent: receive };
window.TelegramGameProxy = { receiveEvent: receive };
if (inIframe) {
  // Telegram Web: its events come from the window that holds the iframe, and from no other
  // (another frame could forge a popup's answer)
  window.addEventListener("message", (event) => {
    if (event.source !== window.parent) return;
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    if (!message || !message.eventType) return;
    if (message.eventType === "reload_iframe") {
      postEvent("iframe_will_reload");
      location.reload();
      return;
    }
    receive(message.eventType, message.eventData);
  });
  postEvent("iframe_ready", { reload_supported: true });
}

/** Keeps a swipe down on the page from closing it (Bot API 7.7): dragging a checker down
 * must not collapse the board. */
export function disableVerticalSwipes() {
  if (versionAtLeast("7.7")) postEvent("web_app_setup_swipe_behavior", { allow_vertical_swipe: false });
}

let confirmingClose = null;
/** Asks before the page is closed while ``on`` (Bot API 6.2): a turn half built. */
export function confirmClosing(on) {
  if (!versionAtLeast("6.2") || confirmingClose === Boolean(on)) return;
  confirmingClose = Boolean(on);
  postEvent("web_app_setup_closing_behavior", { need_confirmation: confirmingClose });
}

/**
 * Asks a yes-or-no question in Telegram's own popup (web_app_open_popup, Bot API 6.2): resolves
 * true when ``yes`` (a destructive button's text) is pressed, false for Cancel or a popup
 * closed. Outside Telegram, or in a client too old for popups, the browser's confirm().
 */
export function showConfirm(message, yes) {
  if (!insideTelegram() || !versionAtLeast("6.2")) return Promise.resolve(window.confirm(message));
  if (popupAnswer) return Promise.resolve(false); // one popup at a time
  return new Promise((resolve) => {
    popupAnswer = (id) => resolve(id === "yes");
    postEvent("web_app_open_popup", {
      title: "",
      message: message.slice(0, 256),
      buttons: [
        { id: "yes", type: "destructive", text: yes.slice(0, 64) },
        { id: "cancel", type: "cancel" },
      ],
    });
  });
}

/** Sets the page's colours from themeParams: Telegram's own, and light or dark wood. */
export function applyTheme(params) {
  const root = document.documentElement;
  const names = {
    bg_color: "--tg-bg",
    text_color: "--tg-text",
    hint_color: "--tg-hint",
    button_color: "--tg-button",
    button_text_color: "--tg-button-text",
    secondary_bg_color: "--tg-secondary-bg",
  };
  for (const [key, variable] of Object.entries(names)) {
    if (params[key]) root.style.setProperty(variable, params[key]);
  }
  root.dataset.theme = isDark(params.bg_color) ? "dark" : "light";
}

function isDark(colour) {
  const match = /^#?([0-9a-f]{6})$/i.exec(colour || "");
  if (!match) return window.matchMedia?.("(prefers-color-scheme: dark)").matches ?? false;
  const value = parseInt(match[1], 16);
  const [r, g, b] = [(value >> 16) & 255, (value >> 8) & 255, value & 255];
  return 0.299 * r + 0.587 * g + 0.114 * b < 128;
}
