/** One error type for the REST surface; the server's error handler turns it into Bullhorn's error body. */
export interface ValidationMessage {
  detailMessage: string;
  propertyName: string;
  severity: 'ERROR' | 'WARNING';
  type: string;
}

export interface AtsBErrorBody {
  errorMessage: string;
  errorMessageKey: string;
  errorCode: number;
  entityName?: string;
  messages?: ValidationMessage[];
}

export class AtsBError extends Error {
  constructor(
    readonly status: number,
    readonly errorMessageKey: string,
    message: string,
    readonly extra: { entityName?: string; messages?: ValidationMessage[] } = {},
  ) {
    super(message);
  }

  toBody(): AtsBErrorBody {
    return {
      errorMessage: this.message,
      errorMessageKey: this.errorMessageKey,
      errorCode: this.status,
      ...this.extra,
    };
  }

  static badRequest(message: string, key = 'errors.badRequest'): AtsBError {
    return new AtsBError(400, key, message);
  }

  static notFound(entity: string, id: number | string): AtsBError {
    return new AtsBError(404, 'errors.entityNotFound', `Entity not found: ${entity} ${id}`, {
      entityName: entity,
    });
  }

  static invalidField(entity: string, field: string): AtsBError {
    return new AtsBError(400, 'errors.invalidField', `Invalid field '${field}' for entity '${entity}'`, {
      entityName: entity,
    });
  }

  static cannotPersist(entity: string, messages: ValidationMessage[]): AtsBError {
    return new AtsBError(400, 'errors.cannotPersistEntity', `error persisting an entity of type: ${entity}`, {
      entityName: entity,
      messages,
    });
  }
}

/** OAuth endpoints answer with RFC 6749 bodies, not Bullhorn's REST error body. */
export class OAuthError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description: string,
  ) {
    super(description);
  }
}
