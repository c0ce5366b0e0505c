/* global self */
/* Tandem's service worker: shows browser push notifications (sent with pywebpush, JSON
 * {title, body, icon, url}) and opens their page on click, focusing a Tandem tab that is
 * already open. */
self.addEventListener('install', () => {
  self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

function readPayload(event) {
  if (!event.data) return {};
  try {
    return event.data.json();
  } catch {
    return { body: event.data.text() };
  }
}

function sameSiteUrl(raw) {
  try {
    const url = new URL(raw || '/', self.location.origin);
    return url.origin === self.location.origin ? url.href : self.location.origin + '/';
  } catch {
    return self.location.origin + '/';
  }
}

self.addEventListener('push', (event) => {
  const data = readPayload(event);
  const title = data.title || 'Tandem';
  event.waitUntil(
    self.registration.showNotification(title, {
      body: data.body || '',
      icon: data.icon || '/favicon.svg',
      data: { url: sameSiteUrl(data.url) },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = (event.notification.data && event.notification.data.url) || self.location.origin + '/';
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      const exact = windows.find((client) => client.url === target);
      if (exact) return exact.focus();
      const ours = windows.find((client) => new URL(client.url).origin === self.location.origin);
      if (ours) return ours.focus().then((client) => (client && 'navigate' in client ? client.navigate(target) : client));
      return self.clients.openWindow(target);
    }),
  );
});
