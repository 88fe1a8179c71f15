import { Module } from '@nestjs/common';
import { ResumableUploadsController } from './resumable-uploads.controller';

/** The resumable upload protocol's routes; the store (`ResumableUploads`) is infrastructure (`InfraModule`). */
@Module({ controllers: [ResumableUploadsController] })
export class UploadsModule {}
