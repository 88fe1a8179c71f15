import { configureStore } from '@reduxjs/toolkit';
import { setupListeners } from '@reduxjs/toolkit/query';
import { api, type ApiExtra } from '../lib/api';
import { realtimeSlice } from '../lib/realtime';
import { sessionSlice } from '../lib/session/slice';
import { toastSlice } from '../lib/toast';

export function makeStore(extra: ApiExtra) {
  const store = configureStore({
    reducer: {
      [api.reducerPath]: api.reducer,
      session: sessionSlice.reducer,
      toasts: toastSlice.reducer,
      realtime: realtimeSlice.reducer,
    },
    middleware: (getDefault) => getDefault({ thunk: { extraArgument: extra } }).concat(api.middleware),
  });
  setupListeners(store.dispatch);
  return store;
}

export type AppStore = ReturnType<typeof makeStore>;
export type RootState = ReturnType<AppStore['getState']>;
