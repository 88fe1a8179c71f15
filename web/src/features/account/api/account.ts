import type {
  DeactivateAnswer,
  DeactivateRequest,
  PasswordResetAnswer,
  PasswordResetRequest,
  Preferences,
  PreferencesAnswer,
  PreferencesUpdate,
  Profile,
  ProfileAnswer,
  ProfileUpdate,
} from '@kora/contracts';
import { api } from '../../../lib/api';

export {
  type NotificationSettings,
  type Preferences,
  PROFILE_TYPES,
  type Profile,
  type ProfileType,
  type ProfileUpdate,
} from '@kora/contracts';

const accountApi = api.injectEndpoints({
  endpoints: (build) => ({
    getProfile: build.query<Profile, void>({
      query: () => '/user/profile',
      transformResponse: (answer: ProfileAnswer) => answer.profile,
      providesTags: [{ type: 'Profile', id: 'ME' }],
    }),
    updateProfile: build.mutation<Profile, ProfileUpdate>({
      query: (body) => ({ url: '/user/profile', method: 'PUT', body }),
      transformResponse: (answer: ProfileAnswer) => answer.profile,
      async onQueryStarted(_body, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(accountApi.util.upsertQueryData('getProfile', undefined, data));
        } catch {
          // The form shows the error.
        }
      },
    }),
    getPreferences: build.query<Preferences, void>({
      query: () => '/user/preferences',
      transformResponse: (answer: PreferencesAnswer) => answer.preferences,
      providesTags: [{ type: 'Preferences', id: 'ME' }],
    }),
    updatePreferences: build.mutation<Preferences, PreferencesUpdate>({
      query: (body) => ({ url: '/user/preferences', method: 'PUT', body }),
      transformResponse: (answer: PreferencesAnswer) => answer.preferences,
      async onQueryStarted(_body, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(accountApi.util.upsertQueryData('getPreferences', undefined, data));
        } catch {
          // The form shows the error.
        }
      },
    }),
    requestPasswordReset: build.mutation<PasswordResetAnswer, PasswordResetRequest>({
      query: (body) => ({ url: '/auth/reset-password', method: 'POST', body }),
    }),
    deactivateAccount: build.mutation<DeactivateAnswer, DeactivateRequest>({
      query: (body) => ({ url: '/user/account/deactivate', method: 'POST', body }),
    }),
  }),
});

export const {
  useGetProfileQuery,
  useUpdateProfileMutation,
  useGetPreferencesQuery,
  useUpdatePreferencesMutation,
  useRequestPasswordResetMutation,
  useDeactivateAccountMutation,
} = accountApi;
