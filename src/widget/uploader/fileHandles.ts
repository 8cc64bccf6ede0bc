/**
 * Keeps the handle of the file being uploaded (File System Access API) in IndexedDB, keyed by
 * video, so reopening the popup for an unfinished upload can offer "Continue “big.mp4” from 37 %"
 * with no file dialog; the browser asks for read permission again. Handles come from a dropped
 * file (`DataTransferItem.getAsFileSystemHandle`, Chromium). The Choose button keeps the plain
 * file input rather than `showOpenFilePicker`: automation (Playwright's file chooser, tests
 * outside this project) drives only the input. Only the popup form keeps handles: the overlay's
 * iframe is third-party, where storage is partitioned or refused. Every failure (no IndexedDB, a
 * private window, a handle that no longer reads) means "no handle": the person then chooses the
 * file again, as everywhere else.
 */

/** The parts of the File System Access API used here; not in TypeScript's DOM types yet. */
interface ReadPermission {
  queryPermission?(descriptor: { mode: 'read' }): Promise<PermissionState>;
  requestPermission?(descriptor: { mode: 'read' }): Promise<PermissionState>;
}
export type FileHandle = FileSystemFileHandle & ReadPermission;

/** The database and store the handles live in (one record per video id). */
export const HANDLE_DB = { name: 'open-video-upload', store: 'file-handles' } as const;

export interface HandleStore {
  save(videoId: string, handle: FileHandle): Promise<void>;
  load(videoId: string): Promise<FileHandle | undefined>;
  forget(videoId: string): Promise<void>;
  /** The file behind a handle, once the browser grants reading it again; undefined if refused or gone. */
  open(handle: FileHandle): Promise<File | undefined>;
}

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

async function withStore<T>(mode: IDBTransactionMode, use: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const open = indexedDB.open(HANDLE_DB.name, 1);
  open.onupgradeneeded = () => open.result.createObjectStore(HANDLE_DB.store);
  const db = await request(open);
  try {
    return await request(use(db.transaction(HANDLE_DB.store, mode).objectStore(HANDLE_DB.store)));
  } finally {
    db.close();
  }
}

const quietly = async <T>(work: () => Promise<T>): Promise<T | undefined> => {
  try {
    return await work();
  } catch {
    return undefined;
  }
};

/**
 * The handle of a dropped file, where the browser gives one; must be called during the drop
 * event (the data transfer empties afterwards).
 */
export function droppedHandle(transfer: DataTransfer | null): Promise<FileHandle | undefined> {
  const item = transfer?.items?.[0] as (DataTransferItem & { getAsFileSystemHandle?(): Promise<FileSystemHandle | null> }) | undefined;
  const pending = item?.getAsFileSystemHandle?.();
  return pending
    ? pending.then((handle) => (handle?.kind === 'file' ? (handle as FileHandle) : undefined)).catch(() => undefined)
    : Promise.resolve(undefined);
}

export function browserHandleStore(): HandleStore {
  return {
    save: async (videoId, handle) => void (await quietly(() => withStore('readwrite', (store) => store.put(handle, videoId)))),
    load: (videoId) => quietly(() => withStore<FileHandle | undefined>('readonly', (store) => store.get(videoId))),
    forget: async (videoId) => void (await quietly(() => withStore('readwrite', (store) => store.delete(videoId)))),
    open: (handle) =>
      quietly(async () => {
        const granted = (await handle.queryPermission?.({ mode: 'read' })) ?? 'granted';
        if (granted !== 'granted' && (await handle.requestPermission?.({ mode: 'read' })) !== 'granted') return undefined;
        return handle.getFile();
      }),
  };
}
