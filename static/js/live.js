// Live: other phones' hands. A table, an evening or the standings polls its version every 2 s
// (304 if unchanged), not with the screen off; on again, or back from the browser's memory, at
// once. A new version shows the new page; when the player has typed, only the live parts and
// a note: nothing typed is lost (a hand entered meanwhile is refused by the server).
import { state } from "./state.js";
import { setUp } from "./page.js";

// the page's body becomes that of `html` (the server's answer), as if it had been loaded, and
// the service worker keeps it as the page's copy
export function show(html, url) {
  const fresh = new DOMParser().parseFromString(html, "text/html");
  document.title = fresh.title;
  document.body.replaceWith(fresh.body);
  if (url && url !== location.href) history.replaceState(null, "", url);
  state.typed = false;
  setUp(document.body);
  navigator.serviceWorker?.controller?.postMessage({ keep: location.href, html });
}

export async function refresh(whole) {
  const page = await fetch(location.href, { cache: "no-store", credentials: "same-origin" });
  if (!page.ok) return false;
  const html = await page.text();
  if (state.busy) return false; // a hand is on its way: its answer comes first
  if (whole) { show(html); return true; }
  const fresh = new DOMParser().parseFromString(html, "text/html");
  document.querySelectorAll("[data-live-part]").forEach((part) => {
    const next = fresh.querySelector(`[data-live-part="${part.dataset.livePart}"]`);
    if (next) { part.replaceWith(next); setUp(next); }
  });
  const note = document.querySelector("[data-live-notice]");
  if (note) note.hidden = false;
  return true;
}

// shown: just shown from memory (some browsers still call it hidden)
export async function poll(shown) {
  const live = document.querySelector("[data-live]");
  if (!live || (document.hidden && shown !== true) || state.busy) return;
  try {
    const answer = await fetch(live.dataset.live, { cache: "no-cache", credentials: "same-origin" });
    if (!answer.ok) return;
    const now = String((await answer.json()).version);
    if (now !== live.dataset.version && await refresh(!state.typed)) live.dataset.version = now;
  } catch (e) {
    // no network for a moment: the next poll tries again
  }
}

export function startPolling() {
  setInterval(poll, 2000);
  document.addEventListener("visibilitychange", () => poll());
  // back or forward to a page kept in the browser's memory: bring it up to date
  window.addEventListener("pageshow", (e) => { if (e.persisted) poll(true); });
}
