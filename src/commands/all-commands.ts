import { collection } from './collection.js';
import { collections } from './collections.js';
import type { CommandModule } from './command-module.js';
import { createCommandRegistry } from './command-registry.js';
import { comments } from './comments.js';
import { digest } from './digest.js';
import { help } from './help.js';
import { live } from './live.js';
import { pause } from './pause.js';
import { post } from './post.js';
import { posts } from './posts.js';
import { remind } from './remind.js';
import { resume } from './resume.js';
import { status } from './status.js';
import { subscribe } from './subscribe.js';
import { subscriptions } from './subscriptions.js';
import { timezone } from './timezone.js';
import { unsubscribe } from './unsubscribe.js';
import { user } from './user.js';
import { why } from './why.js';

/**
 * Every `/directory` command, in the order help lists them and Discord registers them. Adding
 * a command is a module beside this file and one entry here (docs/adding-a-command.md).
 */
export const COMMANDS = [
  help,
  post,
  posts,
  comments,
  collection,
  collections,
  live,
  remind,
  user,
  subscribe,
  unsubscribe,
  pause,
  resume,
  subscriptions,
  digest,
  timezone,
  status,
  why,
] as const satisfies readonly CommandModule[];

/** The registry of COMMANDS: parser, help and public definitions. */
export const COMMAND_REGISTRY = createCommandRegistry(COMMANDS);

/** Every command's spec, in help order. */
export const COMMAND_SPECS = COMMAND_REGISTRY.specs;
