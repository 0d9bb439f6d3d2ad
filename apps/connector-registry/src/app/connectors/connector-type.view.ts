import type { AtsAdapter, ConnectorKind, SetupField, SetupFlow } from '@connector/ats-core';

export interface SetupFieldView {
  name: string;
  in: SetupField['in'];
  label: string;
  kind: SetupField['kind'];
  required: boolean;
  help?: string;
  placeholder?: string;
  default?: string | number | boolean | string[];
  choices?: { value: string; label: string; help?: string }[];
  forbiddenSuffix?: string;
}

/** An ATS a connector can be made for, and what the admin set-up form asks for it (from its adapter). */
export interface ConnectorTypeView {
  type: string;
  label: string;
  capabilities: string[];
  flow: SetupFlow;
  summary: string;
  intro: string;
  fields: SetupFieldView[];
}

/** `adapter`: the ATS the kind is for (its name and capabilities). */
export function toConnectorTypeView(adapter: AtsAdapter, kind: ConnectorKind): ConnectorTypeView {
  const { flow, summary, intro, fields } = kind.setup;
  return {
    type: adapter.type,
    label: adapter.label,
    capabilities: [...adapter.capabilities],
    flow,
    summary,
    intro,
    fields: fields.map((field) => ({
      ...field,
      ...(Array.isArray(field.default) ? { default: [...field.default] } : {}),
      ...(field.choices ? { choices: field.choices.map((choice) => ({ ...choice })) } : {}),
    })) as SetupFieldView[],
  };
}
