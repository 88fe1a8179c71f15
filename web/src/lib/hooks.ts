import { type TypedUseSelectorHook, useDispatch, useSelector } from 'react-redux';
import type { RealtimeState } from './realtime';
import type { SessionState } from './session/slice';
import type { ToastState } from './toast';

/** The slices every feature may read (the store in app/ adds the API's). */
export interface SharedState {
  session: SessionState;
  toasts: ToastState;
  realtime: RealtimeState;
}

export const useAppSelector: TypedUseSelectorHook<SharedState> = useSelector;
export const useAppDispatch = useDispatch;
