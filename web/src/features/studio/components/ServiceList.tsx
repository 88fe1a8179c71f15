import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { formatMoney } from '../../../lib/format';
import { SERVICES, type ServiceId } from '../model/services';

interface ServiceListProps {
  selected?: ServiceId | null;
  onSelect?(service: ServiceId): void;
  /** While a job uploads or processes, the choice is frozen (spec §2). */
  disabled?: boolean;
  /** Under AI mixing's card, a link to its screens (they open from the dashboard's address, spec §1). */
  mixingLink?: boolean;
}

/** The services with their price per track; AI mixing is marked coming soon and cannot be picked. */
export function ServiceList({ selected, onSelect, disabled = false, mixingLink = false }: ServiceListProps) {
  const { t, i18n } = useTranslation();
  return (
    <ul className="services">
      {SERVICES.map((service) => {
        const isSelected = selected === service.id;
        const content = (
          <>
            <span className="service__name">{t(`services.${service.id}.name`)}</span>
            <span className="service__description">{t(`services.${service.id}.description`)}</span>
            <span className="service__price">
              {service.available
                ? t('services.pricePerTrack', { price: formatMoney(service.priceUsd, 'USD', i18n.language) })
                : t('services.comingSoon')}
            </span>
          </>
        );
        return (
          <li key={service.id} className={`service${service.available ? '' : ' service--soon'}`}>
            {onSelect ? (
              <button
                type="button"
                className={`service__card${isSelected ? ' is-selected' : ''}`}
                aria-pressed={isSelected}
                disabled={!service.available || disabled}
                onClick={() => onSelect(service.id)}
              >
                {content}
              </button>
            ) : (
              <div className="service__card">{content}</div>
            )}
            {mixingLink && service.id === 'AI_MIXING' && (
              <Link className="service__soon-link" to="/dashboard?service=AI_MIXING">
                {t('studio:mixingPicker')}
              </Link>
            )}
          </li>
        );
      })}
    </ul>
  );
}
