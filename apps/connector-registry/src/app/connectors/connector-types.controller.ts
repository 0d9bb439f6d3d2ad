import { Get } from '@nestjs/common';
import { ApiOperation, ApiResponse } from '@nestjs/swagger';
import { AtsRegistry } from '@connector/ats-core';
import { ApiController } from '../common/api';
import { ConnectorTypeListResponse } from '../common/api-responses';
import { type ConnectorTypeView, toConnectorTypeView } from './connector-type.view';
import { ConnectorKinds } from './kinds/connector-kinds';

@ApiController('connector-types', 'connectors')
export class ConnectorTypesController {
  constructor(
    private readonly registry: AtsRegistry,
    private readonly kinds: ConnectorKinds,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'The ATSs a connector can be made for, and what the set-up form asks for each',
    description:
      'Each registered ATS adapter declares its set-up flow (client credentials tested before saving, or an ' +
      'interactive login after saving) and the fields of config and options the admin form asks',
  })
  @ApiResponse({ status: 200, description: 'the connector types', type: ConnectorTypeListResponse })
  list(): { types: ConnectorTypeView[] } {
    return {
      types: this.kinds.all().map((kind) => toConnectorTypeView(this.registry.get(kind.atsType), kind)),
    };
  }
}
