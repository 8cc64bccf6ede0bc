<?php
// PHP's own SoapClient (ext-soap), driven by test/soap.php.test.ts: it reads the served WSDL,
// picks the binding of the requested SOAP version and calls Post with the JSON arguments.
// A fourth argument replaces the SOAP action the WSDL names, to see how PHP reads a Fault.
// Usage: php phpSoapClient.php <wsdl url> <1.1|1.2> <json arguments> [soap action]
[, $wsdl, $version, $json] = $argv;

// In WSDL mode PHP always sends the WSDL's action; only its transport hook can change it.
class ActionClient extends SoapClient
{
    public ?string $actionOverride = null;

    public function __doRequest($request, $location, $action, $version, $oneWay = false): ?string
    {
        return parent::__doRequest($request, $location, $this->actionOverride ?? $action, $version, $oneWay);
    }
}

$client = new ActionClient($wsdl, [
    'soap_version' => $version === '1.2' ? SOAP_1_2 : SOAP_1_1,
    'trace' => true,
    'cache_wsdl' => WSDL_CACHE_NONE,
]);
$arguments = json_decode($json, true, 8, JSON_THROW_ON_ERROR);
$client->actionOverride = $argv[4] ?? null;
try {
    $result = $client->Post($arguments);
    echo json_encode(['result' => $result, 'requestHeaders' => $client->__getLastRequestHeaders()]);
} catch (SoapFault $fault) {
    echo json_encode(['fault' => ['code' => $fault->faultcode, 'string' => $fault->faultstring]]);
}
