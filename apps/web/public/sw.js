// The web app's service worker: an offline page for navigations when the network is down, and Web
// Push notifications (the server's NOTICE and ALERT events while the app is closed). Nothing else is
// cached: API calls, the socket and the app's files always go to the network.
const CACHE = 'tp-offline-v1';
const OFFLINE_PAGE = '/offline.html';
const PRECACHE = [OFFLINE_PAGE, '/offline.js'];

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(PRECACHE))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      const keys = await caches.keys();
      await Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key)));
      // The page request starts while the worker wakes up, so a navigation costs no extra round of start-up.
      if (self.registration.navigationPreload) await self.registration.navigationPreload.enable();
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin === self.location.origin && url.pathname === '/offline.js') {
    event.respondWith(caches.match(request).then((hit) => hit ?? fetch(request)));
    return;
  }
  if (request.mode !== 'navigate') return;
  event.respondWith(
    (async () => {
      try {
        return (await event.preloadResponse) || (await fetch(request));
      } catch {
        return (await caches.match(OFFLINE_PAGE)) || Response.error();
      }
    })(),
  );
});

/** The server's payload: {title, body, tag, url, event} (apps/server/src/modules/web-push/messages.ts). */
function notificationOf(data) {
  try {
    const message = data ? data.json() : {};
    return {
      title: String(message.title || ''),
      body: String(message.body || ''),
      tag: message.tag ? String(message.tag) : undefined,
      // Only a page of this app: a path, never another site ("//host", "/\\host").
      url: typeof message.url === 'string' && /^\/(?![/\\])/.test(message.url) ? message.url : '/',
      event: message.event ? String(message.event) : '',
    };
  } catch {
    return { title: data ? data.text() : '', body: '', tag: undefined, url: '/', event: '' };
  }
}

self.addEventListener('push', (event) => {
  const message = notificationOf(event.data);
  if (!message.title) return;
  event.waitUntil(
    self.registration.showNotification(message.title, {
      body: message.body,
      // One notification per order: a later event of the same order replaces the earlier one.
      tag: message.tag,
      renotify: Boolean(message.tag),
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      dir: 'auto',
      data: { url: message.url, event: message.event },
    }),
  );
});

/** Focuses a window of the app and shows the page there, or opens one at it. */
async function openAt(target) {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
  if (!open) return self.clients.openWindow(target);
  await open.focus().catch(() => undefined);
  // navigate() reaches only windows this worker controls; another one gets a new window instead.
  return open.navigate(target).catch(() => self.clients.openWindow(target));
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = (event.notification.data && event.notification.data.url) || '/';
  event.waitUntil(openAt(new URL(url, self.location.origin).href));
});
