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

/** Phones and tablets (768 px or less: the layout's mobile breakpoint) show this many toasts of a kind at once... */
export const SMALL_SCREEN_TOASTS = 2;
/**
 * ...the others wait their turn (their time starts when they show), so toasts never cover much of a small screen;
 * wider screens show them all.
 */
export function toastsAtOnce(windowWidth: number): number {
  return windowWidth <= 768 ? SMALL_SCREEN_TOASTS : Number.POSITIVE_INFINITY;
}

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
