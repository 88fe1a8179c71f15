import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { HealthController } from './health.controller';
import { HealthService } from './health.service';
import { UploadSpaceInterceptor } from './upload-space.interceptor';

@Module({
  controllers: [HealthController],
  providers: [HealthService, { provide: APP_INTERCEPTOR, useClass: UploadSpaceInterceptor }],
})
export class HealthModule {}
