import type { AtsBSandboxState } from '../ats-b-sandbox.state';
import type { IssuedKind } from '../oauth.store';

/**
 * Data centres: the vendor serves each customer from one of several data centres (clusters), each with its
 * own hosts; a vendor-wide address (the router) tells a user's data centre (`loginInfo`) and sends calls made
 * at it on with a 307. Sources and choices: README, "Data centres".
 */

/** The name the router goes by in the call log. */
export const ROUTER = 'router';

/** A data centre as the running sandbox shows it. */
export interface AtsBDataCentre {
  name: string;
  /** Its origin, e.g. http://127.0.0.1:4021 */
  url: string;
  /** `${url}/oauth` (authorize, token) */
  oauthUrl: string;
  /** `${url}/rest-services` (loginInfo, login) */
  restLoginUrl: string;
  port: number;
  state: AtsBSandboxState;
}

/** One answer of any listener, for tests: which data centre (or the router) served which call. */
export interface DataCentreCall {
  dataCentre: string;
  method: string;
  /** Without the query string: codes and tokens travel there. */
  path: string;
  status: number;
}

const LOG_SIZE = 1_000;

/**
 * The vendor-wide directory: which data centre holds a user, and which one issued a code or token (the
 * vendor can tell; its tokens carry their cluster). Shared by the router and every data centre's app.
 */
export class DataCentreDirectory {
  private readonly calls: DataCentreCall[] = [];

  constructor(readonly dataCentres: readonly AtsBDataCentre[]) {}

  ofUser(username: string | undefined): AtsBDataCentre | undefined {
    if (!username) return undefined;
    return this.dataCentres.find((dc) => dc.state.auth.hasUser(username));
  }

  issuerOf(kind: IssuedKind, value: string | undefined): AtsBDataCentre | undefined {
    if (!value) return undefined;
    return this.dataCentres.find((dc) => dc.state.auth.issued(kind, value));
  }

  /**
   * `GET /rest-services/loginInfo`: the user's data centre's addresses. `oauthUrl` and `restUrl` are what a
   * client uses; the rest are the other fields a real answer carries (pointing at nothing here), so a client
   * that reads tolerantly is tested for it.
   */
  loginInfo(username: string): Record<string, string | number> | undefined {
    const dc = this.ofUser(username);
    if (!dc) return undefined;
    const id = this.dataCentres.indexOf(dc) + 1;
    return {
      atsUrl: dc.url,
      coreUrl: `${dc.url}/core`,
      oauthUrl: dc.oauthUrl,
      restUrl: dc.restLoginUrl,
      samlUrl: `${dc.url}/BullhornStaffing/SAML/Login.cfm`,
      novoUrl: dc.url,
      ulUrl: `${dc.url}/universal-login`,
      dataCenterId: id,
      superClusterId: id,
    };
  }

  record(call: DataCentreCall): void {
    this.calls.push(call);
    if (this.calls.length > LOG_SIZE) this.calls.splice(0, this.calls.length - LOG_SIZE);
  }

  /** The last 1 000 answers, oldest first. */
  log(): DataCentreCall[] {
    return [...this.calls];
  }

  clearLog(): void {
    this.calls.length = 0;
  }

  describe(): Array<{ name: string; url: string }> {
    return this.dataCentres.map((dc) => ({ name: dc.name, url: dc.url }));
  }
}
