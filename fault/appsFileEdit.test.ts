import { renameSync, writeFileSync } from 'node:fs';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { AppRecord } from '../src/server/auth/apps';
import { appAuth, TEST_APPS } from '../test/support/service';
import { openUploader, registerVideo, resultCode, tusCreate, tusPatch } from '../test/uploadHelpers';
import { waitUntil } from './support/processes';
import { serviceHome, startCrashable, stopCrashable, type CrashableService } from './support/crashableService';

const homes: ReturnType<typeof serviceHome>[] = [];
let service: CrashableService | undefined;
afterEach(async () => {
  await stopCrashable(service);
  service = undefined;
});
afterAll(() => {
  for (const home of homes) home.remove();
});

/** As editors save: a new file beside the old one, renamed over it (a new inode). */
function saveLikeAnEditor(file: string, text: string): void {
  writeFileSync(`${file}.tmp`, text);
  renameSync(`${file}.tmp`, file);
}

/** Waits for the next log line matching `pattern` after the first `from` lines. */
function nextLine(from: number, pattern: RegExp): Promise<string> {
  return waitUntil(`a log line matching ${pattern}`, 10_000, () => service!.process.lines.slice(from).find((line) => pattern.test(line)));
}

/** A running service with an upload under way (4 of 8 bytes sent) for `appId`. */
async function uploadUnderWay(appId: string) {
  const home = serviceHome();
  homes.push(home);
  service = await startCrashable(home);
  const client = { address: service.address, auth: () => appAuth(TEST_APPS, appId) };
  const videoId = await registerVideo(client, appId);
  const boot = await openUploader(client, videoId, { appId });
  const created = await tusCreate(boot.tusEndpoint, boot.ticket, 8);
  expect(created.status).toBe(201);
  const uploadUrl = created.headers.get('location')!;
  expect((await tusPatch(uploadUrl, boot.ticket, 0, new Uint8Array(4))).status).toBe(204);
  return { home, ticket: boot.ticket, uploadUrl };
}

describe('APPS_FILE edited while an upload runs (a real service process)', () => {
  it('a secret rotated without previousSecret: the next PATCH is refused with 104', async () => {
    const { home, ticket, uploadUrl } = await uploadUnderWay('app-a');
    const from = service!.process.lines.length;
    const rotated: AppRecord[] = [{ appId: 'app-a', appSecret: 'a-rotated-secret-of-app-a-0123456789' }, TEST_APPS[1]!];
    saveLikeAnEditor(home.appsFile, JSON.stringify(rotated, null, 2));
    await nextLine(from, /APPS_FILE re-read: new set/);

    const patch = await tusPatch(uploadUrl, ticket, 4, new Uint8Array(4));
    expect(patch.status).toBe(401);
    expect(resultCode(patch.body)).toBe('104');
    // The new secret signs from now on; the old one no longer does.
    const get = (auth: object) =>
      fetch(`${service!.address}/Api/Video/GetUserVideoList?${new URLSearchParams({ ...auth, createUser: 'x' })}`).then((res) =>
        res.json(),
      );
    expect((await get(appAuth(rotated, 'app-a'))).AuthMsg.ResultCode).toBe('1');
    expect((await get(appAuth(TEST_APPS, 'app-a'))).AuthMsg.ResultCode).toBe('104');
  });

  it('the app removed: the next PATCH is refused with 102', async () => {
    const { home, ticket, uploadUrl } = await uploadUnderWay('app-b');
    const from = service!.process.lines.length;
    saveLikeAnEditor(home.appsFile, JSON.stringify([TEST_APPS[0]]));
    await nextLine(from, /APPS_FILE re-read: new set/);

    const patch = await tusPatch(uploadUrl, ticket, 4, new Uint8Array(4));
    expect(patch.status).toBe(401);
    expect(resultCode(patch.body)).toBe('102');
  });
});

describe('a broken APPS_FILE', () => {
  it('is refused with one line naming file:line:column and no secret text, on change and on SIGHUP; the old set keeps serving', async () => {
    const { home, ticket, uploadUrl } = await uploadUnderWay('app-a');
    const secret = 'the-new-secret-that-must-never-be-logged-42';
    // A missing comma right after the secret: V8's message would quote the text around it.
    const broken = `[\n  {\n    "appId": "app-a",\n    "appSecret": "${secret}"\n    "callbackUrl": "https://a.example"\n  }\n]\n`;
    const from = service!.process.lines.length;
    saveLikeAnEditor(home.appsFile, broken);
    const onChange = await nextLine(from, /"level":"error"/);

    const afterChange = service!.process.lines.length;
    service!.process.stop('SIGHUP');
    const onSignal = await nextLine(afterChange, /"level":"error"/);
    // Time for a second line, had there been one.
    await new Promise((resolve) => setTimeout(resolve, 500));

    const errors = service!.process.lines.slice(from).filter((line) => line.includes('"level":"error"'));
    expect(errors).toEqual([onChange, onSignal]);
    for (const line of errors) {
      expect(JSON.parse(line).message).toBe(
        `APPS_FILE ${home.appsFile}:5:5: not valid JSON (expected , or } after a value); still serving the last good set`,
      );
    }
    expect(service!.process.lines.join('\n')).not.toContain(secret);
    expect(service!.process.lines.join('\n')).not.toContain('the-new-secret');

    // Still running, on the old set: its secret signs, the upload goes on.
    expect(service!.process.child.exitCode).toBeNull();
    const list = await fetch(
      `${service!.address}/Api/Video/GetUserVideoList?${new URLSearchParams({ ...appAuth(TEST_APPS, 'app-a'), createUser: 'x' })}`,
    );
    expect(((await list.json()) as { AuthMsg: { ResultCode: string } }).AuthMsg.ResultCode).toBe('1');
    expect((await tusPatch(uploadUrl, ticket, 4, new Uint8Array(4))).status).toBe(204);
  });
});
