import { Global, Module } from '@nestjs/common';
import { RealtimeRegistry } from '@kora/kernel/nest';
import { RealtimeGateway } from './realtime.gateway';

@Global()
@Module({
  providers: [RealtimeRegistry, RealtimeGateway],
  exports: [RealtimeRegistry, RealtimeGateway],
})
export class RealtimeModule {}
