import type { FieldCode } from '@kora/contracts';
import { Body, Controller, Get, Inject, Injectable, Module, type OnModuleInit, Param, Post } from '@nestjs/common';
import { CommandHandler, CommandBus, EventsHandler, type ICommandHandler, type IEventHandler } from '@nestjs/cqrs';
import {
  type CommandContext,
  type Decider,
  defineProjection,
  type DomainEvent,
  durable,
  type DurableEvent,
  EventStore,
  handleCommand,
  ReadStore,
  ValidationFailedError,
  CodedError,
} from '@kora/kernel';
import { type AuthenticatedUser, CurrentUser, RealtimeRegistry } from '@kora/kernel/nest';
import { CLOCK, IDS } from '../../src/infra/infra.module';
import type { Clock, IdGenerator } from '@kora/kernel';

/**
 * A tiny feature built the way product modules are: a pure decider, a thin command handler, a projection, an event
 * handler on the bus and a socket mapping. It exists to prove the spine end to end.
 */
export type NoteEvent =
  | DomainEvent<'NoteWritten', { noteId: string; ownerId: string; text: string }>
  | DomainEvent<'NoteEdited', { noteId: string; text: string }>;

type NoteState = { exists: boolean; ownerId: string | null; edits: number };

export class NoteLimitReachedError extends CodedError {
  readonly code = 'NOTES.EDIT_LIMIT';
  readonly kind = 'conflict';
}

type NoteCommand =
  | { type: 'WriteNote'; noteId: string; ownerId: string; text: string }
  | { type: 'EditNote'; noteId: string; text: string };

export const noteDecider: Decider<NoteCommand, NoteEvent, NoteState> = {
  initialState: () => ({ exists: false, ownerId: null, edits: 0 }),
  evolve: (state, event) => {
    switch (event.type) {
      case 'NoteWritten':
        return { exists: true, ownerId: event.data.ownerId, edits: 0 };
      case 'NoteEdited':
        return { ...state, edits: state.edits + 1 };
    }
  },
  decide: (command, state) => {
    switch (command.type) {
      case 'WriteNote':
        if (state.exists) return [];
        return [
          { type: 'NoteWritten', data: { noteId: command.noteId, ownerId: command.ownerId, text: command.text } },
        ];
      case 'EditNote':
        if (state.edits >= 3) throw new NoteLimitReachedError('A note can be edited three times');
        return [{ type: 'NoteEdited', data: { noteId: command.noteId, text: command.text } }];
    }
  },
};

export const noteStream = (noteId: string): string => `note-${noteId}`;

export class WriteNote {
  constructor(
    readonly noteId: string,
    readonly text: string,
    readonly context: CommandContext,
  ) {}
}

@CommandHandler(WriteNote)
export class WriteNoteHandler implements ICommandHandler<WriteNote> {
  constructor(private readonly store: EventStore) {}

  async execute(command: WriteNote): Promise<number | null> {
    const result = await handleCommand(
      this.store,
      noteStream(command.noteId),
      noteDecider,
      { type: 'WriteNote', noteId: command.noteId, ownerId: command.context.userId, text: command.text },
      command.context,
    );
    return result.append?.position ?? null;
  }
}

/** Records what reaches the bus, and whether the store already had it at that moment. */
@Injectable()
export class BusWitness {
  readonly seen: Array<{ event: DurableEvent<NoteEvent>; storedAtDelivery: boolean }> = [];
}

@EventsHandler(durable<NoteEvent>('NoteWritten'), durable<NoteEvent>('NoteEdited'))
export class NoteEventsWitnessHandler implements IEventHandler<DurableEvent<NoteEvent>> {
  constructor(
    private readonly witness: BusWitness,
    private readonly store: EventStore,
  ) {}

  async handle(event: DurableEvent<NoteEvent>): Promise<void> {
    const stream = await this.store.readStream(event.streamName);
    this.witness.seen.push({ event, storedAtDelivery: stream.some((stored) => stored.id === event.id) });
  }
}

export const notesProjection = defineProjection<
  NoteEvent,
  { _id: string; ownerId: string; text: string; edits: number }
>({
  name: 'notes',
  version: 1,
  collection: 'notes',
  indexes: [{ fields: { ownerId: 1 } }],
  handles: ['NoteWritten', 'NoteEdited'],
  target: (event) => ({ id: event.data.noteId }),
  evolve: (current, event) => {
    switch (event.type) {
      case 'NoteWritten':
        return { _id: event.data.noteId, ownerId: event.data.ownerId, text: event.data.text, edits: 0 };
      case 'NoteEdited':
        return current && { ...current, text: event.data.text, edits: current.edits + 1 };
    }
  },
});

@Controller('api/test/notes')
export class NotesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly store: EventStore,
    private readonly reads: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(IDS) private readonly ids: IdGenerator,
  ) {}

  private context(user: AuthenticatedUser): CommandContext {
    return { userId: user.userId, correlationId: 'test', causationId: 'test', clock: this.clock, ids: this.ids };
  }

  @Post()
  async write(@CurrentUser() user: AuthenticatedUser, @Body() body: { noteId?: string; text?: string }) {
    // A test feature: its field code is none of the product's (`FIELD_CODES`), which the type would otherwise ask for.
    if (!body.text) throw new ValidationFailedError({ text: 'notes.errors.textRequired' as FieldCode });
    const noteId = body.noteId ?? this.ids.newId();
    const position = await this.commands.execute<WriteNote, number | null>(
      new WriteNote(noteId, body.text, this.context(user)),
    );
    return { noteId, position };
  }

  @Post(':id/edit')
  async edit(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Body() body: { text: string; expectedRevision?: number },
  ) {
    if (body.expectedRevision !== undefined) {
      // A client that says which version it edited gets a 409 when someone else edited first.
      const result = await this.store.append(
        noteStream(id),
        [
          {
            id: this.ids.newId(),
            type: 'NoteEdited',
            data: { noteId: id, text: body.text },
            metadata: {
              userId: user.userId,
              correlationId: 'test',
              causationId: 'test',
              occurredAt: this.clock.now().toISOString(),
              schemaVersion: 1,
            },
          },
        ],
        body.expectedRevision,
      );
      return { position: result.position };
    }
    const result = await handleCommand(
      this.store,
      noteStream(id),
      noteDecider,
      { type: 'EditNote', noteId: id, text: body.text },
      this.context(user),
    );
    return { position: result.append?.position ?? null };
  }

  @Get('mine')
  async mine(@CurrentUser() user: AuthenticatedUser) {
    return this.reads.collection('notes').find({ ownerId: user.userId }, { sort: { _id: 1 } });
  }
}

@Injectable()
class NotesRealtime implements OnModuleInit {
  constructor(private readonly registry: RealtimeRegistry) {}

  onModuleInit(): void {
    this.registry.register(['NoteWritten', 'NoteEdited'], (event) => {
      const e = event as DurableEvent<NoteEvent>;
      return {
        userId: e.metadata.userId,
        channel: 'note.changed',
        payload: { noteId: e.data.noteId, text: e.data.text, type: e.type },
      };
    });
  }
}

@Module({
  controllers: [NotesController],
  providers: [WriteNoteHandler, NoteEventsWitnessHandler, BusWitness, NotesRealtime],
  exports: [BusWitness],
})
export class NotesTestModule {}
