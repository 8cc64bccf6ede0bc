/**
 * Every SOAP Fault the service sends, as data. Faults are for messages the service cannot read
 * as a `Post` call at all; a readable call that fails the API's rules (bad token, missing
 * VideoTitle) is answered with a normal PostResult and its ResultCode instead, as the web API does.
 *
 * `code` is the fault class shared by both versions: SOAP 1.1 names them VersionMismatch,
 * MustUnderstand, Client and Server; SOAP 1.2 renames the last two Sender and Receiver.
 */
const SOAP_FAULTS = {
  UNSUPPORTED_MEDIA_TYPE: { code: 'Client', message: 'Content-Type must be text/xml (SOAP 1.1) or application/soap+xml (SOAP 1.2)' },
  MISSING_ACTION: { code: 'Client', message: 'The SOAPAction HTTP header is required for SOAP 1.1' },
  UNKNOWN_ACTION: { code: 'Client', message: 'Unknown SOAP action' },
  TOO_LARGE: { code: 'Client', message: 'Request body too large' },
  NOT_UTF8: { code: 'Client', message: 'The message must be encoded as UTF-8' },
  NOT_XML: { code: 'Client', message: 'The message is not well-formed XML' },
  DOCTYPE: { code: 'Client', message: 'DTDs are not allowed in SOAP messages' },
  TOO_DEEP: { code: 'Client', message: 'The message nests elements too deeply' },
  NOT_ENVELOPE: { code: 'Client', message: 'The message is not a SOAP Envelope' },
  VERSION_MISMATCH: { code: 'VersionMismatch', message: 'Wrong SOAP envelope namespace for this Content-Type' },
  MUST_UNDERSTAND: { code: 'MustUnderstand', message: 'A header block that must be understood is not understood' },
  UNKNOWN_OPERATION: { code: 'Client', message: 'Unknown operation' },
  BAD_MESSAGE: { code: 'Client', message: 'The message does not match the service description' },
  INTERNAL: { code: 'Server', message: 'Internal Error' },
} as const satisfies Record<string, { code: FaultCode; message: string }>;

export type FaultCode = 'VersionMismatch' | 'MustUnderstand' | 'Client' | 'Server';
export type SoapFaultName = keyof typeof SOAP_FAULTS;

/** A request the SOAP layer refuses; `detail` says what exactly (never a stack or a secret). */
export class SoapFault extends Error {
  override readonly name = 'SoapFault';
  readonly kind: SoapFaultName;
  readonly detail: string | undefined;

  constructor(kind: SoapFaultName, detail?: string) {
    super(detail ? `${SOAP_FAULTS[kind].message}: ${detail}` : SOAP_FAULTS[kind].message);
    this.kind = kind;
    this.detail = detail;
  }

  get code(): FaultCode {
    return SOAP_FAULTS[this.kind].code;
  }
}

/** `instanceof` alone fails across module copies; the constant name is checked too. */
export function isSoapFault(value: unknown): value is SoapFault {
  return value instanceof SoapFault || (value instanceof Error && value.name === 'SoapFault' && 'kind' in value);
}
