/**
 * The little of BullMQ's API the spike uses. BullMQ is a devDependency loaded at run time by
 * name (`import(specifier)`), so the type check and the test suite never need it installed;
 * only `npm run bench:spike` does. See docs/adr/005-scaling-out.md.
 */
export interface SpikeJob<T> {
  id?: string | undefined;
  data: T;
  attemptsMade: number;
}

export interface SpikeQueue<T> {
  addBulk(jobs: { name: string; data: T; opts: Record<string, unknown> }[]): Promise<unknown[]>;
  getJobCounts(...types: string[]): Promise<Record<string, number>>;
  obliterate(options: { force: boolean }): Promise<void>;
  close(): Promise<void>;
}

export interface SpikeWorker {
  run(): Promise<void>;
  close(): Promise<void>;
  on(event: 'failed', listener: (job: unknown, error: Error) => void): void;
}

export interface BullMqModule {
  Queue: new <T>(name: string, options: Record<string, unknown>) => SpikeQueue<T>;
  Worker: new <T>(
    name: string,
    processor: (job: SpikeJob<T>) => Promise<unknown>,
    options: Record<string, unknown>,
  ) => SpikeWorker;
}

/** What one job carries: the destination and the message, as the outbox entry would hand them over. */
export interface DeliveryJob {
  destination: { platform: string; channelId: string; workspaceId: string };
  destinationKey: string;
  itemKey: string;
  message: { kind: 'comment'; title: string; text: string; fallback: string };
}

export async function loadBullMq(specifier: string): Promise<BullMqModule> {
  try {
    return (await import(specifier)) as BullMqModule;
  } catch (error) {
    // Not a dependency of the project (docs/adr/005-scaling-out.md, "The spike").
    throw new Error(
      `the spike needs BullMQ, which the project does not install: run \`npm install --no-save bullmq@6.7.0\` first (${String(error)})`,
    );
  }
}
