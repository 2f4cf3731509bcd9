// The web app's service worker (scope /app/): the app loads with no network. Pages of the app (navigations) come
// from the network when it answers and from the last index.html saved otherwise; Vite's content-hashed files
// under /app/assets/ never change, so they come from the cache once saved. API calls are not touched: the floor
// screens keep their own copy of what they need and queue their writes (web/src/offline).
// Plain JavaScript, copied as it is by Vite (web/public): no import, no build step of its own.

const CACHE = "wms-app-v1";
const SHELL = "/app/index.html";

/** Saves index.html and every file it loads, and drops the files of older builds. */
async function saveShell(response) {
  const cache = await caches.open(CACHE);
  const html = await response.clone().text();
  const assets = [...html.matchAll(/(?:src|href)="(\/app\/assets\/[^"]+)"/g)].map((match) => match[1]);
  const missing = [];
  for (const asset of assets) if (!(await cache.match(asset))) missing.push(asset);
  await cache.addAll(missing);
  await cache.put(SHELL, response);
  for (const request of await cache.keys()) {
    const path = new URL(request.url).pathname;
    if (path.startsWith("/app/assets/") && !assets.includes(path)) await cache.delete(request);
  }
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    fetch(SHELL, { cache: "no-cache" })
      .then((response) => (response.ok ? saveShell(response) : undefined))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin || !url.pathname.startsWith("/app/"))
    return;
  if (request.mode === "navigate") {
    event.respondWith(
      fetch(request)
        .then((response) => {
          if (response.ok) event.waitUntil(saveShell(response.clone()));
          return response;
        })
        .catch(async () => (await caches.match(SHELL)) ?? Response.error()),
    );
  } else if (url.pathname.startsWith("/app/assets/")) {
    event.respondWith(
      caches.match(request).then(
        (saved) =>
          saved ??
          fetch(request).then(async (response) => {
            if (response.ok) await (await caches.open(CACHE)).put(request, response.clone());
            return response;
          }),
      ),
    );
  }
});
