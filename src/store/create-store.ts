import { BotError } from '../errors.js';
import type { BotStore, CreateStoreOptions } from './bot-store.js';
import { postgresStore } from './postgres-store.js';
import { redisStore } from './redis-store.js';
import { sqliteStore } from './sqlite-store.js';

/** Opens the store the URL names: `sqlite://path`, `redis://`/`rediss://`, or `postgres://`. */
export function createStore(options: CreateStoreOptions): BotStore {
  const url = new URL(options.url);
  const namespace = options.namespace ?? 'directory-bot';
  const onError = options.onError ?? (() => {});
  switch (url.protocol) {
    case 'sqlite:':
      return sqliteStore(options.url, namespace, onError);
    case 'redis:':
    case 'rediss:':
      return redisStore(url, namespace, onError);
    case 'postgres:':
    case 'postgresql:':
      return postgresStore(url, namespace, onError);
    default:
      throw new BotError('config_invalid', `Unsupported store URL protocol "${url.protocol}"`);
  }
}
