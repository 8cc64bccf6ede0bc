/**
 * The HTTP API's JSON replies (spec, Interfaces), as the service writes them and the SDK
 * (src/sdk) reads them. Field names are the spec's, `MediaSever` included.
 */

/** Every reply's envelope: ResultCode "1" is success, anything else a code from the result table (resultCodes.ts). */
export interface AuthMsg {
  ResultCode: string;
  ResultMessage: string;
}

/** The spec's nine-field video record: exactly these keys in list replies. */
export interface VideoRecord {
  Id: string;
  VideoTitle: string;
  Description: string;
  Tags: string;
  Actors: string;
  /** 0 waiting for deletion, 1 playable, 2 waiting for download, 3 downloading, 4 download failed, 5 waiting for transcoding, 6 transcoding, 7 transcoding failed, 8 file not uploaded. */
  Status: number;
  /** ISO 8601 in the service's time zone, without offset. */
  CreateDate: string;
  CreateUser: string;
  /** The picture's URL once processed, else "". */
  PicSavePath: string;
}

/** The single-video reply adds `Duration`, in seconds. */
export interface VideoDetail extends VideoRecord {
  Duration: number;
}

/** Empty strings until the video is processed (Status 1). */
export interface MediaSever {
  PlayURL: string;
  MobilePlayURL: string;
  DownloadURL: string;
}

export interface VideoPlayFile {
  VideoURL: string;
  /** Kilobits per second, a JSON number as in the spec's sample replies. */
  Bitrate: number;
  BitrateLabel: string;
}

/** GET /Api/Video/Get. */
export interface GetVideoReply {
  AuthMsg: AuthMsg;
  Video: VideoDetail;
  MediaSever: MediaSever;
  /** Renditions, best first; [] until processed. */
  VideoPlayFile: VideoPlayFile[];
}

/** GET /Api/Video/GetUserVideoList and GetUserVideoListByAId. */
export interface VideoListReply {
  AuthMsg: AuthMsg;
  /** Every matching video, not only those on the page. */
  Total: number;
  VideoList: VideoRecord[];
}
