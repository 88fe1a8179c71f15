import { useTranslation } from 'react-i18next';
import { failureKey } from '../model/errors';

/** A failed job's message: what the server's failure code says, else the generic "try again". */
export function FailedJob({ errorCode }: { errorCode: string | null | undefined }) {
  const { t } = useTranslation();
  return (
    <div className="studio-message">
      <p className="studio-banner" role="alert">
        {t(`studio:${failureKey(errorCode)}`)}
      </p>
    </div>
  );
}
