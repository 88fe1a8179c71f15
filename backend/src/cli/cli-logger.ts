import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import pino, { type Logger } from 'pino';
import { AppModule } from '../app.module';
import type { Config } from '../config/config';
import { PinoNestLogger } from '../observability/logger';

/**
 * The log of a command line: on stderr, so that stdout carries only the command's result (`T=$(npm run -s users --
 * token …)` captures the token and nothing else).
 */
export function cliLogger(level: string): Logger {
  return pino({ level }, pino.destination({ dest: 2, sync: true }));
}

/** What every command line sets: no HTTP reactions, no jobs, no sweeping of other processes' leftovers. */
export const CLI_ROLE = {
  WORKERS: '0',
  PROCESSORS: 'off',
  ORPHAN_SWEEP: 'off',
  SQLITE_CHECKPOINTS: 'inline',
  PROJECTIONS_THREAD: 'off',
} as const;

/** The application without HTTP, for a command line: its log and Nest's own on stderr. */
export function cliApplication(config: Config, level: string = config.LOG_LEVEL): Promise<INestApplicationContext> {
  const logger = cliLogger(level);
  return NestFactory.createApplicationContext(AppModule.forRoot(config, logger), {
    logger: new PinoNestLogger(logger),
  });
}
