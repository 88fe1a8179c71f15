import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { TokenSet } from './session';

/** Who is signed in, as the interface shows it. Names and e-mail come from the token, then from the profile API. */
export interface SessionUser {
  sub: string;
  email: string | null;
  name: string | null;
  givenName: string | null;
  familyName: string | null;
  /** The picture as a local object URL once fetched, else the provider's URL. */
  picture: string | null;
}

export interface SessionState {
  status: 'loading' | 'authenticated' | 'anonymous';
  user: SessionUser | null;
}

const initialState: SessionState = { status: 'loading', user: null };

const claim = (profile: TokenSet['profile'], name: string): string | null => {
  const value = profile[name];
  return typeof value === 'string' && value !== '' ? value : null;
};

export function userFromTokens(tokens: TokenSet): SessionUser {
  const { profile } = tokens;
  return {
    sub: profile.sub,
    email: claim(profile, 'email'),
    name: claim(profile, 'name'),
    givenName: claim(profile, 'given_name'),
    familyName: claim(profile, 'family_name'),
    picture: claim(profile, 'picture'),
  };
}

export const sessionSlice = createSlice({
  name: 'session',
  initialState,
  reducers: {
    sessionResolved(state, action: PayloadAction<SessionUser | null>) {
      state.status = action.payload ? 'authenticated' : 'anonymous';
      state.user = action.payload;
    },
    /** Merges partial fields (the spec's updateUserProfile). */
    userUpdated(state, action: PayloadAction<Partial<Omit<SessionUser, 'sub'>>>) {
      if (!state.user) return;
      const next = { ...state.user, ...action.payload };
      if (action.payload.givenName !== undefined || action.payload.familyName !== undefined) {
        const full = [next.givenName, next.familyName].filter(Boolean).join(' ');
        next.name = full || next.name;
      }
      state.user = next;
    },
  },
});

export const { sessionResolved, userUpdated } = sessionSlice.actions;
