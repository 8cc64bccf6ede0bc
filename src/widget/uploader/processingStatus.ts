import { STATUS_PATH, TICKET_HEADER, type ProcessingStatusReply } from '../../shared/uploadPage';

/**
 * The video's status from the service (same origin, with the page's ticket), or undefined when
 * the service cannot say right now: the uploader then keeps its "processing" words and asks again.
 */
export async function fetchProcessingStatus(ticket: string): Promise<number | undefined> {
  try {
    const res = await fetch(STATUS_PATH, { headers: { [TICKET_HEADER]: ticket }, cache: 'no-store' });
    if (!res.ok) return undefined;
    const body = (await res.json()) as Partial<ProcessingStatusReply>;
    return typeof body.VideoStatus === 'number' ? body.VideoStatus : undefined;
  } catch {
    return undefined;
  }
}
