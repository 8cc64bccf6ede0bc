import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './support/service';

let service: TestService;
beforeAll(async () => {
  service = await startTestService({ config: { httpIdleTimeoutMs: 300 } });
});
afterAll(async () => {
  await service.stop(true);
});

function open(): Promise<Socket> {
  const { port } = new URL(service.address);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Everything the service sent before it closed the connection. */
function untilClosed(socket: Socket): Promise<string> {
  let received = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (received += chunk));
  return new Promise((resolve) => socket.once('close', () => resolve(received)));
}

describe('connections that go silent', () => {
  it('a client that sends half its request headers and then nothing is disconnected (HTTP_IDLE_TIMEOUT_MS)', async () => {
    const socket = await open();
    const closed = untilClosed(socket);
    socket.write('GET /Api/Video/Get?AppId=app-a HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
    expect(await closed).toBe('');
  });

  it('a client that sends half its form body and then nothing is disconnected', async () => {
    const socket = await open();
    const closed = untilClosed(socket);
    socket.write(
      'POST /Api/Video/Post HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\nAppId=app',
    );
    await closed;
    expect(socket.destroyed).toBe(true);
  });

  it('a client that keeps talking is answered as usual', async () => {
    const reply = await fetch(`${service.address}/Api/Video/Get?${new URLSearchParams({ ...service.auth(), Id: 'none' })}`);
    expect(reply.status).toBe(404);
  });
});
