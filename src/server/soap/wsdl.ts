import { escapeXml } from './xml';

/**
 * The service's target namespace: ASP.NET's default for `.asmx` services. The spec does not show
 * the old service's namespace; clients generated against such a service most likely carry this
 * one, and keeping it lets them call this service unchanged.
 */
export const SERVICE_NS = 'http://tempuri.org/';

/** The one operation's SOAPAction, formed as ASP.NET forms it: namespace + operation name. */
export const POST_ACTION = `${SERVICE_NS}Post`;

/** Where the service lives under `{base_url}`. */
export const SOAP_PATH = '/WebService/VideoService.asmx';

/** A string element as .NET declares a reference-typed property: optional, at most once. */
const text = (name: string) => `<s:element minOccurs="0" maxOccurs="1" name="${name}" type="s:string"/>`;

/**
 * The schema of the messages, document/literal wrapped. Field names and types follow the spec's
 * Post model; `SourceFileGetType` is an int there, so it is a required `s:int` as .NET would
 * publish a value-typed property. Replies keep `ResultCode` a string, as the web API does.
 */
const SCHEMA =
  `<s:schema elementFormDefault="qualified" targetNamespace="${SERVICE_NS}">` +
  '<s:element name="Post"><s:complexType><s:sequence>' +
  text('AppId') +
  text('Timestamp') +
  text('Token') +
  '<s:element minOccurs="0" maxOccurs="1" name="VideoInfo" type="tns:VideoInfo"/>' +
  '</s:sequence></s:complexType></s:element>' +
  '<s:complexType name="VideoInfo"><s:sequence>' +
  text('VideoTitle') +
  text('Description') +
  text('Tags') +
  text('Actors') +
  text('CreateUser') +
  '<s:element minOccurs="1" maxOccurs="1" name="SourceFileGetType" type="s:int"/>' +
  text('SourceFilePath') +
  '</s:sequence></s:complexType>' +
  '<s:element name="PostResponse"><s:complexType><s:sequence>' +
  '<s:element minOccurs="0" maxOccurs="1" name="PostResult" type="tns:PostResult"/>' +
  '</s:sequence></s:complexType></s:element>' +
  '<s:complexType name="PostResult"><s:sequence>' +
  '<s:element minOccurs="0" maxOccurs="1" name="AuthMsg" type="tns:AuthMsg"/>' +
  text('VideoId') +
  '</s:sequence></s:complexType>' +
  '<s:complexType name="AuthMsg"><s:sequence>' +
  text('ResultCode') +
  text('ResultMessage') +
  '</s:sequence></s:complexType>' +
  '</s:schema>';

/** One binding per SOAP version, the same operation in each (WSDL 1.1 §3 and its SOAP 1.2 binding). */
function binding(name: string, prefix: 'soap' | 'soap12'): string {
  return (
    `<wsdl:binding name="${name}" type="tns:VideoServiceSoap">` +
    `<${prefix}:binding transport="http://schemas.xmlsoap.org/soap/http"/>` +
    `<wsdl:operation name="Post"><${prefix}:operation soapAction="${POST_ACTION}" style="document"/>` +
    `<wsdl:input><${prefix}:body use="literal"/></wsdl:input>` +
    `<wsdl:output><${prefix}:body use="literal"/></wsdl:output>` +
    '</wsdl:operation></wsdl:binding>'
  );
}

/** The WSDL 1.1 description served at `?wsdl`; the address is the service's public URL. */
export function wsdlXml(publicUrl: string): string {
  const location = escapeXml(`${publicUrl}${SOAP_PATH}`, true);
  return (
    '<?xml version="1.0" encoding="utf-8"?>' +
    '<wsdl:definitions xmlns:s="http://www.w3.org/2001/XMLSchema" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"' +
    ' xmlns:soap12="http://schemas.xmlsoap.org/wsdl/soap12/" xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/"' +
    ` xmlns:tns="${SERVICE_NS}" targetNamespace="${SERVICE_NS}">` +
    '<wsdl:documentation>Registers a video: the same call as POST /Api/Video/Post.</wsdl:documentation>' +
    `<wsdl:types>${SCHEMA}</wsdl:types>` +
    '<wsdl:message name="PostSoapIn"><wsdl:part name="parameters" element="tns:Post"/></wsdl:message>' +
    '<wsdl:message name="PostSoapOut"><wsdl:part name="parameters" element="tns:PostResponse"/></wsdl:message>' +
    '<wsdl:portType name="VideoServiceSoap"><wsdl:operation name="Post">' +
    '<wsdl:input message="tns:PostSoapIn"/><wsdl:output message="tns:PostSoapOut"/>' +
    '</wsdl:operation></wsdl:portType>' +
    binding('VideoServiceSoap', 'soap') +
    binding('VideoServiceSoap12', 'soap12') +
    '<wsdl:service name="VideoService">' +
    `<wsdl:port name="VideoServiceSoap" binding="tns:VideoServiceSoap"><soap:address location="${location}"/></wsdl:port>` +
    `<wsdl:port name="VideoServiceSoap12" binding="tns:VideoServiceSoap12"><soap12:address location="${location}"/></wsdl:port>` +
    '</wsdl:service></wsdl:definitions>'
  );
}
