import { randomBytes } from 'node:crypto';
import { copyFile, link, mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { sourceExtension } from '../processing/sourceExtension';
import { PRIVATE_DIR_MODE } from '../storage/privateModes';

/**
 * `source` plus a known video extension, by the same rule as downloaded sources: the browser's
 * file name, else its file type, else `.bin`. The name itself is never used as a path.
 */
export function sourceFileName(uploadedName: string, fileType: string): string {
  // The rule reads URLs; the name becomes one path segment (a `/` in it is escaped, so it stays one).
  return `source${sourceExtension([new URL(encodeURIComponent(uploadedName), 'file:///')], fileType || undefined)}`;
}

/**
 * Puts the finished upload at `target` without copying when it can: a hard link shares the bytes
 * with the tus file (same file system under DATA_DIR), a copy is the fallback across devices.
 * Written under a temporary name and renamed, so a crash or a repeated finish never leaves half a file.
 */
export async function placeSourceFile(uploadPath: string, targetDir: string, targetName: string): Promise<void> {
  await mkdir(targetDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const temporary = join(targetDir, `.${targetName}.${randomBytes(6).toString('hex')}.part`);
  try {
    try {
      await link(uploadPath, temporary);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EMLINK') throw error;
      await copyFile(uploadPath, temporary);
    }
    await rename(temporary, join(targetDir, targetName));
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
