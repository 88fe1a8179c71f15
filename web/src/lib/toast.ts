import { createSlice, nanoid, type PayloadAction } from '@reduxjs/toolkit';

/** A short message at the bottom right (profile, preferences, password...): 3 s by default (spec §9). */
export interface Toast {
  id: string;
  kind: 'success' | 'error' | 'info';
  /** A translation key... */
  messageKey?: string;
  params?: Record<string, string | number>;
  /** ...or a text already in the interface language (a server message). */
  text?: string;
  durationMs: number;
}

export const TOAST_DURATION_MS = 3000;

export interface ToastState {
  items: Toast[];
}

export const toastSlice = createSlice({
  name: 'toasts',
  initialState: { items: [] } as ToastState,
  reducers: {
    toastShown: {
      reducer(state, action: PayloadAction<Toast>) {
        state.items.push(action.payload);
      },
      prepare(toast: Omit<Toast, 'id' | 'durationMs'> & { durationMs?: number }) {
        return { payload: { durationMs: TOAST_DURATION_MS, ...toast, id: nanoid() } };
      },
    },
    toastClosed(state, action: PayloadAction<string>) {
      state.items = state.items.filter((toast) => toast.id !== action.payload);
    },
  },
});

export const { toastShown, toastClosed } = toastSlice.actions;
