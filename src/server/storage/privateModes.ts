/**
 * Everything under DATA_DIR is the service's alone (the database, sources, media and
 * uploads): folders it makes are 0700 and files 0600, whatever the process umask.
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;
