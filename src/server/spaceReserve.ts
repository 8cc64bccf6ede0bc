import { stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PRIVATE_FILE_MODE } from './storage/privateModes';

/** Room for a few hundred small SQLite writes (a failed job's outcome and its callback row). */
const RESERVE_BYTES = 1024 * 1024;

/** The reserve's name in DATA_DIR. */
const RESERVE_FILE = 'space-reserve';

/**
 * A file of zeros in DATA_DIR held back from everything else. When the disk fills up under a
 * running job, SQLite (in the same DATA_DIR) could not record the job's failure either, and the
 * video would stay "processing" for ever: removing this file gives that write its room.
 */
export class SpaceReserve {
  private readonly file: string;

  constructor(dataDir: string) {
    this.file = join(dataDir, RESERVE_FILE);
  }

  /** Writes the reserve unless it is there; a disk without room for it stays without one. */
  async fill(): Promise<void> {
    const size = await stat(this.file).then(
      (stats) => stats.size,
      () => -1,
    );
    if (size === RESERVE_BYTES) return;
    try {
      // Written out, not sized with truncate: a sparse file would hold no room at all.
      await writeFile(this.file, Buffer.alloc(RESERVE_BYTES), { mode: PRIVATE_FILE_MODE });
    } catch {
      await unlink(this.file).catch(() => {});
    }
  }

  /** Gives the room back to the disk; false when there was no reserve to give. */
  async release(): Promise<boolean> {
    return unlink(this.file).then(
      () => true,
      () => false,
    );
  }
}
