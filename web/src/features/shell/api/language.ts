import { api } from '../../../lib/api';

const languageApi = api.injectEndpoints({
  endpoints: (build) => ({
    saveLanguage: build.mutation<{ success: boolean; language: string }, 'en' | 'fr'>({
      query: (language) => ({ url: '/user/preferences/language', method: 'PUT', body: { language } }),
      invalidatesTags: ['Preferences'],
    }),
  }),
});

export const { useSaveLanguageMutation } = languageApi;
