/**
 * A service's own part for one ATS (a vacancy source, a sink, a credential issuer, a connector kind). It is
 * written beside the service code it needs (an adapter lib, layer:vendor, may not import a service), and
 * names the ATS it is for by the adapter's `type`.
 */
export interface AtsPart {
  readonly atsType: string;
}
