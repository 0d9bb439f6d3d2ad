import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsPhoneNumber,
  IsString,
  Matches,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { jsonSchemasOf } from './json-schema';

class PartDto {
  @IsString() @MaxLength(10) name!: string;
}

class WholeDto {
  @IsString() @MaxLength(5) code!: string;
  @IsOptional() @IsInt() @Min(0) count?: number;
  @IsIn(['a', 'b']) kind!: 'a' | 'b';
  @Matches(/^[0-9a-f]{4}$/i) hex!: string;
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(3)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => PartDto)
  parts?: PartDto[];
  @IsOptional() @IsArray() @IsString({ each: true }) tags?: string[];
  @IsObject() @ValidateNested() @Type(() => PartDto) main!: PartDto;
  @IsOptional() @IsObject() extra?: Record<string, unknown>;
}

class PhoneDto {
  @IsPhoneNumber() phone!: string;
}

describe(jsonSchemasOf.name, () => {
  it('reads the class-validator rules, nested classes included (an @IsObject beside their $ref adds nothing)', () => {
    expect(jsonSchemasOf([WholeDto])).toEqual({
      Whole: {
        type: 'object',
        properties: {
          code: { type: 'string', maxLength: 5 },
          count: { type: 'integer', minimum: 0 },
          kind: { enum: ['a', 'b'] },
          hex: { type: 'string', pattern: '^[0-9a-fA-F]{4}$' },
          parts: { type: 'array', maxItems: 3, items: { $ref: '#/components/schemas/Part' } },
          tags: { type: 'array', items: { type: 'string' } },
          main: { $ref: '#/components/schemas/Part' },
          extra: { type: 'object' },
        },
        required: ['code', 'kind', 'hex', 'main'],
      },
      Part: { type: 'object', properties: { name: { type: 'string', maxLength: 10 } }, required: ['name'] },
    });
  });

  it('refuses a rule it cannot express instead of leaving it out of the contract', () => {
    expect(() => jsonSchemasOf([PhoneDto])).toThrow(/PhoneDto\.phone: no JSON Schema for @isPhoneNumber/);
  });
});
