import type { UploadRefusal } from '@kora/contracts';
import { Controller, Delete, Head, Options, Param, Patch, Post, Req, Res } from '@nestjs/common';
import { CodedHttpException } from '../http/error.filter';
import { ApiBearerAuth, ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  type AuthenticatedUser,
  CurrentUser,
  parseUploadMetadata,
  Public,
  type ResumableUpload,
  ResumableUploads,
  TUS_VERSION,
} from '@kora/kernel/nest';
import { CodedError, UploadLengthRequiredError, UploadOffsetRequiredError } from '@kora/kernel';
import type { FastifyReply, FastifyRequest } from 'fastify';

const EXTENSIONS = 'creation,termination,expiration';

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** A header that must hold a whole number of bytes. */
function bytes(
  request: FastifyRequest,
  name: string,
  Missing: typeof UploadLengthRequiredError | typeof UploadOffsetRequiredError,
): number {
  const value = header(request, name);
  if (value === undefined || !/^\d{1,15}$/.test(value)) {
    throw new Missing(`The ${name} header must say a number of bytes.`);
  }
  return Number(value);
}

/**
 * The tus protocol (tus.io, 1.0.0: core, creation, termination, expiration) over `ResumableUploads`: any tus client
 * (tus-js-client in the web app, a studio's own) sends a file in as many requests as its network needs. Each
 * answer carries `Tus-Resumable`; a request in another version of the protocol gets 412. Errors have the API's JSON
 * shape (`code`, `message`), so a refusal by content (`UPLOAD.AUDIO_FORMAT`, `UPLOAD.TOO_LONG`, ...) reads as it does
 * for an upload in one request.
 */
@ApiTags('uploads')
@ApiBearerAuth()
@ApiHeader({ name: 'Tus-Resumable', description: '1.0.0', required: true })
@Controller('api/uploads')
export class ResumableUploadsController {
  constructor(private readonly uploads: ResumableUploads) {}

  @Public()
  @Options()
  @ApiOperation({ summary: 'What this tus server supports (version, extensions, largest file)' })
  options(@Res() reply: FastifyReply): void {
    void reply
      .code(204)
      .header('Tus-Resumable', TUS_VERSION)
      .header('Tus-Version', TUS_VERSION)
      .header('Tus-Extension', EXTENSIONS)
      .header('Tus-Max-Size', String(this.uploads.maxSize))
      .send();
  }

  @Post()
  @ApiOperation({
    summary:
      'Start a resumable upload: Upload-Length and Upload-Metadata (purpose: track, reference or mix-track; filename; ' +
      'for a track its service) are checked against the purpose’s limits before a byte is sent',
  })
  async create(
    @CurrentUser() user: AuthenticatedUser,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    this.protocol(request, reply);
    if (header(request, 'upload-defer-length') !== undefined) {
      throw new UploadLengthRequiredError();
    }
    const length = bytes(request, 'upload-length', UploadLengthRequiredError);
    const upload = await this.uploads.create(
      user.userId,
      length,
      parseUploadMetadata(header(request, 'upload-metadata')),
    );
    void this.progress(reply.code(201).header('Location', `/api/uploads/${upload.id}`), upload).send();
  }

  @Head(':id')
  @ApiOperation({ summary: 'How many bytes of the upload the server has (Upload-Offset)' })
  async status(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    this.protocol(request, reply);
    const upload = await this.uploads.status(user.userId, id).catch((error: unknown) => {
      // A HEAD answer has no body: a refusal's code and details ride in a header (URI-encoded JSON), for a client
      // that lost the refusal with its connection.
      if (error instanceof CodedError && error.kind !== 'not_found') {
        const { code, details } = error;
        const refusal: UploadRefusal = { code, ...(details ? { details } : {}) };
        reply.header('Upload-Refusal', encodeURIComponent(JSON.stringify(refusal)));
      }
      throw error;
    });
    void this.progress(reply.code(200), upload)
      .header('Upload-Length', String(upload.length))
      .header('Cache-Control', 'no-store')
      .send();
  }

  @Patch(':id')
  @ApiOperation({
    summary:
      'Append bytes (application/offset+octet-stream) from Upload-Offset, which must be the server’s; the file is ' +
      'checked by its first bytes as soon as they arrive',
  })
  async append(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    this.protocol(request, reply);
    if (!/^application\/offset\+octet-stream\s*(;|$)/i.test(header(request, 'content-type') ?? '')) {
      throw new CodedHttpException(415, 'UPLOAD.CONTENT_TYPE', 'Send the bytes as application/offset+octet-stream.');
    }
    const offset = bytes(request, 'upload-offset', UploadOffsetRequiredError);
    const upload = await this.uploads.append(user.userId, id, offset, request.raw);
    // A connection that dropped, or that a newer request took over, has nobody to answer.
    if (request.raw.socket?.destroyed !== false) return;
    void this.progress(reply.code(204), upload).send();
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Give up an upload: its bytes are removed' })
  async remove(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    this.protocol(request, reply);
    await this.uploads.remove(user.userId, id);
    void reply.code(204).send();
  }

  /** Every answer says the protocol's version; a request in another one is refused. */
  private protocol(request: FastifyRequest, reply: FastifyReply): void {
    reply.header('Tus-Resumable', TUS_VERSION);
    if (header(request, 'tus-resumable') !== TUS_VERSION) {
      reply.header('Tus-Version', TUS_VERSION);
      throw new CodedHttpException(412, 'UPLOAD.TUS_VERSION', `This server speaks tus ${TUS_VERSION}.`);
    }
  }

  private progress(reply: FastifyReply, upload: ResumableUpload): FastifyReply {
    return reply
      .header('Upload-Offset', String(upload.offset))
      .header('Upload-Expires', new Date(upload.expiresAt).toUTCString());
  }
}
