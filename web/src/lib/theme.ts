import { useSyncExternalStore } from 'react';
import { STORAGE_KEYS } from './session/storage';

export type Theme = 'dark' | 'light';
const THEME_COLORS: Record<Theme, string> = { dark: '#0f1115', light: '#f7f7f9' };

/** Dark unless light was chosen (spec §4). */
export function readTheme(storage: Pick<Storage, 'getItem'>): Theme {
  return storage.getItem(STORAGE_KEYS.theme) === 'light' ? 'light' : 'dark';
}

const listeners = new Set<() => void>();
let current: Theme = 'dark';

export function applyTheme(theme: Theme): void {
  current = theme;
  document.documentElement.dataset.theme = theme;
  document.querySelector('meta[name="theme-color"]')?.setAttribute('content', THEME_COLORS[theme]);
  for (const listener of listeners) listener();
}

export function setTheme(theme: Theme): void {
  localStorage.setItem(STORAGE_KEYS.theme, theme);
  applyTheme(theme);
}

export function useTheme(): [Theme, (theme: Theme) => void] {
  const theme = useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => current,
  );
  return [theme, setTheme];
}
