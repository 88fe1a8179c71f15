import { AccountSettingsPage, type SectionComponents } from '../../features/account/components/AccountSettingsPage';
import { GeneralSection } from '../../features/account/components/GeneralSection';
import { SecuritySection } from '../../features/account/components/SecuritySection';
import { PaymentsSection } from '../../features/billing/components/PaymentsSection';
import { PlansSection } from '../../features/billing/components/PlansSection';
import { UsageSection } from '../../features/billing/components/UsageSection';
import { PackPurchase } from '../../features/payment/components/PackPurchase';
import type { SettingsSectionProps } from '../../lib/settings-sections';

/** The plans section buys packs through the payment feature's panel. */
function Plans(props: SettingsSectionProps) {
  return <PlansSection {...props} Purchase={PackPurchase} />;
}

/** The account settings route composes the account feature's page with the billing and payment features' sections. */
const SECTIONS: SectionComponents = {
  general: GeneralSection,
  plans: Plans,
  usage: UsageSection,
  payments: PaymentsSection,
  security: SecuritySection,
};

export function AccountSettingsRoute() {
  return <AccountSettingsPage sections={SECTIONS} />;
}
