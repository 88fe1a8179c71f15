import { Inject, Injectable } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BillingService, PackService } from '../../contracts/events';
import {
  type Catalogue,
  catalogueProblems,
  type PackDefinition,
  type PayPerTrackDefinition,
} from '../../domain/catalogue';
import { BILLING_OPTIONS, type BillingOptions } from '../billing-options';

/** The built-in catalogue, beside this module's sources (copied to `dist/` by the build). */
export const BUILT_IN_CATALOGUE = join(__dirname, '..', '..', 'catalogue', 'catalogue.json');

/** Reads and checks a catalogue file; throws one readable error listing every problem. */
export function loadCatalogue(path: string): Catalogue {
  const value: unknown = JSON.parse(readFileSync(path, 'utf8'));
  const problems = catalogueProblems(value);
  if (problems.length > 0) throw new Error(`The catalogue ${path} is not valid:\n- ${problems.join('\n- ')}`);
  return value as Catalogue;
}

/** The plans and prices on sale: the operator's file (`BILLING_CATALOGUE`) or the built-in one, read at start. */
@Injectable()
export class CatalogueService {
  readonly catalogue: Catalogue;

  constructor(@Inject(BILLING_OPTIONS) options: BillingOptions) {
    this.catalogue = loadCatalogue(options.cataloguePath ?? BUILT_IN_CATALOGUE);
  }

  pack(planId: string): PackDefinition | undefined {
    return this.catalogue.packs.find((pack) => pack.id === planId);
  }

  payPerTrack(service: BillingService): PayPerTrackDefinition {
    return this.catalogue.payPerTrack.find((plan) => plan.serviceType === service)!;
  }

  isPayPerTrack(planId: string): boolean {
    return this.catalogue.payPerTrack.some((plan) => plan.id === planId);
  }

  packsOf(service: PackService): PackDefinition[] {
    return this.catalogue.packs.filter((pack) => pack.serviceType === service);
  }
}
