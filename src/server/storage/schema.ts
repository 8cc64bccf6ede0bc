import type { Generated } from 'kysely';
import type { SourceFileGetType } from '../../shared/videoStatus';
import type { BucketName } from './quotaBuckets';

/** The tables as the query layer sees them (snake_case, as stored); only the stores read these. */
export interface Schema {
  videos: {
    id: string;
    app_id: string;
    title: string;
    description: Generated<string>;
    tags: Generated<string>;
    actors: Generated<string>;
    create_user: Generated<string>;
    source_get_type: SourceFileGetType;
    source_path: Generated<string>;
    status: number;
    status_reason: Generated<string>;
    need_handle_special: Generated<number>;
    duration: Generated<number>;
    source_file: Generated<string>;
    poster_file: Generated<string>;
    created_at: number;
    updated_at: number;
    /** Registration order, the list's tie-breaker (PostgreSQL; SQLite uses its rowid). */
    seq: Generated<number>;
    /** Bytes of the play files and pictures its transcode stored; 0 before. */
    rendition_bytes: Generated<number>;
    /** Bytes of the source the service downloaded (type 2); 0 for an uploaded source, counted in `uploads.size`. */
    downloaded_bytes: Generated<number>;
  };
  video_counts: { app_id: string; create_user: string; n: number };
  uploads: {
    id: string;
    video_id: string;
    app_id: string;
    size: number;
    file_name: Generated<string>;
    file_type: Generated<string>;
    fingerprint: Generated<string>;
    created_at: number;
    /** When its last bytes came (a PATCH), else its creation. */
    active_at: number;
    finished_at: number | null;
  };
  play_files: { video_id: string; file: string; bitrate: number; label: string; height: Generated<number>; segmented: Generated<number> };
  /** Play files unlisted but still served until `remove_at` (ms since 1970). */
  retired_play_files: { video_id: string; file: string; remove_at: number };
  jobs: {
    id: Generated<number>;
    video_id: string;
    kind: 'download' | 'transcode';
    state: Generated<'queued' | 'running' | 'done' | 'failed'>;
    attempts: Generated<number>;
    last_error: Generated<string>;
    created_at: number;
    updated_at: number;
    lease_until: Generated<number>;
    /** The video's app, copied at enqueue: claims share the pools out by it. */
    app_id: string;
    /** When the job was last claimed (milliseconds since 1970), 0 before that: apps take turns by it. */
    claimed_at: Generated<number>;
  };
  callbacks: {
    id: Generated<number>;
    video_id: string;
    app_id: string;
    video_status: number;
    state: Generated<'pending' | 'delivered' | 'gave_up'>;
    attempts: Generated<number>;
    next_attempt_at: number;
    last_error: Generated<string>;
    created_at: number;
    updated_at: number;
  };
  /** Values shared by every instance (ticket key, demo app); see settings.ts. */
  settings: { name: string; value: string; created_at: number };
  /** Each app's token buckets (see quotaBuckets.ts). */
  quota_buckets: { app_id: string; bucket: BucketName; tokens: number; updated_at: number };
}
