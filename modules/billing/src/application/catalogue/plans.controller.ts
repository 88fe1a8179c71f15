import { Controller, Get, Query } from '@nestjs/common';
import type { PlansPage } from '@kora/contracts';
import { ApiBearerAuth, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { BILLING_SERVICES, type BillingService, PACK_SERVICES, type PackService } from '../../contracts/events';
import { packViews, payPerTrackViews } from '../../domain/catalogue';
import { CatalogueService } from './catalogue.service';

@ApiTags('billing')
@ApiBearerAuth()
@Controller('api/plans')
export class PlansController {
  constructor(private readonly catalogue: CatalogueService) {}

  @Get()
  @ApiOperation({ summary: 'The packs on sale per service, sorted by priceXOF (billingCycle MONTHLY or YEARLY)' })
  @ApiQuery({ name: 'service', required: false, enum: PACK_SERVICES })
  @ApiQuery({ name: 'billingCycle', required: false, enum: ['MONTHLY', 'YEARLY'] })
  plans(@Query('service') service?: string, @Query('billingCycle') cycle?: string): PlansPage {
    const pick = PACK_SERVICES.includes(service as PackService) ? (service as PackService) : undefined;
    return {
      plans: packViews(this.catalogue.catalogue, cycle === 'YEARLY' ? 'YEARLY' : 'MONTHLY', pick),
      catalogueVersion: this.catalogue.catalogue.version,
    };
  }

  @Get('payngo')
  @ApiOperation({ summary: 'Pay Per Track: the price of one result per service (not sold as a pack)' })
  @ApiQuery({ name: 'service', required: false, enum: BILLING_SERVICES })
  payngo(@Query('service') service?: string): PlansPage {
    const pick = BILLING_SERVICES.includes(service as BillingService) ? (service as BillingService) : undefined;
    return {
      plans: payPerTrackViews(this.catalogue.catalogue, pick),
      catalogueVersion: this.catalogue.catalogue.version,
    };
  }
}
