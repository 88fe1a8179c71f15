import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import { StorageFullError } from '@kora/kernel';
import type { FastifyRequest } from 'fastify';
import type { Observable } from 'rxjs';
import { HealthService } from './health.service';

/**
 * Refuses uploads (any multipart request) with 507 `STORAGE.FULL` before a byte is stored while the health check
 * reports the disk low (`HEALTH_MIN_FREE_MB`): an upload that would fill the disk halfway fails for the user and
 * starves the event log of room. Runs after the guards, so an anonymous client still gets its 401.
 */
@Injectable()
export class UploadSpaceInterceptor implements NestInterceptor {
  constructor(private readonly health: HealthService) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() === 'http') {
      const request = context.switchToHttp().getRequest<FastifyRequest>();
      const type = request.headers['content-type'] ?? '';
      if (/^multipart\/form-data/i.test(type) && !this.health.diskHasRoom()) {
        throw new StorageFullError('The server is low on storage space: uploads are paused. Please try again later.');
      }
    }
    return next.handle();
  }
}
