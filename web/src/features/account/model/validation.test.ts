import { describe, expect, it } from '@jest/globals';
import { isDeleteConfirmed, type ProfileForm, validateProfile } from './validation';

const valid: ProfileForm = {
  firstName: 'Awa',
  lastName: 'Diop',
  email: 'awa@example.com',
  contactNumber: '',
  profileTypes: [],
  streetAddress: '',
  city: '',
  postalCode: '',
  country: '',
};

describe('profile validation', () => {
  it.each([
    ['+221771234567', true],
    ['221 77 123 45 67', true],
    ['+33 (6) 12-34-56-78', true],
    ['12', true],
    ['1', false],
    ['+0771234567', false],
    ['0771234567', false],
    ['+1234567890123456', false],
    ['77 12 ab', false],
  ])('checks the phone %s (valid: %s)', (phone, ok) => {
    expect(validateProfile({ ...valid, contactNumber: phone }).contactNumber).toBe(
      ok ? undefined : 'account.profile.errors.invalidPhone',
    );
  });

  it('accepts an empty phone', () => {
    expect(validateProfile(valid)).toEqual({});
  });

  it('requires the first and last names', () => {
    expect(validateProfile({ ...valid, firstName: ' ', lastName: '' })).toEqual({
      firstName: 'account.profile.errors.firstNameRequired',
      lastName: 'account.profile.errors.lastNameRequired',
    });
  });

  it('wants exactly DELETE to deactivate', () => {
    expect(isDeleteConfirmed('DELETE')).toBe(true);
    expect(isDeleteConfirmed('delete')).toBe(false);
    expect(isDeleteConfirmed('DELETE ')).toBe(false);
    expect(isDeleteConfirmed('')).toBe(false);
  });
});
