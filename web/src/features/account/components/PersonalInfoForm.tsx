import { type FormEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadingScreen } from '../../../components/LoadingScreen';
import { errorBody } from '../../../lib/api';
import { errorKey } from '../../../lib/error-codes';
import { useAppDispatch } from '../../../lib/hooks';
import { useSession } from '../../../lib/session/SessionProvider';
import type { SettingsSectionId } from '../../../lib/settings-sections';
import { toastShown } from '../../../lib/toast';
import {
  PROFILE_TYPES,
  type Profile,
  type ProfileUpdate,
  useGetProfileQuery,
  useUpdateProfileMutation,
} from '../api/account';
import { type CountryCode, sortedCountries } from '../model/countries';
import { normalisePhone, type ProfileErrors, type ProfileForm, validateProfile } from '../model/validation';
import { Field, VerifiedBadge } from './Field';

/** The form's fields, as the server sends them: a field never given is '' already. */
function toForm(profile: Profile): ProfileForm {
  return {
    firstName: profile.firstName,
    lastName: profile.lastName,
    email: profile.email,
    contactNumber: profile.contactNumber,
    profileTypes: profile.profileTypes,
    streetAddress: profile.streetAddress,
    city: profile.city,
    postalCode: profile.postalCode,
    country: profile.country,
  };
}

const FIELD_ORDER: Array<keyof ProfileForm> = [
  'firstName',
  'lastName',
  'email',
  'contactNumber',
  'profileTypes',
  'streetAddress',
  'city',
  'postalCode',
  'country',
];

/** Personal information: names, read-only e-mail, phone, profile types and address, with the spec's checks. */
export function PersonalInfoForm({ markStale }: { markStale(sections: SettingsSectionId[]): void }) {
  const { t, i18n } = useTranslation();
  const dispatch = useAppDispatch();
  const { updateUserProfile } = useSession();
  const profile = useGetProfileQuery();
  const [update, { isLoading: saving }] = useUpdateProfileMutation();
  const [form, setForm] = useState<ProfileForm | null>(null);
  const [dirty, setDirty] = useState(false);
  const [errors, setErrors] = useState<ProfileErrors>({});
  const formRef = useRef<HTMLFormElement>(null);
  const prefix = useId();
  const countries = useMemo(
    () => sortedCountries((code: CountryCode) => t(`countries.${code}`), i18n.language),
    [t, i18n.language],
  );

  useEffect(() => {
    if (profile.data && !dirty) setForm(toForm(profile.data));
  }, [profile.data, dirty]);

  if (!form) {
    if (profile.isError) {
      return (
        <div className="section-error" role="alert">
          <p>{t('account.profile.errors.failedToLoad')}</p>
          <button type="button" className="button button--ghost" onClick={() => void profile.refetch()}>
            {t('common.retry')}
          </button>
        </div>
      );
    }
    return <LoadingScreen />;
  }

  const change = <K extends keyof ProfileForm>(key: K, value: ProfileForm[K]) => {
    setForm((current) => (current ? { ...current, [key]: value } : current));
    setDirty(true);
    if (errors[key]) setErrors((current) => ({ ...current, [key]: undefined }));
  };

  const focusFirstError = (found: ProfileErrors) => {
    const first = FIELD_ORDER.find((key) => found[key]);
    if (first) requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus());
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateProfile(form);
    setErrors(found);
    if (Object.values(found).some(Boolean)) {
      focusFirstError(found);
      return;
    }
    const body: ProfileUpdate = {
      ...form,
      firstName: form.firstName.trim(),
      lastName: form.lastName.trim(),
      contactNumber: form.contactNumber ? normalisePhone(form.contactNumber) : null,
      streetAddress: form.streetAddress || null,
      city: form.city || null,
      postalCode: form.postalCode || null,
      country: form.country || null,
    };
    try {
      const saved = await update(body).unwrap();
      setForm(toForm(saved));
      setDirty(false);
      updateUserProfile({ givenName: saved.firstName, familyName: saved.lastName });
      dispatch(toastShown({ kind: 'success', messageKey: 'account.profile.updated' }));
      markStale(['general']);
    } catch (error) {
      const fields = errorBody(error)?.fields;
      if (fields && Object.keys(fields).length > 0) {
        const mapped: ProfileErrors = {};
        for (const [key, code] of Object.entries(fields)) {
          const target = key === 'phone' ? 'contactNumber' : key === 'street' ? 'streetAddress' : key;
          mapped[target as keyof ProfileForm] = errorKey('profile', code, 'account.profile.errors.failedToUpdate');
        }
        setErrors(mapped);
        focusFirstError(mapped);
      } else {
        dispatch(toastShown({ kind: 'error', messageKey: 'account.profile.errors.failedToUpdate' }));
      }
    }
  };

  const id = (name: string) => `${prefix}-${name}`;
  const text = (name: 'firstName' | 'lastName' | 'streetAddress' | 'city' | 'postalCode', autoComplete: string) => (
    <Field
      id={id(name)}
      label={t(`account.profile.fields.${name}`)}
      error={errors[name]}
      required={name.endsWith('Name')}
    >
      {(aria) => (
        <input
          {...aria}
          name={name}
          type="text"
          autoComplete={autoComplete}
          value={form[name]}
          onChange={(event) => change(name, event.target.value)}
        />
      )}
    </Field>
  );

  return (
    <form ref={formRef} className="form" noValidate onSubmit={(event) => void submit(event)} data-ready="true">
      <div className="form__grid">
        {text('firstName', 'given-name')}
        {text('lastName', 'family-name')}
        <Field
          id={id('email')}
          label={t('account.profile.fields.email')}
          error={errors.email}
          hint={<VerifiedBadge verified={profile.data?.isEmailVerified ?? false} />}
        >
          {(aria) => <input {...aria} name="email" type="email" value={form.email} readOnly autoComplete="email" />}
        </Field>
        <Field
          id={id('contactNumber')}
          label={t('account.profile.fields.contactNumber')}
          error={errors.contactNumber}
          hint={<VerifiedBadge verified={profile.data?.isPhoneVerified ?? false} />}
        >
          {(aria) => (
            <input
              {...aria}
              name="contactNumber"
              type="tel"
              inputMode="tel"
              autoComplete="tel"
              placeholder={t('account.profile.phonePlaceholder')}
              value={form.contactNumber}
              onChange={(event) => change('contactNumber', event.target.value)}
            />
          )}
        </Field>
      </div>
      <fieldset className="checkbox-group" aria-describedby={errors.profileTypes ? id('types-error') : undefined}>
        <legend>{t('account.profile.fields.profileTypes')}</legend>
        {PROFILE_TYPES.map((type) => (
          <label key={type} className="checkbox">
            <input
              type="checkbox"
              name="profileTypes"
              value={type}
              checked={form.profileTypes.includes(type)}
              onChange={(event) =>
                change(
                  'profileTypes',
                  event.target.checked
                    ? [...form.profileTypes, type]
                    : form.profileTypes.filter((other) => other !== type),
                )
              }
            />
            <span>{t(`account.profile.types.${type}`)}</span>
          </label>
        ))}
        {errors.profileTypes && (
          <p id={id('types-error')} className="field__error">
            {t(errors.profileTypes)}
          </p>
        )}
      </fieldset>
      <div className="form__grid">
        {text('streetAddress', 'street-address')}
        {text('city', 'address-level2')}
        {text('postalCode', 'postal-code')}
        <Field id={id('country')} label={t('account.profile.fields.country')} error={errors.country}>
          {(aria) => (
            <select
              {...aria}
              name="country"
              autoComplete="country"
              value={form.country}
              onChange={(event) => change('country', event.target.value)}
            >
              <option value="">{t('account.profile.selectCountry')}</option>
              {countries.map((country) => (
                <option key={country.code} value={country.code}>
                  {country.name}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <div className="form__actions">
        <button type="submit" className="button" disabled={saving}>
          {t(saving ? 'common.saving' : 'account.profile.save')}
        </button>
      </div>
    </form>
  );
}
