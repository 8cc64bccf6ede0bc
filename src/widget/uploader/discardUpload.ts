import { TICKET_HEADER } from '../../shared/uploadPage';

/**
 * Asks the service to drop an unfinished upload (tus termination), so its bytes are gone and the
 * next upload of this video starts from the beginning. True when the upload no longer exists
 * (404: already gone); false when the service could not be reached or refused.
 */
export async function discardUpload(uploadUrl: string, ticket: string): Promise<boolean> {
  try {
    const res = await fetch(uploadUrl, { method: 'DELETE', headers: { 'Tus-Resumable': '1.0.0', [TICKET_HEADER]: ticket } });
    return res.ok || res.status === 404;
  } catch {
    return false;
  }
}
