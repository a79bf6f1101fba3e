/**
 * The installable app's service worker (public/sw.js): the offline page and Web Push notifications.
 * Production builds only: in development it would keep serving an old offline page over Vite's.
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const register = () => {
    navigator.serviceWorker.register('/sw.js').catch(() => {
      // No service worker (private mode, blocked): the app works as a plain page.
    });
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
