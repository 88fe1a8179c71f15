import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { LoadingScreen } from '../../../components/LoadingScreen';

/** /payment/success and /payment/cancel: closes the window opened for the payment, else goes home. */
export function PaymentReturnPage() {
  const navigate = useNavigate();
  useEffect(() => {
    if (window.opener && window.opener !== window) {
      window.close();
      return;
    }
    navigate('/', { replace: true });
  }, [navigate]);
  return (
    <main id="main" className="centered-page">
      <LoadingScreen />
    </main>
  );
}
