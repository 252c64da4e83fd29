/**
 * What a person's live-event reminder says about its event. The stored reminder (src/delivery)
 * and the DM composed from it (src/messages) both carry it, and neither folder may import the
 * other, so it lives here.
 */
export interface RemindedEvent {
  eventId: string;
  /** The event's name and link as the directory showed them when the reminder was set. */
  eventName: string;
  eventUrl?: string;
  /** ISO start, as last known: re-timed when the live feed lists the event at another time. */
  startsAt: string;
  /** The start the person was first told, when the event has moved since. */
  movedFrom?: string;
  /** Minutes before the start the DM is due. */
  beforeMinutes: number;
}
