import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { setupI18n } from '../lib/i18n';

setupI18n('en');

afterEach(() => {
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
  vi.restoreAllMocks();
});
