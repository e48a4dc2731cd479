// Live: other phones' hands. A table, an evening or the standings keeps a stream open
// (Server-Sent Events, `<version URL>/stream`) on which the server pushes each new version;
// each stream, also one opened again after a drop, starts with the current version, so nothing
// is missed. While there is no stream (no network, a proxy that does not pass it on, a server
// that says 204) the page polls its version every 2 s instead (304 if unchanged). Neither with
// the screen off; on again, or back from the browser's memory, it asks at once. A new version
// shows the new page; when the player has typed, only the live parts and a note: nothing typed
// is lost (a hand entered meanwhile is refused by the server).
import { state } from "./state.js";
import { setUp } from "./page.js";

const stream = { source: null, url: null, open: false, missed: false };

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

// the version `now` is the newest: show it, unless the page shows it already
async function arrived(now, shown) {
  const live = document.querySelector("[data-live]");
  if (!live) return;
  if ((document.hidden && shown !== true) || state.busy) { stream.missed = true; return; }
  stream.missed = false;
  if (now !== live.dataset.version && await refresh(!state.typed)) live.dataset.version = now;
}

// shown: just shown from memory (some browsers still call it hidden)
export async function poll(shown) {
  const live = document.querySelector("[data-live]");
  if (!live || (document.hidden && shown !== true) || state.busy) return;
  try {
    const answer = await fetch(live.dataset.live, { cache: "no-cache", credentials: "same-origin" });
    if (!answer.ok) return;
    await arrived(String((await answer.json()).version), shown);
  } catch (e) {
    // no network for a moment: the next poll tries again
  }
}

function close() {
  stream.source?.close();
  Object.assign(stream, { source: null, url: null, open: false });
}

// a stream for the page's version URL (the page may have changed under a hand's answer)
function listen() {
  const live = document.querySelector("[data-live]");
  const url = live && window.EventSource ? `${live.dataset.live}/stream` : null;
  if (url === stream.url) return;
  close();
  if (!url) return;
  const source = new EventSource(url);
  Object.assign(stream, { source, url });
  source.onopen = () => { stream.open = true; };
  // a version; "?" from a group's page: ask for it
  source.onmessage = (e) => { stream.open = true; if (e.data === "?") poll(); else arrived(e.data); };
  source.onerror = () => {
    stream.open = false; // the browser opens it again by itself, unless the server refused it
    if (source.readyState === EventSource.CLOSED) {
      setTimeout(() => { if (stream.source === source) stream.url = null; }, 60000);
    }
  };
}

export function startPolling() {
  listen();
  setInterval(() => {
    listen();
    if (!stream.open || stream.missed) poll();
  }, 2000);
  document.addEventListener("visibilitychange", () => poll());
  // off to the browser's memory: no stream meanwhile; back: bring it up to date
  window.addEventListener("pagehide", (e) => { if (e.persisted) close(); });
  window.addEventListener("pageshow", (e) => { if (e.persisted) { listen(); poll(true); } });
}
