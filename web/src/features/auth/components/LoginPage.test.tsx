import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from '@jest/globals';
import { STORAGE_KEYS } from '../../../lib/session/storage';
import { renderRoutes } from '../../../test/fakes';
import { LoginPage } from './LoginPage';

const DAY = 24 * 3600 * 1000;
const openLogin = () => renderRoutes([{ path: '/login', element: <LoginPage /> }], { path: '/login', signedIn: false });

afterEach(() => localStorage.clear());

describe('the sign-in page', () => {
  it('starts the sign-in at once, as usual', async () => {
    const { userManager } = openLogin();
    await waitFor(() => expect(userManager.signinRedirect).toHaveBeenCalled());
  });

  it('right after a deactivation, says so, until when it can be undone and how, then signs in on request', async () => {
    const purgeAfter = new Date(Date.now() + 30 * DAY).toISOString();
    localStorage.setItem(STORAGE_KEYS.deactivated, purgeAfter);
    const { userManager } = openLogin();
    expect(screen.getByRole('heading', { name: 'Your account is deactivated' })).toBeTruthy();
    const day = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' }).format(new Date(purgeAfter));
    expect(screen.getByText(`It will be permanently deleted on ${day}, with everything in it.`)).toBeTruthy();
    expect(screen.getByText(/^Changed your mind\? Sign in again before then/)).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(userManager.signinRedirect).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Sign in to restore my account' }));
    await waitFor(() => expect(userManager.signinRedirect).toHaveBeenCalled());
    expect(localStorage.getItem(STORAGE_KEYS.deactivated)).toBeNull();
  });

  it('forgets a deactivation whose day has passed', async () => {
    localStorage.setItem(STORAGE_KEYS.deactivated, new Date(Date.now() - DAY).toISOString());
    const { userManager } = openLogin();
    await waitFor(() => expect(userManager.signinRedirect).toHaveBeenCalled());
    expect(localStorage.getItem(STORAGE_KEYS.deactivated)).toBeNull();
  });
});
