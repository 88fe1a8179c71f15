import { AccountSettingsPage, type SectionComponents } from '../../features/account/components/AccountSettingsPage';
import { GeneralSection } from '../../features/account/components/GeneralSection';
import { SecuritySection } from '../../features/account/components/SecuritySection';
import { PaymentsSection } from '../../features/billing/components/PaymentsSection';
import { PlansSection } from '../../features/billing/components/PlansSection';
import { UsageSection } from '../../features/billing/components/UsageSection';

/** The account settings route composes the account feature's page with the billing feature's sections. */
const SECTIONS: SectionComponents = {
  general: GeneralSection,
  plans: PlansSection,
  usage: UsageSection,
  payments: PaymentsSection,
  security: SecuritySection,
};

export function AccountSettingsRoute() {
  return <AccountSettingsPage sections={SECTIONS} />;
}
