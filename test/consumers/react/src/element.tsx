// `<video-upload>` in React's JSX, typed by `open-video-upload/react`; and the DOM's own map.
import 'open-video-upload/element';
import type { VideoUploadElement } from 'open-video-upload/element';
import type {} from 'open-video-upload/react';

export function Upload({ signed }: { signed: { appId: string; timestamp: string; token: string; videoId: string } }) {
  return (
    <video-upload
      service-url="https://video.example.com"
      app-id={signed.appId}
      timestamp={signed.timestamp}
      token={signed.token}
      video-id={signed.videoId}
      form="overlay"
      is-top
      className="upload"
      options={{ onSuccess: (info) => console.log(info.fileName) }}
    >
      Upload video
    </video-upload>
  );
}

// @ts-expect-error `form` is "popup" or "overlay".
export const wrongForm = <video-upload form="window" />;

export const made: VideoUploadElement = document.createElement('video-upload');
// @ts-expect-error `state` is read only.
made.state = 'done';
