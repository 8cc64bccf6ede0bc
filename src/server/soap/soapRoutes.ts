import { registerVideo, type OnRegistered } from '../api/postVideo';
import type { ServiceContext } from '../context';
import { isServiceError } from '../errors';
import { MAX_FORM_BYTES, readBody } from '../http/params';
import { BASE_HEADERS, errorBody, OK_AUTH_MSG } from '../http/reply';
import type { RequestContext, Route } from '../http/router';
import { envelopeXml, faultXml, sendSoap } from './envelope';
import { isSoapFault, SoapFault } from './faults';
import { postResponseXml, readPost } from './postOperation';
import { readRequestHead, REPLY_CONTENT_TYPE, requestVersion, type SoapVersion } from './versions';
import { POST_ACTION, SOAP_PATH, wsdlXml } from './wsdl';

/** The SOAP web service: its description on GET, the `Post` operation on POST. */
export function soapRoutes(service: ServiceContext, onRegistered: OnRegistered = async () => {}): Route[] {
  return [
    { method: 'GET', path: SOAP_PATH, handler: describeHandler(service) },
    { method: 'POST', path: SOAP_PATH, handler: soapPostHandler(service, onRegistered) },
  ];
}

/** `?wsdl` (any case, as ASP.NET accepts `?WSDL`) is the description; a bare GET says where it is. */
function describeHandler(service: ServiceContext) {
  return ({ res, url }: RequestContext): void => {
    const wantsWsdl = [...url.searchParams.keys()].some((key) => key.toLowerCase() === 'wsdl');
    // Built per request: PUBLIC_URL names the address clients are told to call.
    const body = wantsWsdl
      ? wsdlXml(service.config.publicUrl)
      : `VideoService: SOAP 1.1 and 1.2 operation Post at this address; its WSDL is at ${service.config.publicUrl}${SOAP_PATH}?wsdl\n`;
    res.writeHead(200, {
      ...BASE_HEADERS,
      'Content-Type': wantsWsdl ? REPLY_CONTENT_TYPE['1.1'] : 'text/plain; charset=utf-8',
      'Content-Length': Buffer.byteLength(body),
    });
    res.end(body);
  };
}

function soapPostHandler(service: ServiceContext, onRegistered: OnRegistered) {
  return async ({ req, res }: RequestContext): Promise<void> => {
    // A Content-Type naming neither version gets its Fault in SOAP 1.1, the older and wider one.
    const version: SoapVersion = requestVersion(req.headers) ?? '1.1';
    try {
      const head = readRequestHead(req.headers);
      if (head.action !== undefined && head.action !== POST_ACTION) throw new SoapFault('UNKNOWN_ACTION', `"${head.action}"`);
      const bytes = await readSoapBody(req);
      sendSoap(
        res,
        version,
        200,
        envelopeXml(version, await postResult(() => registerVideo(service, onRegistered, readPost(bytes, version)))),
      );
    } catch (error) {
      // Drain what the client is still sending so it reads the fault instead of a reset.
      req.resume();
      // A lost database or a full disk (114, 113) is no fault of the message: a PostResult, as the
      // web API's AuthMsg, which the client may send again; logged once per outage.
      const failure = service.outages.answer(error);
      if (failure) sendSoap(res, version, 200, envelopeXml(version, postResponseXml(errorBody(failure).AuthMsg)));
      else sendSoap(res, version, 500, faultXml(version, asFault(service, error)));
    }
  };
}

/** The same body limit as the web API's forms: a `Post` call is well under 4 KiB. */
async function readSoapBody(req: RequestContext['req']): Promise<Buffer> {
  try {
    return await readBody(req, MAX_FORM_BYTES, 'SOAP message');
  } catch (error) {
    if (isServiceError(error) && error.kind === 'PAYLOAD_TOO_LARGE') throw new SoapFault('TOO_LARGE', `over ${MAX_FORM_BYTES} bytes`);
    if (isServiceError(error)) throw new SoapFault('NOT_XML', error.detail);
    throw error;
  }
}

/**
 * Application failures (ApiErrors) are a normal PostResult carrying the ResultCode, exactly as the
 * web API's AuthMsg; a message that cannot be read as a call (a SoapFault) stays a Fault.
 */
async function postResult(register: () => Promise<string>): Promise<string> {
  try {
    return postResponseXml(OK_AUTH_MSG, await register());
  } catch (error) {
    if (!isServiceError(error)) throw error;
    return postResponseXml(errorBody(error).AuthMsg);
  }
}

function asFault(service: ServiceContext, error: unknown): SoapFault {
  if (isSoapFault(error)) return error;
  // Anything else is ours (storage, a bug): logged here, and the client learns no more than the web API's 500 says.
  service.log.error('unhandled error', { path: SOAP_PATH, error: String((error as Error)?.stack ?? error) });
  return new SoapFault('INTERNAL');
}
