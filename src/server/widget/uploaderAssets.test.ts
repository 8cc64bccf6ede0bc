import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { uploaderAssetsReader } from './uploaderAssets';

let dist: string | undefined;
afterEach(() => dist && rmSync(dist, { recursive: true, force: true }));

function writeManifest(dir: string, entryFile: string, at: Date): void {
  const path = join(dir, 'upload', '.vite', 'manifest.json');
  mkdirSync(join(dir, 'upload', '.vite'), { recursive: true });
  const manifest = {
    'src/widget/uploader/main.tsx': {
      file: entryFile,
      isEntry: true,
      css: ['uploader-C55.css'],
      dynamicImports: ['src/widget/uploader/uploadCore.ts'],
    },
    'src/widget/uploader/uploadCore.ts': { file: 'uploadCore-T1.js', isDynamicEntry: true },
    'src/shared/i18n/locales/pt-BR.ts': { file: 'pt-BR-P7.js', src: 'src/shared/i18n/locales/pt-BR.ts', isDynamicEntry: true },
    'src/widget/uploader/limits.ts': { file: 'limits-L3.js', src: 'src/widget/uploader/limits.ts', isDynamicEntry: true },
  };
  writeFileSync(path, JSON.stringify(manifest));
  utimesSync(path, at, at);
}

describe('uploaderAssetsReader', () => {
  it("names the entry, its CSS, the languages' chunks and the restrictions' from the build manifest, and follows a rebuild", () => {
    dist = mkdtempSync(join(tmpdir(), 'ovu-assets-'));
    writeManifest(dist, 'uploader-A1.js', new Date(2026, 0, 1));
    const assets = uploaderAssetsReader(dist);
    expect(assets()).toEqual({
      script: 'uploader-A1.js',
      styles: ['uploader-C55.css'],
      locales: { 'pt-BR': 'pt-BR-P7.js' },
      limits: 'limits-L3.js',
    });
    writeManifest(dist, 'uploader-B2.js', new Date(2026, 0, 2));
    expect(assets().script).toBe('uploader-B2.js');
  });

  it('before any build, names the files the 404 with the build hint will answer for', () => {
    dist = mkdtempSync(join(tmpdir(), 'ovu-assets-'));
    expect(uploaderAssetsReader(dist)()).toEqual({ script: 'uploader.js', styles: ['uploader.css'], locales: {} });
  });
});
