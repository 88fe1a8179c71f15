import { Controller, Get } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type AuthenticatedUser, CurrentUser } from '@kora/kernel/nest';
import { GetLibrary, type LibraryDocument } from '../../contracts/queries';
import { stripTags } from '../tracks/track-view';

/** The library lists the newest 100 files. */
const LIBRARY_SIZE = 100;

@ApiTags('audio')
@ApiBearerAuth()
@Controller('api/audio')
export class ListLibraryController {
  constructor(private readonly queries: QueryBus) {}

  @Get('library')
  @ApiOperation({
    operationId: 'TracksController_library',
    summary: 'The media library: files the user uploaded, copies collapsed to the newest',
  })
  async library(
    @CurrentUser() user: AuthenticatedUser,
  ): Promise<{ tracks: Array<{ id: string; filename: string; fileSize: number; createdAt: string }> }> {
    const docs = await this.queries.execute<GetLibrary, LibraryDocument[]>(new GetLibrary(user.userId, LIBRARY_SIZE));
    return {
      tracks: docs.map((doc) => ({
        id: doc._id,
        filename: stripTags(doc.filename),
        fileSize: doc.fileSize,
        createdAt: doc.createdAt,
      })),
    };
  }
}
