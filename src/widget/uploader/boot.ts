import type { UploadPageBoot } from '../../shared/uploadPage';

/** The service renders the boot data as JSON in `#upload-boot`; a page without it is a deployment mistake. */
export function readBoot(doc: Document): UploadPageBoot {
  const text = doc.getElementById('upload-boot')?.textContent;
  if (!text) throw new Error('upload page: #upload-boot is missing');
  const boot = JSON.parse(text) as UploadPageBoot;
  if (typeof boot.channel !== 'string' || typeof boot.hostOrigin !== 'string' || typeof boot.tusEndpoint !== 'string') {
    throw new Error('upload page: #upload-boot lacks channel, hostOrigin or tusEndpoint');
  }
  return boot;
}
