/** Spec §7: the service worker at /sw.js is registered one second after load; a failure is only logged. */
export const SERVICE_WORKER_DELAY_MS = 1000;

export function registerServiceWorker(delayMs = SERVICE_WORKER_DELAY_MS): void {
  if (!('serviceWorker' in navigator)) return;
  const register = () =>
    setTimeout(() => {
      navigator.serviceWorker.register('/sw.js').catch((error: unknown) => {
        console.warn('Service worker registration failed', error);
      });
    }, delayMs);
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
