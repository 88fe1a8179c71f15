import { cleanup } from '@testing-library/react';
import { afterEach, jest } from '@jest/globals';
import { setupI18n } from '../lib/i18n';
import { resources } from '../locales/resources';

setupI18n('en', resources);

afterEach(() => {
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
  jest.restoreAllMocks();
});
