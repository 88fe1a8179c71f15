import { describe, expect, it } from '@jest/globals';
import { paypalSdkUrl } from './paypalSdk';

describe('the PayPal JS SDK (real PayPal only)', () => {
  it('loads with the plan currency, cards on, the buttons, intent capture, pay-later and Venmo off', () => {
    const url = new URL(paypalSdkUrl('client-123', 'EUR'));
    expect(url.origin + url.pathname).toBe('https://www.paypal.com/sdk/js');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      'client-id': 'client-123',
      currency: 'EUR',
      components: 'buttons',
      intent: 'capture',
      'enable-funding': 'card',
      'disable-funding': 'paylater,venmo',
    });
  });
});
