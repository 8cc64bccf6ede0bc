import { rm } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { ServiceConfig } from '../config';
import { Bucket } from '../storage/bucket';
import { bucketFiles } from './bucketFiles';
import { diskFiles } from './diskFiles';

/** Where a transcode reads its source and writes its outputs, on local disk in either case. */
export interface TranscodeSpace {
  /** The source as a local file ffmpeg can read. */
  source: string;
  /** A private, empty folder for the outputs. */
  work: string;
  /** Makes these outputs (names in `work`) the video's files, each one whole or not at all. */
  publish(files: readonly string[]): Promise<void>;
  /** Removes the work space (and a copied source); run on success and failure alike, safe to run twice. */
  dispose(): Promise<void>;
}

/** Where a download writes the source (`dir`), and how it is kept once complete. */
interface DownloadSpace {
  dir: string;
  keep(name: string): Promise<void>;
  dispose(): Promise<void>;
}

/**
 * The files of videos (sources, play files, pictures): under `DATA_DIR/media/<videoId>/` by
 * default, or in the S3 bucket under `media/<videoId>/` when S3 is configured (docs/storage.md).
 */
export interface MediaFiles {
  /** The S3 bucket, when the files live in one. */
  readonly bucket: Bucket | undefined;
  transcodeSpace(videoId: string, sourceFile: string): Promise<TranscodeSpace>;
  downloadSpace(videoId: string): Promise<DownloadSpace>;
  /** The size in bytes of one of the video's files, or undefined when there is none. */
  size(videoId: string, file: string): Promise<number | undefined>;
  /** Up to `bytes` from the start of one of the video's files (a rung's index), or undefined when there is none. */
  head(videoId: string, file: string, bytes: number): Promise<Buffer | undefined>;
  /** Removes files of the video that are no longer published (a remux its rungs replaced); a missing one is no error. */
  remove(videoId: string, files: readonly string[]): Promise<void>;
  /** Answers GET/HEAD with one of the video's files (name already checked), Range and all. */
  send(req: IncomingMessage, res: ServerResponse, videoId: string, file: string): Promise<void>;
  close(): void;
}

/** Local scratch space for ffmpeg when the files live in S3; emptied at every start. */
function scratchDir(dataDir: string): string {
  return join(dataDir, 'scratch');
}

/**
 * The files as configured. With S3 the bucket must answer now (an unreachable one stops the
 * start in one line naming it), and scratch space a crash left behind is removed.
 */
export async function openMediaFiles(config: ServiceConfig): Promise<MediaFiles> {
  if (!config.s3) return diskFiles(config.dataDir);
  const bucket = new Bucket(config.s3);
  const problem = await bucket.problem();
  if (problem) {
    bucket.close();
    throw new BucketUnreachableError(problem);
  }
  await rm(scratchDir(config.dataDir), { recursive: true, force: true });
  return bucketFiles(bucket, scratchDir(config.dataDir));
}

/** The bucket named by S3_BUCKET could not be reached or used at start-up. */
export class BucketUnreachableError extends Error {
  override readonly name = 'BucketUnreachableError';
}
