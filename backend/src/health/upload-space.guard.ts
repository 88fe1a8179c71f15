import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { StorageFullError } from '@kora/kernel';
import type { FastifyRequest } from 'fastify';
import { HealthService } from './health.service';

/**
 * Refuses uploads (any multipart request, and resumable uploads' creations and bytes) with 507 `STORAGE.FULL` before a byte is stored while the health check
 * reports the disk low (`HEALTH_MIN_FREE_MB`): an upload that would fill the disk halfway fails for the user and
 * starves the event log of room. A global guard registered after the token check (`AppModule`), so an anonymous
 * client still gets its 401. A guard rather than an interceptor: a global interceptor puts every request of every
 * route through Nest's interceptor chain (an `AsyncResource` and an RxJS pipeline each): as an interceptor this check
 * halved the track list's requests per second (`npm run bench:api`, docs/benchmarks.md).
 */
@Injectable()
export class UploadSpaceGuard implements CanActivate {
  constructor(private readonly health: HealthService) {}

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const headers = context.switchToHttp().getRequest<FastifyRequest>().headers;
    const type = headers['content-type'] ?? '';
    // A multipart upload, a resumable upload's creation (it announces its length) or its bytes.
    const upload =
      /^(multipart\/form-data|application\/offset\+octet-stream)/i.test(type) || headers['upload-length'] !== undefined;
    if (upload && !this.health.diskHasRoom()) {
      throw new StorageFullError('The server is low on storage space: uploads are paused. Please try again later.');
    }
    return true;
  }
}
