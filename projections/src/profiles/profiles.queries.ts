import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import {
  GetAccountsDueForPurge,
  GetPreferences,
  GetProfile,
  GetProfileByEmailFingerprint,
  type PreferencesDocument,
  type ProfileDocument,
} from '@kora/identity/contracts';
import { ReadStore } from '@kora/kernel';

@QueryHandler(GetProfile)
export class GetProfileHandler implements IQueryHandler<GetProfile, ProfileDocument | null> {
  constructor(private readonly reads: ReadStore) {}
  execute({ userId }: GetProfile): Promise<ProfileDocument | null> {
    return this.reads.collection<ProfileDocument>('profiles').findById(userId);
  }
}

@QueryHandler(GetProfileByEmailFingerprint)
export class GetProfileByEmailFingerprintHandler implements IQueryHandler<
  GetProfileByEmailFingerprint,
  ProfileDocument | null
> {
  constructor(private readonly reads: ReadStore) {}
  execute({ emailFingerprint }: GetProfileByEmailFingerprint): Promise<ProfileDocument | null> {
    return this.reads.collection<ProfileDocument>('profiles').findOne({ emailFingerprint });
  }
}

@QueryHandler(GetAccountsDueForPurge)
export class GetAccountsDueForPurgeHandler implements IQueryHandler<GetAccountsDueForPurge, ProfileDocument[]> {
  constructor(private readonly reads: ReadStore) {}
  execute({ now, limit }: GetAccountsDueForPurge): Promise<ProfileDocument[]> {
    return this.reads
      .collection<ProfileDocument>('profiles')
      .find({ status: 'deactivated', purgeAfter: { $lte: now } }, { sort: { purgeAfter: 1 }, limit });
  }
}

@QueryHandler(GetPreferences)
export class GetPreferencesHandler implements IQueryHandler<GetPreferences, PreferencesDocument | null> {
  constructor(private readonly reads: ReadStore) {}
  execute({ userId }: GetPreferences): Promise<PreferencesDocument | null> {
    return this.reads.collection<PreferencesDocument>('preferences').findById(userId);
  }
}
