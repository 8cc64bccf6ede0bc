import type { ServiceContext } from '../context';

/** Retired files removed per sweep; any more wait for the next one. */
const SWEEP_BATCH = 100;

/**
 * Removes the play files whose grace after being replaced is over (a remux the rungs replaced,
 * pipeline.ts), then forgets them; their URL then redirects to the best file (media/formerFiles.ts).
 * The due time is in the database, and every instance's worker sweeps with its lease check, so a
 * removal that fell due while the service was down happens at the next start, whichever instance
 * comes first. Two instances sweeping at once is harmless: removing a missing file is no error,
 * and the row goes only after its file. A file that could not be removed stays due for the next sweep.
 */
export async function removeRetiredFiles(service: ServiceContext): Promise<void> {
  const { playFiles } = service.stores;
  for (const retired of await playFiles.dueRetired(service.now(), SWEEP_BATCH)) {
    const fields = { videoId: retired.videoId, file: retired.file };
    try {
      await service.files.remove(retired.videoId, [retired.file]);
      await playFiles.forgetRetired(retired);
      service.log.info('replaced play file removed', fields);
    } catch (error) {
      if (!service.outages.answer(error))
        service.log.warn('replaced play file not removed; tried again later', { ...fields, error: String(error) });
    }
  }
}
