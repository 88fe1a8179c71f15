import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { EventToAppend } from '@kora/kernel';

/** A fresh temporary directory, removed by the returned cleanup. */
export function tempDir(prefix = 'kora-test-'): { path: string; cleanup: () => void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, cleanup: () => rmSync(path, { recursive: true, force: true }) };
}

/** A test event with a complete envelope. */
export function testEvent(
  type: string,
  data: unknown = {},
  metadata: Partial<EventToAppend['metadata']> = {},
): EventToAppend {
  return {
    id: randomUUID(),
    type,
    data,
    metadata: {
      correlationId: 'corr-1',
      causationId: 'cause-1',
      userId: 'user-1',
      occurredAt: '2026-01-01T00:00:00.000Z',
      schemaVersion: 1,
      ...metadata,
    },
  };
}

export const unique = (prefix: string): string => `${prefix}${randomUUID().replace(/-/g, '').slice(0, 12)}`;
