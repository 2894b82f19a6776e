import { describe, expect, it } from 'vitest';
import {
  generateWebhookSecret,
  parseWebhookSecretKey,
  webhookSecretKeyId,
  WebhookSecretKeyError,
} from '../../src/index.js';
import { createWebhookSecretBox } from '../../src/webhooks/secret-box.js';

/** Awaits `promise` and expects a WebhookSecretKeyError (`webhook_secret_key_missing`). */
async function expectSecretKeyError(promise: Promise<unknown>): Promise<WebhookSecretKeyError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(WebhookSecretKeyError);
  expect((error as WebhookSecretKeyError).code).toBe('webhook_secret_key_missing');
  return error as WebhookSecretKeyError;
}

const key = (fill: number): string => Buffer.alloc(32, fill).toString('base64');
const OLD = key(1);
const NEW = key(2);
const owner = { id: 'we_1', account: 'acct_a', environment: 'live' };

describe('webhook secrets sealed at rest', () => {
  it('seals with AES-256-GCM under the key id, and opens to the same secret', async () => {
    const box = createWebhookSecretBox([NEW]);
    const secret = generateWebhookSecret();
    const sealed = await box.seal(secret, owner);
    expect(box.keyId).toBe(webhookSecretKeyId(NEW));
    expect(sealed).toMatch(new RegExp(`^sealed:v1:${box.keyId!}:[A-Za-z0-9+/]+=*$`));
    expect(sealed).not.toContain(secret.slice(6));
    // 12 bytes of IV, the secret, 16 bytes of tag.
    expect(Buffer.from(sealed.split(':')[3]!, 'base64')).toHaveLength(12 + secret.length + 16);
    expect(await box.open(sealed, owner)).toBe(secret);
    // A fresh IV each time; sealing what is sealed with the current key changes nothing.
    expect(await box.seal(secret, owner)).not.toBe(sealed);
    expect(await box.seal(sealed, owner)).toBe(sealed);
    expect(box.needsSealing(sealed)).toBe(false);
    expect(box.needsSealing(secret)).toBe(true);
  });

  it('binds a sealed secret to its endpoint: copied to another, it does not open', async () => {
    const box = createWebhookSecretBox([NEW]);
    const sealed = await box.seal(generateWebhookSecret(), owner);
    for (const other of [
      { ...owner, id: 'we_2' },
      { ...owner, account: 'acct_b' },
      { ...owner, environment: 'test' },
    ]) {
      const error = await expectSecretKeyError(box.open(sealed, other));
      expect(error.message).toContain('does not open');
    }
    const flipped = sealed.slice(0, -4) + (sealed.endsWith('AAA=') ? 'BAA=' : 'AAA=');
    await expectSecretKeyError(box.open(flipped, owner));
  });

  it('opens what older keys sealed and seals it again with the newest', async () => {
    const secret = generateWebhookSecret();
    const sealedOld = await createWebhookSecretBox([OLD]).seal(secret, owner);
    const rotated = createWebhookSecretBox([NEW, OLD]);
    expect(await rotated.open(sealedOld, owner)).toBe(secret);
    expect(rotated.needsSealing(sealedOld)).toBe(true);
    const resealed = await rotated.seal(sealedOld, owner);
    expect(resealed.startsWith(`sealed:v1:${webhookSecretKeyId(NEW)}:`)).toBe(true);
    expect(await createWebhookSecretBox([NEW]).open(resealed, owner)).toBe(secret);
    // Without the old key it stays as it was, and signing says which key is missing.
    const newOnly = createWebhookSecretBox([NEW]);
    expect(await newOnly.seal(sealedOld, owner)).toBe(sealedOld);
    const error = await expectSecretKeyError(newOnly.open(sealedOld, owner));
    expect(error.message).toContain(webhookSecretKeyId(OLD));
    expect(error.message).not.toContain(OLD);
  });

  it('keeps readable secrets readable without a key, and opens them with one', async () => {
    const secret = generateWebhookSecret();
    const none = createWebhookSecretBox();
    expect(none.keyId).toBeNull();
    expect(await none.seal(secret, owner)).toBe(secret);
    expect(none.needsSealing(secret)).toBe(false);
    expect(await createWebhookSecretBox([NEW]).open(secret, owner)).toBe(secret);
    const sealed = await createWebhookSecretBox([NEW]).seal(secret, owner);
    await expectSecretKeyError(none.open(sealed, owner));
  });

  it('accepts only 32 bytes of base64 as a key', () => {
    expect(parseWebhookSecretKey(` ${NEW}\n`)).toHaveLength(32);
    for (const bad of ['', 'not base64!', Buffer.alloc(16).toString('base64'), key(3) + 'AAAA'])
      expect(() => parseWebhookSecretKey(bad)).toThrow(TypeError);
    expect(() => createWebhookSecretBox(['short'])).toThrow(/32 bytes|base64/);
    expect(webhookSecretKeyId(OLD)).toMatch(/^[0-9a-f]{12}$/);
    expect(webhookSecretKeyId(OLD)).not.toBe(webhookSecretKeyId(NEW));
  });
});
