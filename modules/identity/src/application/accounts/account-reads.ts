import { Injectable } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { GetPreferences, GetProfile, type PreferencesDocument, type ProfileDocument } from '../../contracts/queries';
import { AccountNotFoundError } from '../../domain/errors';

/** The identity read side, through the query bus (the projections package answers). */
@Injectable()
export class AccountReads {
  constructor(private readonly queries: QueryBus) {}

  async profile(userId: string): Promise<ProfileDocument> {
    const profile = await this.queries.execute<GetProfile, ProfileDocument | null>(new GetProfile(userId));
    if (!profile) throw new AccountNotFoundError();
    return profile;
  }

  async preferences(userId: string): Promise<PreferencesDocument> {
    const preferences = await this.queries.execute<GetPreferences, PreferencesDocument | null>(
      new GetPreferences(userId),
    );
    if (!preferences) throw new AccountNotFoundError();
    return preferences;
  }
}
