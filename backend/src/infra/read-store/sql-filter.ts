import type { Condition, Filter, Scalar, SortSpec } from '@kora/kernel';

/**
 * Translates the read store's Mongo-style filter subset into SQL over a JSON document column. Field paths are
 * inlined as literals (after validation) so that expression indexes on `json_extract(doc, '$.path')` match.
 */
export interface SqlFragment {
  readonly sql: string;
  readonly params: unknown[];
}

const SEGMENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
const OPERATORS = new Set(['$eq', '$ne', '$in', '$nin', '$gt', '$gte', '$lt', '$lte', '$exists', '$contains']);

export class InvalidQueryError extends Error {}

export function fieldExpression(path: string): string {
  if (path === '_id') return 'id';
  const segments = path.split('.');
  if (!segments.every((segment) => SEGMENT.test(segment))) throw new InvalidQueryError(`Invalid field path ${path}`);
  return `json_extract(doc, '$.${segments.join('.')}')`;
}

function typeExpression(path: string): string {
  if (path === '_id') return "'text'";
  fieldExpression(path); // validates
  return `json_type(doc, '$.${path}')`;
}

function bind(value: Scalar): unknown {
  return typeof value === 'boolean' ? Number(value) : value;
}

function isCondition(value: unknown): value is Condition {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.keys(value).length > 0 &&
    Object.keys(value).every((key) => key.startsWith('$'))
  );
}

function equals(expr: string, value: Scalar, params: unknown[]): string {
  if (value === null) return `${expr} IS NULL`;
  params.push(bind(value));
  return `${expr} = ?`;
}

function inList(expr: string, values: readonly Scalar[], params: unknown[], negate: boolean): string {
  const present = values.filter((value) => value !== null);
  const hasNull = present.length !== values.length;
  params.push(...present.map(bind));
  const list = `(${present.map(() => '?').join(', ')})`;
  if (negate) {
    // Mongo semantics: $nin also matches a missing field, unless null is one of the excluded values.
    if (present.length === 0) return hasNull ? `${expr} IS NOT NULL` : '1';
    return hasNull ? `(${expr} IS NOT NULL AND ${expr} NOT IN ${list})` : `(${expr} IS NULL OR ${expr} NOT IN ${list})`;
  }
  if (present.length === 0) return hasNull ? `${expr} IS NULL` : '0';
  return hasNull ? `(${expr} IN ${list} OR ${expr} IS NULL)` : `${expr} IN ${list}`;
}

function condition(path: string, cond: Condition, params: unknown[]): string {
  const expr = fieldExpression(path);
  const parts: string[] = [];
  for (const [operator, operand] of Object.entries(cond)) {
    if (!OPERATORS.has(operator)) throw new InvalidQueryError(`Unsupported operator ${operator}`);
    switch (operator) {
      case '$eq':
        parts.push(equals(expr, operand as Scalar, params));
        break;
      case '$ne':
        if (operand === null) parts.push(`${expr} IS NOT NULL`);
        else {
          params.push(bind(operand as Scalar));
          parts.push(`(${expr} IS NULL OR ${expr} != ?)`);
        }
        break;
      case '$in':
      case '$nin': {
        if (!Array.isArray(operand)) throw new InvalidQueryError(`${operator} needs an array`);
        parts.push(inList(expr, operand as Scalar[], params, operator === '$nin'));
        break;
      }
      case '$gt':
      case '$gte':
      case '$lt':
      case '$lte': {
        const sql = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' }[operator];
        params.push(operand);
        parts.push(`${expr} ${sql} ?`);
        break;
      }
      case '$exists':
        parts.push(`${typeExpression(path)} IS ${operand ? 'NOT ' : ''}NULL`);
        break;
      case '$contains':
        params.push(String(operand));
        parts.push(`kora_icontains(${expr}, ?)`);
        break;
    }
  }
  return parts.join(' AND ');
}

export function compileFilter(filter: Filter | undefined): SqlFragment {
  const params: unknown[] = [];
  const sql = filter ? compile(filter, params) : '1';
  return { sql, params };
}

function compile(filter: Filter, params: unknown[]): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(filter)) {
    if (value === undefined) continue;
    if (key === '$and' || key === '$or') {
      const subs = (value as readonly Filter[]).map((sub) => `(${compile(sub, params)})`);
      if (subs.length === 0) parts.push(key === '$and' ? '1' : '0');
      else parts.push(`(${subs.join(key === '$and' ? ' AND ' : ' OR ')})`);
    } else if (key.startsWith('$')) {
      throw new InvalidQueryError(`Unsupported operator ${key}`);
    } else if (isCondition(value)) {
      parts.push(condition(key, value, params));
    } else {
      parts.push(equals(fieldExpression(key), value as Scalar, params));
    }
  }
  return parts.length === 0 ? '1' : parts.join(' AND ');
}

export function compileSort(sort: SortSpec | undefined): string {
  const terms = Object.entries(sort ?? {}).map(
    ([path, direction]) => `${fieldExpression(path)} ${direction === -1 ? 'DESC' : 'ASC'}`,
  );
  if (!sort || !('_id' in sort)) terms.push('id ASC'); // a stable order for pagination
  return terms.join(', ');
}
