import type { INestApplicationContext } from '@nestjs/common';
import { IoAdapter } from '@nestjs/platform-socket.io';
import type { Server, ServerOptions } from 'socket.io';

/** Socket.IO on the HTTP server, with CORS for the configured web origins only (same origin always works). */
export class KoraIoAdapter extends IoAdapter {
  constructor(
    app: INestApplicationContext,
    private readonly origins: readonly string[],
  ) {
    super(app);
  }

  override createIOServer(port: number, options?: ServerOptions): Server {
    const cors = this.origins.length > 0 ? { origin: [...this.origins], credentials: true } : undefined;
    return super.createIOServer(port, { ...options, ...(cors ? { cors } : {}) }) as Server;
  }
}
