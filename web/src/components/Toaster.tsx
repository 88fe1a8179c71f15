import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppDispatch, useAppSelector } from '../lib/hooks';
import { type Toast, toastClosed } from '../lib/toast';

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

/** The app's short messages, at the bottom right (spec §9: 3 s). */
export function Toaster() {
  const toasts = useAppSelector((state) => state.toasts.items);
  return (
    <div className="toaster toaster--bottom" aria-live="polite">
      {toasts.map((toast) => (
        <ToastItem key={toast.id} toast={toast} />
      ))}
    </div>
  );
}
