import { type FormEvent, useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { browserCurrency } from '../../../lib/currency';
import { CURRENCY_CHOICES, type Currency } from '../../../lib/format';
import { useAppDispatch } from '../../../lib/hooks';
import { chooseLanguage, LANGUAGES } from '../../../lib/i18n';
import type { SettingsSectionId } from '../../../lib/settings-sections';
import { toastShown } from '../../../lib/toast';
import {
  type NotificationSettings,
  type Preferences,
  useGetPreferencesQuery,
  useUpdatePreferencesMutation,
} from '../api/account';
import { defaultPreferences } from '../model/preferences';

const SWITCHES: Array<keyof NotificationSettings> = ['emailNotifications', 'marketingEmails', 'newFeatures'];

/** Notification settings, language and currency; saving also switches the interface language. */
export function PreferencesForm({ markStale }: { markStale(sections: SettingsSectionId[]): void }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const detected = useMemo(browserCurrency, []);
  const preferences = useGetPreferencesQuery();
  const [update, { isLoading: saving }] = useUpdatePreferencesMutation();
  const [form, setForm] = useState<Preferences>(() => defaultPreferences(detected));
  const [dirty, setDirty] = useState(false);
  const prefix = useId();

  useEffect(() => {
    if (preferences.data && !dirty) setForm(preferences.data);
  }, [preferences.data, dirty]);

  const change = (next: Preferences) => {
    setForm(next);
    setDirty(true);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const saved = await update(form).unwrap();
      setForm(saved);
      setDirty(false);
      dispatch(toastShown({ kind: 'success', messageKey: 'account.preferences.updated' }));
      await chooseLanguage(saved.language);
      markStale(['general']);
    } catch (error) {
      console.error(error);
      dispatch(toastShown({ kind: 'error', messageKey: 'account.preferences.errors.failedToUpdate' }));
    }
  };

  return (
    <form className="form" noValidate onSubmit={(event) => void submit(event)}>
      {preferences.isError && (
        <p className="section-error" role="alert">
          {t('account.preferences.errors.failedToLoad')}
        </p>
      )}
      <fieldset className="checkbox-group">
        <legend>{t('account.preferences.notifications')}</legend>
        {SWITCHES.map((key) => (
          <label key={key} className="switch">
            <input
              type="checkbox"
              role="switch"
              checked={form.notificationSettings[key]}
              onChange={(event) =>
                change({ ...form, notificationSettings: { ...form.notificationSettings, [key]: event.target.checked } })
              }
            />
            <span className="switch__text">
              <span>{t(`account.preferences.${key}.label`)}</span>
              <span className="muted">{t(`account.preferences.${key}.description`)}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <div className="form__grid">
        <div className="field">
          <label htmlFor={`${prefix}-language`}>{t('account.preferences.language')}</label>
          <select
            id={`${prefix}-language`}
            value={form.language}
            onChange={(event) => change({ ...form, language: event.target.value === 'en' ? 'en' : 'fr' })}
          >
            {LANGUAGES.map((language) => (
              <option key={language} value={language} lang={language}>
                {t(`language.${language}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${prefix}-currency`}>{t('account.preferences.currency')}</label>
          <select
            id={`${prefix}-currency`}
            value={form.currency}
            onChange={(event) => change({ ...form, currency: event.target.value as Currency })}
          >
            {CURRENCY_CHOICES.map((code) => (
              <option key={code} value={code}>
                {t(`currencies.${code}`)}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div className="form__actions">
        <button type="submit" className="button" disabled={saving}>
          {t(saving ? 'common.saving' : 'account.preferences.save')}
        </button>
      </div>
    </form>
  );
}
