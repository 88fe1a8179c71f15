import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../../components/Modal';
import { formatMoney } from '../../../lib/format';
import { sleep } from '../../../lib/sleep';
import { useNow } from '../../../lib/useNow';
import { type OrangeMoneyIntent, usePaymentStatusMutation } from '../api/payment';
import { clock, PAYMENT_LIMITS } from '../model/rules';
import type { OrangeOutcome } from '../hooks/useCheckout';

interface OrangeMoneyModalProps {
  intent: OrangeMoneyIntent;
  /** Called once, as soon as the payment is seen paid (before the 5 s of success). */
  onPaid(): void;
  onClosed(reason: OrangeOutcome, declined?: string): void;
}

/**
 * The Orange Money QR code (spec §4): its status every 2 s; paid shows the success 5 s; failed closes with
 * 'Payment failed'; cancelled at Orange Money closes as cancelled; the countdown reaching 0 closes; closing by hand
 * cancels the payment.
 */
export function OrangeMoneyModal({ intent, onPaid, onClosed }: OrangeMoneyModalProps) {
  const { t, i18n } = useTranslation();
  const [status] = usePaymentStatusMutation();
  const [opened] = useState(() => Date.now());
  const now = useNow(1000);
  const [paid, setPaid] = useState(false);
  const closedRef = useRef(onClosed);
  closedRef.current = onClosed;
  const paidRef = useRef(onPaid);
  paidRef.current = onPaid;
  const validity = intent.validity ?? 300;
  const left = Math.max(0, validity - Math.floor((now - opened) / 1000));

  useEffect(() => {
    if (paid) return;
    let stopped = false;
    const poll = async () => {
      while (!stopped) {
        await sleep(PAYMENT_LIMITS.orangeMoneyPollMs);
        if (stopped) return;
        const answer = await status(intent.paymentId)
          .unwrap()
          .catch(() => null);
        if (stopped || !answer) continue;
        if (answer.status === 'COMPLETED') {
          paidRef.current();
          setPaid(true);
          return;
        }
        if (answer.status === 'FAILED') {
          return answer.reason ? closedRef.current('failed', answer.reason) : closedRef.current('failed');
        }
        // Cancelled from the phone is the payer's choice: it is not called expired, nor failed.
        if (answer.status === 'CANCELLED') return closedRef.current('cancelled');
        if (answer.status === 'EXPIRED') return closedRef.current('expired');
      }
    };
    void poll();
    return () => {
      stopped = true;
    };
  }, [intent.paymentId, paid, status]);

  useEffect(() => {
    if (!paid && left === 0) closedRef.current('expired');
  }, [left, paid]);

  useEffect(() => {
    if (!paid) return;
    // The success stays in view 5 s, then the checkout goes on.
    const timer = setTimeout(() => closedRef.current('paid'), PAYMENT_LIMITS.successDelayMs);
    return () => clearTimeout(timer);
  }, [paid]);

  const qr = intent.qrCode?.startsWith('data:') ? intent.qrCode : `data:image/png;base64,${intent.qrCode ?? ''}`;
  return (
    <Modal title={t('payment:orange.title')} onClose={() => (paid ? undefined : onClosed('user'))} className="om-modal">
      <p className="om-modal__amount">{formatMoney(intent.amount, 'XOF', i18n.language)}</p>
      <img className="om-modal__qr" src={qr} alt={t('payment:orange.qrAlt')} width={220} height={220} />
      <p>{t('payment:orange.scan')}</p>
      {intent.merchantCode && (
        <p>
          {t('payment:orange.merchant')} <strong className="om-modal__merchant">{intent.merchantCode}</strong>
        </p>
      )}
      <div className="om-modal__links">
        {intent.deepLinks?.OM && (
          <a className="button button--ghost" href={intent.deepLinks.OM}>
            {t('payment:orange.openOm')}
          </a>
        )}
        {intent.deepLinks?.MAXIT && (
          <a className="button button--ghost" href={intent.deepLinks.MAXIT}>
            {t('payment:orange.openMaxit')}
          </a>
        )}
      </div>
      {paid ? (
        <p className="payment-success" role="status">
          {t('payment:success')}
        </p>
      ) : (
        <>
          <p className="om-modal__countdown" role="timer" aria-live="off">
            {t('payment:orange.validity', { time: clock(left) })}
          </p>
          <p className="muted" role="status">
            {t('payment:orange.waiting')}
          </p>
        </>
      )}
      <div className="modal__actions">
        <button type="button" className="button button--ghost" disabled={paid} onClick={() => onClosed('user')}>
          {t('payment:orange.cancel')}
        </button>
      </div>
    </Modal>
  );
}
