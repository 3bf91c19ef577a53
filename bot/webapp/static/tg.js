// Telegram's side of a Mini App, without telegram-web-app.js (no script from elsewhere at run
// time): the launch parameters Telegram puts in the page's address (#tgWebAppData=...), the
// events the page sends it (ready, expand, a popup) and the ones it sends the page
// (theme_changed, popup_closed).

const hash = new URLSearchParams(location.hash.slice(1));
const handlers = [];
let popupAnswer = null; // resolves the popup open now with the id of the button pressed

/** The signed init data, as Telegram sent it (checked by the server, never trusted here). */
export function initData() {
  return window.Telegram?.WebApp?.initData || hash.get("tgWebAppData") || "";
}

/** The Mini App's start parameter (a Direct Link's startapp=...), if any. */
export function startParam() {
  return new URLSearchParams(initData()).get("start_param") || hash.get("tgWebAppStartParam");
}

/** Telegram's theme colours (themeParams), {} outside Telegram. */
export function themeParams() {
  try {
    return JSON.parse(hash.get("tgWebAppThemeParams") || "{}");
  } catch {
    return {};
  }
}

/** Whether the page runs inside a Telegram client (one that takes its events). */
export function insideTelegram() {
  return Boolean(
    window.TelegramWebviewProxy?.postEvent ||
      (window.external && "notify" in window.external) ||
      window.parent !== window,
  );
}

/** Sends Telegram an event (web_app_ready, web_app_expand...), wherever the page runs. */
export function postEvent(type, data = {}) {
  const body = JSON.stringify(data);
  if (window.TelegramWebviewProxy?.postEvent) {
    window.TelegramWebviewProxy.postEvent(type, body); // Android, iOS
  } else if (window.external && "notify" in window.external) {
    window.external.notify(JSON.stringify({ eventType: type, eventData: data })); // desktop
  } else if (window.parent !== window) {
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
window.addEventListener("message", (event) => {
  try {
    const message = JSON.parse(event.data);
    if (message && message.eventType) receive(message.eventType, message.eventData);
  } catch {
    // not Telegram's
  }
});

/**
 * Asks a yes-or-no question in Telegram's own popup (web_app_open_popup): resolves true when
 * ``yes`` (a destructive button's text) is pressed, false for Cancel or a popup closed. Outside
 * Telegram (a browser), the browser's confirm().
 */
export function showConfirm(message, yes) {
  if (!insideTelegram()) return Promise.resolve(window.confirm(message));
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
