import { type CurrentSubscription, type ServiceType, useGetCurrentSubscriptionQuery } from '../api/billing';

/**
 * Whether the upload card may take a new file for a service (spec §2, upload card): `subscribe` when the service's
 * remaining quota is 0 or less, or the subscription details are missing (no plan, or they could not be read);
 * `checking` until they are known.
 */
export type UploadAccess = 'open' | 'subscribe' | 'checking';

/** The services whose new jobs need credits left (stem separation and audio enhancement; mastering is free to try). */
const QUOTA_SERVICES: readonly string[] = ['STEM_SEPARATION', 'AUDIO_ENHANCEMENT'];

/**
 * The credits of a current subscription as this check reads them: the contract's `remaining` map, else the services'
 * totals. Looser than `CurrentSubscription` (which it accepts), because an answer is only known at run time.
 */
type CreditsRead = {
  remaining?: Partial<CurrentSubscription['remaining']>;
  services?: Partial<Record<ServiceType, { remaining?: number }>>;
};

export function uploadAccess(
  service: string,
  subscription: CreditsRead | null | undefined,
  failed: boolean,
): UploadAccess {
  if (!QUOTA_SERVICES.includes(service)) return 'open';
  if (failed || subscription === null) return 'subscribe';
  if (subscription === undefined) return 'checking';
  const remaining =
    subscription.remaining?.[service as ServiceType] ?? subscription.services?.[service as ServiceType]?.remaining;
  return typeof remaining === 'number' && remaining > 0 ? 'open' : 'subscribe';
}

/** The upload access for a service from the current subscription (the header's query: one request for both). */
export function useUploadAccess(service: string): UploadAccess {
  const { data, isError } = useGetCurrentSubscriptionQuery();
  return uploadAccess(service, data, isError);
}
