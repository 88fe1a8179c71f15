import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { chooseLanguage, currentLanguage, isLanguage, LANGUAGES } from '../../../lib/i18n';
import { useSession } from '../../../lib/session/SessionProvider';
import { useSaveLanguageMutation } from '../api/language';

/** The footer's language menu: remembered on this device, and on the account when signed in (spec §4). */
export function LanguageMenu() {
  const { t, i18n } = useTranslation();
  const { isAuthenticated } = useSession();
  const [saveLanguage] = useSaveLanguageMutation();
  const id = useId();
  return (
    <div className="language-menu">
      <label htmlFor={id}>{t('language.label')}</label>
      <select
        id={id}
        value={isLanguage(i18n.language) ? i18n.language : currentLanguage()}
        onChange={(event) => {
          const language = event.target.value;
          if (!isLanguage(language)) return;
          void chooseLanguage(language);
          if (isAuthenticated) {
            saveLanguage(language)
              .unwrap()
              .catch((error: unknown) => console.warn('The language could not be saved on the account', error));
          }
        }}
      >
        {LANGUAGES.map((language) => (
          <option key={language} value={language} lang={language}>
            {t(`language.${language}`)}
          </option>
        ))}
      </select>
    </div>
  );
}
