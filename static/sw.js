// The service worker: the app opens from the home screen and shows the tables it has seen when
// the pub's network is gone. The network first (for a few seconds); its answer is kept for the
// next time there is none. Hands saved without network are kept and sent by the page
// (static/js/queue.js).
"use strict";
// STATIC (the folder of the app's files, named after their content: "/static/<version>/") and
// SHELL (everything the app needs to start without network: the offline page, every file of
// static/ and every game's stylesheet, under their current names) are written in front of this
// file by the app (views/main.py); a change of any file changes them, and so this worker.
// The two caches' names are written here only: the page hands a page it was shown anew to this
// worker to keep (the "message" below), it never opens a cache itself.
const FILES = `scorekeeper-files${STATIC}`; // dropped with the files it holds when they change
const PAGES = "scorekeeper-pages"; // the pages the phone has opened, kept across such a change
// what is kept: the group's page, its tables (and what a table's form says before Save) and
// evenings, and the app's files; never the invite page (it shows the join links), exports,
// polls or anything else
const KEPT = /^\/(g\/[^/]+(\/games\/\d+(\/says\/\w+)?|\/evenings\/\d+)?|static\/.+|offline)$/;
const PATIENCE = 4000; // ms the network has before a kept page is shown
// a table never opened on this phone: the offline page that says what the table can do instead
const TABLE = /^\/g\/[^/]+\/games\/\d+$/;
const OFFLINE_TABLE = "/offline?never";

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(FILES).then((cache) => cache.addAll([...SHELL, OFFLINE_TABLE]))
    .then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((n) => n !== FILES && n !== PAGES).map((n) => caches.delete(n))))
    .then(() => self.clients.claim()));
});

async function remember(request, answer) {
  const path = new URL(request.url).pathname;
  const file = path.startsWith("/static/");
  if (file && !path.startsWith(STATIC)) return; // an older name: its file is kept under the new one
  const cache = await caches.open(file ? FILES : PAGES);
  if (answer.ok && answer.type === "basic") await cache.put(request, answer);
  else if (answer.status === 404) await cache.delete(request, { ignoreSearch: true }); // gone, or no longer ours
}

// a page the page was shown anew (a hand's answer, another phone's hand): its copy is this one
self.addEventListener("message", (event) => {
  const { keep, html } = event.data || {};
  const url = keep && new URL(keep);
  if (!url || url.origin !== location.origin || !KEPT.test(url.pathname)) return;
  event.waitUntil(caches.open(PAGES).then((cache) => cache.put(url, new Response(html,
    { headers: { "Content-Type": "text/html; charset=utf-8" } }))).catch(() => {}));
});

// a page kept before the files changed names the files' older folder: the files as they are now
const kept = async (request) => await caches.match(request)
  || await caches.match(request, { ignoreSearch: true })
  || await caches.match(new URL(request.url).pathname.replace(/^\/static\/[^/]+\//, STATIC));

// a kept copy says so (X-Kept): the page's own questions take it as no answer (live.js)
const marked = (answer) => answer && new Response(answer.body,
  { status: answer.status, headers: [...answer.headers, ["X-Kept", "1"]] });

const offline = async (url) => (TABLE.test(url.pathname) && await caches.match(OFFLINE_TABLE))
  || caches.match("/offline");

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== location.origin) return;
  if (url.pathname.startsWith(STATIC)) { // a file under its current name never changes
    event.respondWith(caches.match(request).then((file) => file || fetch(request)));
    return;
  }
  const navigate = request.mode === "navigate";
  if (!KEPT.test(url.pathname)) {
    if (navigate) event.respondWith(fetch(request).catch(() => offline(url)));
    return;
  }
  const network = fetch(request);
  // kept before the page reads it (this reaction comes first)
  event.waitUntil(network.then((answer) => remember(request, answer.clone())).catch(() => {}));
  const slow = new Promise((resolve) => { setTimeout(resolve, PATIENCE); })
    .then(async () => marked(await kept(request)) || network);
  event.respondWith(Promise.race([network, slow]).catch(async () => marked(await kept(request))
    || (navigate ? offline(url) : Response.error())));
});
