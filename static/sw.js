// The service worker: the app opens from the home screen and shows the tables it has seen when
// the pub's network is gone. The network first (for a few seconds); its answer is kept for the
// next time there is none. Hands saved without network are kept and sent by the page
// (static/js/queue.js).
"use strict";
// the one place the cache's name is written: the page hands a page it was shown anew to this
// worker to keep (the "message" below), it never opens the cache itself
const CACHE = "scorekeeper-4";
// everything the app needs to start without network: every module of static/js/ and every
// game's CSS (GAME_STYLES: the app writes them in front of this file; the tests check that
// none is missing)
const SHELL = ["/offline", "/static/app.css", "/static/favicon.svg", "/static/icon-192.png",
  ...GAME_STYLES, "/static/js/main.js", "/static/js/page.js", "/static/js/state.js", "/static/js/fields.js",
  "/static/js/store.js", "/static/js/queue.js", "/static/js/live.js", "/static/js/screen.js",
  "/static/js/share.js"];
// what is kept: the group's page, its tables and evenings, and the app's files; never the
// invite page (it shows the join links), exports, polls or anything else
const KEPT = /^\/(g\/[^/]+(\/games\/\d+|\/evenings\/\d+)?|static\/.+|games\/[^/]+\/style\.css|offline)$/;
const PATIENCE = 4000; // ms the network has before a kept page is shown

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((n) => n !== CACHE).map((n) => caches.delete(n))))
    .then(() => self.clients.claim()));
});

async function remember(request, answer) {
  const cache = await caches.open(CACHE);
  if (answer.ok && answer.type === "basic") await cache.put(request, answer);
  else if (answer.status === 404) await cache.delete(request, { ignoreSearch: true }); // gone, or no longer ours
}

// a page the page was shown anew (a hand's answer, another phone's hand): its copy is this one
self.addEventListener("message", (event) => {
  const { keep, html } = event.data || {};
  const url = keep && new URL(keep);
  if (!url || url.origin !== location.origin || !KEPT.test(url.pathname)) return;
  event.waitUntil(caches.open(CACHE).then((cache) => cache.put(url, new Response(html,
    { headers: { "Content-Type": "text/html; charset=utf-8" } }))).catch(() => {}));
});

const kept = async (request) => await caches.match(request)
  || await caches.match(request, { ignoreSearch: true });

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== location.origin) return;
  const navigate = request.mode === "navigate";
  if (!KEPT.test(url.pathname)) {
    if (navigate) event.respondWith(fetch(request).catch(() => caches.match("/offline")));
    return;
  }
  const network = fetch(request);
  // kept before the page reads it (this reaction comes first)
  event.waitUntil(network.then((answer) => remember(request, answer.clone())).catch(() => {}));
  const slow = new Promise((resolve) => { setTimeout(resolve, PATIENCE); })
    .then(async () => await kept(request) || network);
  event.respondWith(Promise.race([network, slow]).catch(async () => await kept(request)
    || (navigate ? caches.match("/offline") : Response.error())));
});
