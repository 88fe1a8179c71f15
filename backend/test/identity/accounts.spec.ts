import { AccountPurger } from '@kora/identity';
import { EventStore, isSealed, PersonalDataVault, ProjectionRunner, type Sealed } from '@kora/kernel';
import { accountStream } from '@kora/identity/contracts';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { IdentityProvider } from '@kora/identity';
import type { BuiltInIdentityProvider } from '../../src/identity-provider/built-in-provider';
import { DAY, registeredUser, TestClock, type TestUser } from '../support/accounts';
import { startTestApp, type TestApp } from '../support/test-app';

describe('accounts: profile, preferences and validation', () => {
  let test: TestApp;
  let awa: TestUser;
  let moussa: TestUser;
  beforeAll(async () => {
    test = await startTestApp({ realAuth: true });
    awa = await registeredUser(test, { email: 'awa@example.sn', firstName: 'Awa', lastName: 'Ndiaye' });
    moussa = await registeredUser(test, {
      email: 'moussa@example.ci',
      firstName: 'Moussa',
      lastName: 'Koné',
      language: 'en',
    });
  });
  afterAll(() => test.close());

  it('starts every account with the default preferences in the browser language', async () => {
    const fr = await request(test.url).get('/api/user/preferences').set(awa.auth).expect(200);
    expect(fr.body).toEqual({
      success: true,
      preferences: {
        notificationSettings: { emailNotifications: true, marketingEmails: false, newFeatures: true },
        language: 'fr',
        currency: 'XOF',
      },
    });
    const en = await request(test.url).get('/api/user/preferences').set(moussa.auth).expect(200);
    expect(en.body.preferences.language).toBe('en');
  });

  it('saves a valid profile, accepting both spellings, and reads it back', async () => {
    const saved = await request(test.url)
      .put('/api/user/profile')
      .set(awa.auth)
      .send({
        firstName: 'Awa',
        lastName: 'Ndiaye',
        email: 'awa@example.sn',
        phone: '+221 77 123 45 67',
        profileTypes: ['musicProducer', 'PODCASTER'],
        street: '12 rue Carnot',
        city: 'Dakar',
        postalCode: '10200',
        country: 'SN',
      })
      .expect(200);
    expect(saved.body.profile).toEqual({
      firstName: 'Awa',
      lastName: 'Ndiaye',
      email: 'awa@example.sn',
      contactNumber: '+221771234567',
      profileTypes: ['MUSIC_PRODUCER', 'PODCASTER'],
      streetAddress: '12 rue Carnot',
      city: 'Dakar',
      postalCode: '10200',
      country: 'SN',
      isEmailVerified: false,
      isPhoneVerified: false,
    });
    const read = await request(test.url).get('/api/user/profile').set(awa.auth).expect(200);
    expect(read.body.profile).toEqual(saved.body.profile);
  });

  it('says the e-mail is verified as soon as the confirmation link is followed, without signing in again', async () => {
    const fatou = await registeredUser(test, { email: 'fatou@example.sn', firstName: 'Fatou', lastName: 'Sow' });
    const before = await request(test.url).get('/api/user/profile').set(fatou.auth).expect(200);
    expect(before.body.profile.isEmailVerified).toBe(false);
    const provider = test.app.get(IdentityProvider) as BuiltInIdentityProvider;
    const link = await provider.users.issueToken(fatou.userId, 'email-verification', 3600);
    await request(test.url).get(`/oidc/verify/${link}`).expect(200);

    const after = await request(test.url).get('/api/user/profile').set(fatou.auth).expect(200);
    expect(after.body.profile.isEmailVerified).toBe(true);
    const events = await test.app.get(EventStore).readStream(accountStream(fatou.userId));
    expect(events.filter((event) => event.type === 'EmailVerified')).toHaveLength(1);
    // Recorded once: later reads and the next sign-in add nothing.
    await request(test.url).get('/api/user/profile').set(fatou.auth).expect(200);
    await request(test.url).post('/api/auth/signup').set(fatou.auth).expect(200);
    const again = await test.app.get(EventStore).readStream(accountStream(fatou.userId));
    expect(again.filter((event) => event.type === 'EmailVerified')).toHaveLength(1);
  });

  it.each([
    [{ firstName: '', lastName: 'N' }, { firstName: 'PROFILE.FIRST_NAME_REQUIRED' }],
    [{ firstName: 'A', lastName: ' ' }, { lastName: 'PROFILE.LAST_NAME_REQUIRED' }],
    [{ firstName: 'A', lastName: 'N', email: 'other@example.sn' }, { email: 'PROFILE.EMAIL_READ_ONLY' }],
    [{ firstName: 'A', lastName: 'N', contactNumber: '+0221' }, { contactNumber: 'PROFILE.INVALID_PHONE' }],
    [{ firstName: 'A', lastName: 'N', country: 'NG' }, { country: 'PROFILE.INVALID_COUNTRY' }],
    [{ firstName: 'A', lastName: 'N', profileTypes: ['DJ'] }, { profileTypes: 'PROFILE.INVALID_PROFILE_TYPE' }],
  ])('refuses the profile %j with a code per field, changing nothing', async (body, fields) => {
    const before = await request(test.url).get('/api/user/profile').set(awa.auth);
    const refused = await request(test.url).put('/api/user/profile').set(awa.auth).send(body).expect(400);
    expect(refused.body).toEqual({
      statusCode: 400,
      code: 'VALIDATION.FAILED',
      message: 'The request is not valid',
      fields,
    });
    const after = await request(test.url).get('/api/user/profile').set(awa.auth);
    expect(after.body).toEqual(before.body);
  });

  it('validates preferences and the language', async () => {
    const saved = await request(test.url)
      .put('/api/user/preferences')
      .set(awa.auth)
      .send({ language: 'en', currency: 'EUR', notificationSettings: { marketingEmails: true } })
      .expect(200);
    expect(saved.body.preferences).toEqual({
      notificationSettings: { emailNotifications: true, marketingEmails: true, newFeatures: true },
      language: 'en',
      currency: 'EUR',
    });
    const refused = await request(test.url)
      .put('/api/user/preferences')
      .set(awa.auth)
      .send({ currency: 'GBP', language: 'wo' })
      .expect(400);
    expect(refused.body.fields).toEqual({
      currency: 'PREFERENCES.INVALID_CURRENCY',
      language: 'PREFERENCES.INVALID_LANGUAGE',
    });
    await request(test.url).put('/api/user/preferences/language').set(awa.auth).send({ language: 'fr' }).expect(200);
    expect((await request(test.url).get('/api/user/preferences').set(awa.auth)).body.preferences.language).toBe('fr');
    const bad = await request(test.url)
      .put('/api/user/preferences/language')
      .set(awa.auth)
      .send({ language: 'de' })
      .expect(400);
    expect(bad.body.fields).toEqual({ language: 'PREFERENCES.INVALID_LANGUAGE' });
  });

  it("never lets one user's token reach another user's data", async () => {
    const mine = await request(test.url).get('/api/user/profile').set(moussa.auth).expect(200);
    expect(mine.body.profile.email).toBe('moussa@example.ci');
    await request(test.url)
      .put('/api/user/profile')
      .set(moussa.auth)
      .send({ firstName: 'Moussa', lastName: 'K.' })
      .expect(200);
    expect((await request(test.url).get('/api/user/profile').set(awa.auth)).body.profile.lastName).toBe('Ndiaye');
  });

  it('answers 404 with a code for a signed-in user who has not signed up', async () => {
    const provider = test.app.get(IdentityProvider) as BuiltInIdentityProvider;
    const user = await provider.users.create({
      email: 'new@example.sn',
      password: 'password-123',
      givenName: 'N',
      familyName: 'U',
      locale: 'fr',
    });
    const token = await provider.signAccessToken(user._id, 5, 'kora-web', test.config.oidc.audience);
    const response = await request(test.url)
      .get('/api/user/profile')
      .set('Authorization', `Bearer ${token}`)
      .expect(404);
    expect(response.body.code).toBe('ACCOUNT.NOT_FOUND');
  });

  it('requires the exact word DELETE to deactivate', async () => {
    for (const confirmationText of ['delete', 'DELETE ', '', undefined]) {
      const refused = await request(test.url)
        .post('/api/user/account/deactivate')
        .set(moussa.auth)
        .send({ confirmationText })
        .expect(400);
      expect(refused.body).toMatchObject({
        fields: { confirmationText: 'ACCOUNT.CONFIRMATION_REQUIRED' },
        message: 'Please type DELETE to confirm',
      });
    }
    expect((await request(test.url).get('/api/user/profile').set(moussa.auth)).status).toBe(200);
  });
});

describe('deactivation, the 30-day window and the purge', () => {
  const clock = new TestClock(new Date('2026-05-01T09:00:00.000Z'));
  let test: TestApp;
  beforeAll(async () => {
    test = await startTestApp({ realAuth: true, clock });
  });
  afterAll(() => test.close());

  /** A fresh access token, as signing in again gives one. */
  const signIn = async (user: TestUser) => {
    const provider = test.app.get(IdentityProvider) as BuiltInIdentityProvider;
    const token = await provider.signAccessToken(user.userId, 60, 'kora-web', test.config.oidc.audience);
    return { Authorization: `Bearer ${token}` };
  };

  it('refuses every token issued before the deactivation, and restores the account when its owner signs in within 30 days', async () => {
    const user = await registeredUser(test, { email: 'binta@example.ml', firstName: 'Binta' });
    const other = await signIn(user); // another device
    await request(test.url).get('/api/user/profile').set(user.auth).expect(200);
    const deactivated = await request(test.url)
      .post('/api/user/account/deactivate')
      .set(user.auth)
      .send({ confirmationText: 'DELETE' })
      .expect(200);
    expect(deactivated.body).toEqual({
      success: true,
      purgeAfter: new Date(clock.now().getTime() + 30 * DAY).toISOString(),
    });
    for (const auth of [user.auth, other]) {
      await request(test.url).get('/api/user/profile').set(auth).expect(401);
      await request(test.url).put('/api/user/preferences/language').set(auth).send({ language: 'en' }).expect(401);
      await request(test.url).post('/api/auth/signup').set(auth).expect(401); // an old token cannot undo it
    }
    const history = await test.app.get(EventStore).readStream(accountStream(user.userId));
    expect(history.slice(-2).map((event) => [event.type, (event.data as { reason?: string }).reason])).toEqual([
      ['AccountDeactivated', undefined],
      ['SessionsEnded', 'deactivation'],
    ]);
    // Both deactivation URLs share one handler: the event still says which one was used.
    expect((history.at(-2)!.data as { via: string }).via).toBe('settings');

    // Signed in again: changes wait for the sign-up call that restores the account.
    const again = await signIn(user);
    const blocked = await request(test.url)
      .put('/api/user/preferences/language')
      .set(again)
      .send({ language: 'en' })
      .expect(403);
    expect(blocked.body.code).toBe('ACCOUNT.DEACTIVATED');
    clock.advance(29 * DAY);
    expect(await test.app.get(AccountPurger).runOnce()).toBe(0);
    const back = await request(test.url).post('/api/auth/signup').set(again).expect(200);
    expect(back.body).toEqual({ ok: true, registered: false, reactivated: true });
    await request(test.url).put('/api/user/preferences/language').set(again).send({ language: 'en' }).expect(200);
  });

  it('deletes everything after 30 days: no sign-in restores it, the log keeps no readable personal data', async () => {
    const user = await registeredUser(test, {
      email: 'aminata@example.bf',
      firstName: 'Aminata',
      lastName: 'Ouédraogo',
    });
    await request(test.url)
      .put('/api/user/profile')
      .set(user.auth)
      .send({
        firstName: 'Aminata',
        lastName: 'Ouédraogo',
        contactNumber: '+22670123456',
        street: '5 avenue Kwamé',
        city: 'Ouagadougou',
      })
      .expect(200);
    await request(test.url).post('/api/auth/delete-account').set(user.auth).expect(200);
    await request(test.url).get('/api/user/profile').set(user.auth).expect(401);

    const events = test.app.get(EventStore);
    const raw = JSON.stringify(await events.readStream(accountStream(user.userId)));
    for (const secret of ['Aminata', 'Ouédraogo', 'aminata@example.bf', '+22670123456', 'Kwamé', 'Ouagadougou']) {
      expect(raw).not.toContain(secret); // sealed from the start
    }

    clock.advance(30 * DAY + 1);
    const later = await signIn(user);
    const tooLate = await request(test.url).post('/api/auth/signup').set(later).expect(410);
    expect(tooLate.body.code).toBe('ACCOUNT.DELETED');

    expect(await test.app.get(AccountPurger).runOnce()).toBe(1);
    expect(await test.app.get(AccountPurger).runOnce()).toBe(0);
    await request(test.url).get('/api/user/profile').set(later).expect(401); // the purge ends the sessions too
    const provider = test.app.get(IdentityProvider) as BuiltInIdentityProvider;
    expect(await provider.users.findByEmail('aminata@example.bf')).toBeNull();

    // Replaying the log after the purge: the events are all there, the personal data in them is gone for good.
    const history = await events.readStream(accountStream(user.userId));
    expect(history.map((e) => e.type)).toEqual([
      'AccountRegistered',
      'ProfileUpdated',
      'AccountDeactivated',
      'SessionsEnded',
      'AccountPurged',
      'SessionsEnded',
    ]);
    expect((history[2]!.data as { via: string }).via).toBe('delete-account');
    const vault = test.app.get(PersonalDataVault);
    const sealed = history.flatMap((event) =>
      Object.values(event.data as Record<string, unknown>).filter(isSealed),
    ) as Sealed[];
    expect(sealed.length).toBeGreaterThanOrEqual(8);
    for (const value of sealed) expect(await vault.open(user.userId, value)).toBeNull();
    const runner = test.app.get(ProjectionRunner);
    await runner.rebuild('profiles');
    await runner.rebuild('preferences');
    const { ReadStore } = await import('@kora/kernel');
    const reads = test.app.get(ReadStore);
    expect(await reads.collection('profiles').findById(user.userId)).toBeNull();
    expect(await reads.collection('preferences').findById(user.userId)).toBeNull();
  });
});
