import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { LibraryAnswer } from '@kora/contracts';
import { type AuthenticatedUser, CurrentUser } from '@kora/kernel/nest';
import { ENHANCEMENT_PRESETS, type EnhancementPreset, TRACK_SERVICES, type TrackService } from '../../contracts/events';
import { GetLibrary, type LibraryDocument } from '../../contracts/queries';
import { stripTags } from '../tracks/track-view';
import { fitsChoice } from '../upload/upload-rules';

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
    summary:
      'The media library: files the user uploaded, copies of one file collapsed to the newest; with `service` ' +
      '(and `preset`), only the files that service takes (`hidden`: how many others there are)',
  })
  @ApiQuery({ name: 'service', required: false, enum: TRACK_SERVICES })
  @ApiQuery({ name: 'preset', required: false, enum: ENHANCEMENT_PRESETS })
  async library(
    @CurrentUser() user: AuthenticatedUser,
    @Query('service') service?: string,
    @Query('preset') preset?: string,
  ): Promise<LibraryAnswer> {
    const docs = await this.queries.execute<GetLibrary, LibraryDocument[]>(new GetLibrary(user.userId, LIBRARY_SIZE));
    const chosen = TRACK_SERVICES.includes(service as TrackService) ? (service as TrackService) : null;
    const choicePreset = ENHANCEMENT_PRESETS.includes(preset as EnhancementPreset)
      ? (preset as EnhancementPreset)
      : 'audio';
    // A file the chosen service would refuse (too small, too long, a video for audio) is not offered at all.
    const offered = chosen ? docs.filter((doc) => fitsChoice(doc, chosen, choicePreset)) : docs;
    return {
      tracks: offered.map((doc) => ({
        id: doc._id,
        filename: stripTags(doc.filename),
        fileSize: doc.fileSize,
        createdAt: doc.createdAt,
      })),
      hidden: docs.length - offered.length,
    };
  }
}
