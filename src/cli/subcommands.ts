import { openLookupSession } from '../app/lookup-session.js';
import { MESSAGE_RENDERERS, registerDiscordCommands } from '../app/platforms.js';
import { commandDefinitions } from '../app/wiring.js';
import { createSilentLogger } from '../observability/create-logger.js';
import { deliveriesDeadCommand, deliveriesReplayCommand } from './deliveries-command.js';
import { createDiscordRegisterCommand } from './discord-register-command.js';
import { doctorCommand } from './doctor-command.js';
import { emulatorCommand } from './emulator-command.js';
import { createLookupCommand } from './lookup-command.js';
import { createRenderCommand } from './render-command.js';
import { startCommand, workerCommand } from './start-command.js';
import { storeMigrateKeysCommand } from './store-migrate-keys-command.js';
import { storeRotateKeyCommand } from './store-rotate-key-command.js';
import type { Subcommand } from './subcommand.js';
import { createWebhookCommands } from './webhook-command.js';
import { workspaceExportCommand, workspaceForgetCommand } from './workspace-command.js';

/** Every CLI subcommand, listed explicitly (no file-glob loading). */
export const SUBCOMMANDS: readonly Subcommand[] = [
  startCommand,
  workerCommand,
  emulatorCommand,
  createRenderCommand(MESSAGE_RENDERERS),
  createLookupCommand((platform) => openLookupSession(platform, createSilentLogger())),
  doctorCommand,
  createDiscordRegisterCommand(registerDiscordCommands, commandDefinitions),
  workspaceExportCommand,
  workspaceForgetCommand,
  storeRotateKeyCommand,
  storeMigrateKeysCommand,
  deliveriesDeadCommand,
  deliveriesReplayCommand,
  ...createWebhookCommands(),
];
