import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../../../common/config/app-config';
import type { KeyEnvironment } from '../../../common/keys/api-key';
import { spareTasks } from '../../../common/visibility/spare-capacity';
import { CreateLimitLender } from '../http/rate-limit.guard';
import { TemporalClients } from '../temporal/temporal-clients';

// Visibility moves by the fraction of a second; one look serves every refused create meanwhile.
const FRESH_FOR_MS = 250;

interface Room {
  at: number;
  /** Creates this instance may still lend on this look. */
  left: number;
}

/**
 * Lends a lone organisation the capacity nobody else uses: a create its limits refuse is admitted
 * when `spareTasks` says the organisation is alone and its environment has room under
 * ADMISSION_ALONE_IN_FLIGHT. A look at visibility serves 250 ms, and every create lent meanwhile
 * takes one place of the room it found, so creates arriving together cannot overrun the window.
 * The look happens only once a create has been refused, so it costs nothing under the limits; a
 * look that fails lends nothing, and the limits hold.
 */
@Injectable()
export class SpareCapacityLender extends CreateLimitLender {
  private readonly logger = new Logger(SpareCapacityLender.name);
  private readonly rooms = new Map<string, Room>();
  private readonly looking = new Map<string, Promise<Room>>();
  private readonly window: number;

  constructor(
    config: AppConfig,
    private readonly temporal: TemporalClients,
  ) {
    super();
    this.window = config.values.ADMISSION_ALONE_IN_FLIGHT;
  }

  /** Whether this refused create of `organizationId` may go in anyway; takes its place if so. */
  async lends(environment: KeyEnvironment, organizationId: string): Promise<boolean> {
    if (this.window === 0) return false;
    const holder = `${environment}/${organizationId}`;
    const known = this.rooms.get(holder);
    const room = known && Date.now() - known.at < FRESH_FOR_MS ? known : await this.look(holder, environment, organizationId);
    if (room.left < 1) return false;
    room.left -= 1;
    return true;
  }

  private look(holder: string, environment: KeyEnvironment, organizationId: string): Promise<Room> {
    let looking = this.looking.get(holder);
    if (!looking) {
      const other: KeyEnvironment = environment === 'live' ? 'test' : 'live';
      looking = this.temporal
        .withDeadline(() => spareTasks({ organizationId, own: this.temporal.workflows(environment), other: this.temporal.workflows(other), inFlightWindow: this.window, now: new Date() }))
        .then((spare) => spare.room)
        .catch((error: unknown) => {
          this.logger.warn(`spare capacity unknown, so nothing is lent: ${error instanceof Error ? error.message : String(error)}`);
          return 0;
        })
        .then((left) => {
          const room = { at: Date.now(), left };
          this.sweep();
          this.rooms.set(holder, room);
          return room;
        })
        .finally(() => this.looking.delete(holder));
      this.looking.set(holder, looking);
    }
    return looking;
  }

  // Organisations that stopped being refused would otherwise stay here for good.
  private sweep(): void {
    const stale = Date.now() - FRESH_FOR_MS;
    for (const [holder, room] of this.rooms) if (room.at < stale) this.rooms.delete(holder);
  }
}
