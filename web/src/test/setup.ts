import { cleanup } from '@testing-library/react';
import { afterEach, jest } from '@jest/globals';
import { setupI18n } from '../lib/i18n';

setupI18n('en');

afterEach(() => {
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
  jest.restoreAllMocks();
});
