import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { RouterProvider } from 'react-router-dom';
import { createRouter } from './app/router';
import { makeStore } from './app/store';
import { initialLanguage, LANGUAGE_KEY, setupI18n } from './lib/i18n';
import './styles.css';

setupI18n(initialLanguage(localStorage.getItem(LANGUAGE_KEY), navigator.languages));
const store = makeStore();
const router = createRouter();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>
  </StrictMode>,
);
