import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { RouterProvider } from 'react-router-dom';
import { createRouter } from './app/router';
import { type AppStore, makeStore } from './app/store';
import { currentLanguage, initialLanguage, LANGUAGE_KEY, loadLanguage, setupI18n } from './lib/i18n';
import { RealtimeClient, realtimeStatusChanged } from './lib/realtime';
import { registerServiceWorker } from './lib/serviceWorker';
import { createOidcUserManager, fetchAuthConfig } from './lib/session/oidc';
import { SessionManager } from './lib/session/session';
import { SessionProvider } from './lib/session/SessionProvider';
import { applyTheme, readTheme } from './lib/theme';
import './styles.css';

const language = initialLanguage(localStorage.getItem(LANGUAGE_KEY), navigator.languages);
setupI18n(language);
// Only this language's texts are fetched (their own chunk), while the rest of the start-up goes on.
const texts = loadLanguage(language);
applyTheme(readTheme(localStorage));

const session = new SessionManager({
  loadConfig: fetchAuthConfig,
  createUserManager: createOidcUserManager,
  fetch: window.fetch.bind(window),
  location: window.location,
  local: localStorage,
  session: sessionStorage,
  now: Date.now,
  language: currentLanguage,
  locks: navigator.locks,
});
// The issuer's settings and oidc-client-ts are fetched now, beside the texts and the route's chunk, instead of once
// the first render asks for the session (a failure here is retried by that call).
session.manager().catch(() => undefined);

let store: AppStore | null = null;
const realtime = new RealtimeClient({
  getToken: (forceRefresh) => session.getAccessToken({ forceRefresh }).catch(() => null),
  connect: async (options) => {
    const { io } = await import('socket.io-client');
    return io({ ...options, autoConnect: false });
  },
  onStatus: (status) => store?.dispatch(realtimeStatusChanged(status)),
  onSessionEnded: () => {
    session.endedElsewhere().catch((error: unknown) => console.warn('Sign-in redirect failed', error));
  },
});
store = makeStore({ session, realtime });

// The socket opens once signed in (never inside the hidden renewal frame, which never gets there).
let realtimeStarted = false;
store.subscribe(() => {
  if (realtimeStarted || store?.getState().session.status !== 'authenticated') return;
  realtimeStarted = true;
  realtime.start().catch((error: unknown) => console.warn('Real-time connection failed', error));
});

const router = createRouter();
// The page renders once the language's texts are in (were their chunk to fail, the keys would show, spec §8).
void texts
  .catch((error: unknown) => console.warn('Failed to load the texts', error))
  .then(() =>
    createRoot(document.getElementById('root')!).render(
      <StrictMode>
        <Provider store={store}>
          <SessionProvider manager={session}>
            <RouterProvider router={router} />
          </SessionProvider>
        </Provider>
      </StrictMode>,
    ),
  );

if (import.meta.env.PROD) registerServiceWorker();
