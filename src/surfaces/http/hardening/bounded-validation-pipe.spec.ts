import { BadRequestException, type ValidationError } from '@nestjs/common';
import { IsString } from 'class-validator';
import { BoundedValidationPipe, listProblems } from './bounded-validation-pipe.js';

const error = (
  property: string,
  constraints: Record<string, string>,
  children: ValidationError[] = [],
): ValidationError => ({ property, constraints, children });

describe('listProblems: the messages of a validation 400', () => {
  it('gives nested messages their parent path, in order', () => {
    const errors = [
      error('message', { isString: 'message must be a string' }),
      error('options', {}, [error('temperature', { max: 'temperature must not be greater than 2' })]),
    ];
    expect(listProblems(errors)).toEqual([
      'message must be a string',
      'options.temperature must not be greater than 2',
    ]);
  });

  it('lists 10 and counts the rest, however many there are', () => {
    const errors = Array.from({ length: 1000 }, (_, i) =>
      error(`k${i}`, { whitelistValidation: `property k${i} should not exist` }),
    );
    const listed = listProblems(errors);
    expect(listed).toHaveLength(10);
    expect(listed[0]).toBe('property k0 should not exist');
    expect(listed[9]).toBe('property k9 should not exist (and 990 more problems)');
  });
});

describe('BoundedValidationPipe', () => {
  class Dto {
    @IsString()
    message!: string;
  }
  const pipe = new BoundedValidationPipe();

  it('answers a custom parameter (the actor, a header) as it is, without validating it or making a promise', () => {
    const actor = { id: 'api:alice' };
    expect(pipe.transform(actor, { type: 'custom', metatype: Dto })).toBe(actor);
  });

  it('still validates bodies against their DTO, as a 400', async () => {
    await expect(pipe.transform({ message: 42 }, { type: 'body', metatype: Dto })).rejects.toBeInstanceOf(
      BadRequestException,
    );
    await expect(pipe.transform({ message: 'hi', extra: 1 }, { type: 'body', metatype: Dto })).rejects.toBeInstanceOf(
      BadRequestException,
    );
    await expect(pipe.transform({ message: 'hi' }, { type: 'body', metatype: Dto })).resolves.toBeInstanceOf(Dto);
  });
});
