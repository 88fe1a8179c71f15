import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppDispatch, useAppSelector } from '../lib/hooks';
import { type Toast, toastClosed, toastsAtOnce } from '../lib/toast';
import { useWindowWidth } from '../lib/useWindowWidth';

function ToastItem({ toast }: { toast: Toast }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  useEffect(() => {
    const timer = setTimeout(() => dispatch(toastClosed(toast.id)), toast.durationMs);
    return () => clearTimeout(timer);
  }, [dispatch, toast.id, toast.durationMs]);
  const text = toast.text ?? (toast.messageKey ? t(toast.messageKey, toast.params) : '');
  return (
    <div className={`toast toast--${toast.kind}`} role={toast.kind === 'error' ? 'alert' : 'status'}>
      <p className="toast__message">{text}</p>
      <button
        type="button"
        className="icon-button toast__close"
        aria-label={t('common.close')}
        onClick={() => dispatch(toastClosed(toast.id))}
      >
        <span aria-hidden="true">×</span>
      </button>
    </div>
  );
}

/**
 * The app's short messages, at the bottom right (spec §9: 3 s); on a phone or a tablet two at a time, the next as one
 * closes.
 */
export function Toaster() {
  const toasts = useAppSelector((state) => state.toasts.items);
  const atOnce = toastsAtOnce(useWindowWidth());
  return (
    <div className="toaster toaster--bottom" aria-live="polite">
      {toasts.slice(0, atOnce).map((toast) => (
        <ToastItem key={toast.id} toast={toast} />
      ))}
    </div>
  );
}
