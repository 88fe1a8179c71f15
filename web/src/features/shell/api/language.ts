import type { Language, LanguageAnswer, LanguageChange } from '@kora/contracts';
import { api } from '../../../lib/api';

const languageApi = api.injectEndpoints({
  endpoints: (build) => ({
    saveLanguage: build.mutation<LanguageAnswer, Language>({
      query: (language) => ({
        url: '/user/preferences/language',
        method: 'PUT',
        body: { language } satisfies LanguageChange,
      }),
      invalidatesTags: ['Preferences'],
    }),
  }),
});

export const { useSaveLanguageMutation } = languageApi;
