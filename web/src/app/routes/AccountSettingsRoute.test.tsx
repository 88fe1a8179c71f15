import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, jest } from '@jest/globals';
import type { Profile, ProfileAnswer, ProfileUpdate } from '@kora/contracts';
import { Toaster } from '../../components/Toaster';
import { fakeServer, renderRoutes } from '../../test/fakes';
import { AccountSettingsRoute } from './AccountSettingsRoute';

/** As the server sends a profile: a field never given is ''. */
const PROFILE: Profile = {
  firstName: 'Awa',
  lastName: 'Diop',
  email: 'awa@example.com',
  contactNumber: '',
  profileTypes: [],
  streetAddress: '',
  city: 'Dakar',
  postalCode: '',
  country: 'SN',
  isEmailVerified: true,
  isPhoneVerified: false,
};

function setup(path = '/accountSettings?section=general') {
  let profile = { ...PROFILE };
  const server = fakeServer({
    'GET /api/user/profile': () => ({ status: 200, body: { success: true, profile } satisfies ProfileAnswer }),
    'PUT /api/user/profile': ({ body }) => {
      // Saved as the server saves it: a field cleared (null) reads back as ''.
      const saved = Object.entries(body as ProfileUpdate).map(([key, value]) => [key, value ?? '']);
      profile = { ...profile, ...(Object.fromEntries(saved) as Partial<Profile>) };
      return { status: 200, body: { success: true, profile } satisfies ProfileAnswer };
    },
    'GET /api/user/preferences': () => ({
      status: 200,
      body: {
        success: true,
        preferences: {
          notificationSettings: { emailNotifications: true, marketingEmails: false, newFeatures: true },
          language: 'en',
          currency: 'XOF',
        },
      },
    }),
    'POST /api/user/account/deactivate': () => ({ status: 200, body: { success: true, purgeAfter: '2026-12-22' } }),
    'POST /api/auth/logout': () => ({ status: 200, body: { ok: true } }),
  });
  const element = (
    <>
      <AccountSettingsRoute />
      <Toaster />
    </>
  );
  const rendered = renderRoutes([{ path: '/accountSettings', element }], { path });
  return { server, ...rendered };
}

describe('account settings', () => {
  it('mounts every section and shows only the selected one', async () => {
    setup('/accountSettings?section=security');
    const security = await screen.findByRole('heading', { level: 2, name: 'Security' });
    expect(security.closest('[hidden]')).toBeNull();
    for (const name of ['General', 'Plans', 'Credit usage', 'Payments']) {
      expect(screen.getByRole('heading', { level: 2, name, hidden: true }).closest('[hidden]')).not.toBeNull();
    }
    expect(screen.getByRole('button', { name: 'Security' }).getAttribute('aria-current')).toBe('page');
  });

  it('shows the load errors of the billing sections while billing is absent (404)', async () => {
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    setup('/accountSettings?section=plans');
    await screen.findByText('Failed to load plans.');
    // Each load error is announced as an alert.
    expect(
      (await screen.findByText('Your credit usage could not be loaded.')).closest('[role="alert"]'),
    ).not.toBeNull();
    expect(
      (await screen.findByText('Your payment history could not be loaded.')).closest('[role="alert"]'),
    ).not.toBeNull();
    // No subscription (404) means no pack, not an error.
    expect((await screen.findByText(/You have no active pack/)).closest('[role="alert"]')).toBeNull();
  });

  it('blocks an invalid phone, then saves a valid one with a success message', async () => {
    const user = userEvent.setup();
    const { server, store } = setup();
    const phone = await screen.findByLabelText('Phone number');
    await user.type(phone, '77 12 ab');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    const error = await screen.findByText('Enter a valid phone number, for example +221771234567.');
    expect(phone.getAttribute('aria-describedby')).toBe(error.id);
    expect(phone.getAttribute('aria-invalid')).toBe('true');
    expect(server.calls.some((call) => call.method === 'PUT')).toBe(false);

    await user.clear(phone);
    await user.type(phone, '+221 77 123 45 67');
    await user.clear(screen.getByLabelText(/First name/));
    await user.type(screen.getByLabelText(/First name/), 'Aïssatou');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect((await screen.findByText('Your profile has been updated.')).closest('[hidden]')).toBeNull();
    const put = server.calls.find((call) => call.method === 'PUT');
    expect(put?.body).toMatchObject({ firstName: 'Aïssatou', contactNumber: '+221771234567', country: 'SN' });
    // The header's name follows (updateUserProfile).
    expect(store.getState().session.user?.givenName).toBe('Aïssatou');
  });

  it('maps the server’s field errors to their translations', async () => {
    const user = userEvent.setup();
    setup();
    await screen.findByLabelText('Phone number');
    fakeServer({
      'PUT /api/user/profile': () => ({
        status: 400,
        body: {
          statusCode: 400,
          code: 'VALIDATION.FAILED',
          message: 'Invalid',
          fields: { country: 'PROFILE.INVALID_COUNTRY' },
        },
      }),
    });
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    const error = await screen.findByText('Choose a country from the list.');
    expect(screen.getByLabelText('Country').getAttribute('aria-describedby')).toBe(error.id);
  });

  it('keeps the deactivation disabled until DELETE is typed, then deactivates and logs out', async () => {
    const user = userEvent.setup();
    const { server, userManager } = setup('/accountSettings?section=security');
    await user.click(await screen.findByRole('button', { name: 'Deactivate my account' }));
    const dialog = screen.getByRole('dialog', { name: 'Deactivate your account?' });
    expect(within(dialog).getAllByRole('listitem')).toHaveLength(4);
    const input = within(dialog).getByLabelText('Type DELETE to confirm');
    expect(document.activeElement).toBe(input);
    const confirm = within(dialog).getByRole('button', { name: 'Deactivate' });
    // The disabled button says why, and so does the field.
    const hint = within(dialog).getByText('Please type DELETE to confirm');
    expect(confirm.getAttribute('aria-describedby')).toBe(hint.id);
    expect(input.getAttribute('aria-describedby')).toBe(hint.id);
    await user.type(input, 'DELET');
    expect((confirm as HTMLButtonElement).disabled).toBe(true);
    expect(within(dialog).getByText('Please type DELETE to confirm')).toBe(hint);
    await user.type(input, 'E');
    expect((confirm as HTMLButtonElement).disabled).toBe(false);
    expect(within(dialog).queryByText('Please type DELETE to confirm')).toBeNull();
    expect(confirm.getAttribute('aria-describedby')).toBeNull();
    await user.click(confirm);
    await waitFor(() => expect(userManager.signoutRedirect).toHaveBeenCalled());
    expect(server.calls.find((call) => call.path === '/api/user/account/deactivate')?.body).toEqual({
      confirmationText: 'DELETE',
    });
    expect(userManager.signoutRedirect).toHaveBeenCalledWith(
      expect.objectContaining({ post_logout_redirect_uri: `${window.location.origin}/` }),
    );
    // Kept through the logout's clearing, for the sign-in page to say the account is deactivated and until when.
    expect(localStorage.getItem('accountDeactivated')).toBe('2026-12-22');
    localStorage.removeItem('accountDeactivated');
  });

  it('says why the server refused the deactivation, by the field’s code, else its generic failure', async () => {
    const user = userEvent.setup();
    setup('/accountSettings?section=security');
    await user.click(await screen.findByRole('button', { name: 'Deactivate my account' }));
    const dialog = screen.getByRole('dialog', { name: 'Deactivate your account?' });
    await user.type(within(dialog).getByLabelText('Type DELETE to confirm'), 'DELETE');
    let fields: Record<string, string> = { confirmationText: 'ACCOUNT.CONFIRMATION_REQUIRED' };
    fakeServer({
      'POST /api/user/account/deactivate': () => ({
        status: 400,
        body: { statusCode: 400, code: 'VALIDATION.FAILED', message: 'Please type DELETE to confirm', fields },
      }),
    });
    const confirm = within(dialog).getByRole('button', { name: 'Deactivate' });
    await user.click(confirm);
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Please type DELETE to confirm');
    fields = { confirmationText: 'ACCOUNT.SOMETHING_ELSE' };
    await user.click(confirm);
    await waitFor(() =>
      expect(within(dialog).getByRole('alert').textContent).toBe('Failed to delete account. Please try again.'),
    );
  });

  it('scrolls the section strip so the active section is in view (a phone shows the strip sideways)', async () => {
    // A 300 px strip of five 120 px buttons side by side, as at 375 px.
    const rect = (left: number, width: number) => ({ left, width, right: left + width }) as DOMRect;
    let scroll = 0;
    jest.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
      if (this.classList.contains('settings__nav')) return rect(20, 300);
      const buttons = [...document.querySelectorAll('.settings__nav button')];
      const index = buttons.indexOf(this);
      return index >= 0 ? rect(20 + index * 120 - scroll, 120) : rect(0, 0);
    });
    setup('/accountSettings?section=security');
    await screen.findByRole('heading', { level: 2, name: 'Security' });
    const strip = document.querySelector('.settings__nav') as HTMLElement;
    Object.defineProperty(strip, 'scrollLeft', {
      configurable: true,
      get: () => scroll,
      set: (value: number) => (scroll = value),
    });
    fireEvent.click(screen.getByRole('button', { name: 'Payments' }));
    // Payments (the 4th, at 360 to 480 px of the strip) centred in 300 px: scrolled by 270.
    await waitFor(() => expect(scroll).toBe(270));
    fireEvent.click(screen.getByRole('button', { name: 'General' }));
    await waitFor(() => expect(scroll).toBe(0));
  });

  it('closes the dialog on Escape and gives the focus back', async () => {
    const user = userEvent.setup();
    setup('/accountSettings?section=security');
    const open = await screen.findByRole('button', { name: 'Deactivate my account' });
    await user.click(open);
    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(open);
  });
});
