/**
 * Every code an action can raise (as contract/openapi.json documents it per operation) reads
 * right for that action in th, la and en: a code raised by several actions has a text of its own
 * for each, or a reviewed entry saying the catalogue text fits.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import codes from './error-codes.json';
import enErrors from '@/locales/en/errors.json';
import enUpFront from '@/locales/en/translation.json';
import laErrors from '@/locales/la/errors.json';
import laUpFront from '@/locales/la/translation.json';
import thErrors from '@/locales/th/errors.json';
import thUpFront from '@/locales/th/translation.json';
import { CATALOGUE_TEXT_FITS, ERROR_ACTIONS, SIGNED_OUT_ACTIONS, type ErrorAction } from './error-actions';
import { ApiError, AUTH_CODES, errorText, errorTextKey } from './errors';

type Operation = { responses?: Record<string, { description?: string }> };
const contract = JSON.parse(readFileSync(new URL('../../../contract/openapi.json', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, Operation>>;
};
const catalogue = new Set<string>(
  Object.values(codes.errorMsg).flatMap((group) => (Array.isArray(group) ? group : Object.keys(group))),
);

/** The catalogue codes an operation documents in its error answers. */
function raisedBy(operation: string): Set<string> {
  const [method, path] = operation.split(' ') as [string, string];
  const op = contract.paths[path]?.[method.toLowerCase()];
  if (!op) throw new Error(`${operation} is not in contract/openapi.json`);
  const found = new Set<string>();
  for (const [status, answer] of Object.entries(op.responses ?? {})) {
    if (status.startsWith('2')) continue;
    for (const [word] of (answer.description ?? '').matchAll(/\b[A-Z][A-Z0-9_]+\b/g)) {
      if (catalogue.has(word)) found.add(word);
    }
  }
  return found;
}

const actions = Object.keys(ERROR_ACTIONS) as ErrorAction[];
const codesOf = new Map(actions.map((action) => [action, new Set(ERROR_ACTIONS[action].flatMap((op) => [...raisedBy(op)]))]));

function lookup(bundle: object, key: string): string | undefined {
  let node: unknown = bundle;
  for (const part of key.split('.')) node = (node as Record<string, unknown> | undefined)?.[part];
  return typeof node === 'string' ? node : undefined;
}
// A language's error texts as i18next reads them: the up-front ones and errors.json's.
const merged = (upFront: typeof enUpFront, errors: typeof enErrors) => ({
  ...upFront,
  ...errors,
  errorMsg: { ...upFront.errorMsg, ...errors.errorMsg },
});
const en = merged(enUpFront, enErrors);
const bundles = { th: merged(thUpFront, thErrors), la: merged(laUpFront, laErrors), en };
const upFront = { th: thUpFront, la: laUpFront, en: enUpFront };

describe('error texts per action', () => {
  it('every player operation that documents a code belongs to an action', () => {
    const mapped = new Set<string>(Object.values(ERROR_ACTIONS).flat());
    const unmapped: string[] = [];
    for (const [path, ops] of Object.entries(contract.paths)) {
      // Staff, the support agents' inbox, lookups, game launches, provider callbacks, operator
      // images (an <img> source), LINE's webhook and the files LINE fetches: not the player's
      // actions on a form (their screens show the catalogue text as it is).
      if (/^\/api\/(backoffice|agent|lookup|autoLogin|payments|images|line\/(webhook|media))\b/.test(path)) continue;
      for (const method of Object.keys(ops)) {
        const operation = `${method.toUpperCase()} ${path}`;
        const own = [...raisedBy(operation)].filter((code) => CATALOGUE_TEXT_FITS[code] !== 'all');
        if (own.length > 0 && !mapped.has(operation)) unmapped.push(operation);
      }
    }
    expect(unmapped).toEqual([]);
  });

  it('a code raised by several actions reads right for each (own text or reviewed)', () => {
    const problems: string[] = [];
    const raisers = new Map<string, ErrorAction[]>();
    for (const [action, raised] of codesOf) for (const code of raised) raisers.set(code, [...(raisers.get(code) ?? []), action]);
    for (const [code, by] of raisers) {
      if (by.length < 2) continue;
      const fits = CATALOGUE_TEXT_FITS[code];
      for (const action of by) {
        const own = `errorAction.${action}.${code}`;
        if (fits === 'all' || fits?.includes(action)) continue;
        if (lookup(en, own) === undefined) problems.push(`${code} raised by ${action}: no ${own} and not reviewed as fitting`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('every text an action can show exists in th, la and en, and no own text is for a code it cannot raise', () => {
    const problems: string[] = [];
    for (const [action, raised] of codesOf) {
      for (const code of raised) {
        for (const [locale, bundle] of Object.entries(bundles)) {
          const key = errorTextKey(code, (k) => lookup(bundle, k) !== undefined, action);
          if (key === null) problems.push(`${locale}: ${action} ${code} has no text`);
        }
      }
      const own = Object.keys((en.errorAction as Record<string, Record<string, string>>)[action] ?? {});
      for (const code of own) if (!raised.has(code)) problems.push(`errorAction.${action}.${code}: ${action} never raises it`);
    }
    expect(problems).toEqual([]);
  });

  it('shows the text that fits what the player did (issue 17)', () => {
    // As hooks/use-error-text.ts: the member's currency names the unit (a baht member here).
    const t = (key: string, values?: Record<string, string | number>) =>
      (lookup(en, key) ?? key).replace(/\{\{(\w+)\}\}/g, (_, name: string) =>
        String({ unit: en.common.currency.THB, ...values }[name]),
      );
    const exists = (key: string) => lookup(en, key) !== undefined;
    const text = (action: ErrorAction, error: ApiError) => errorText(error, t, exists, action);

    // An unmet promotion is not "cannot cancel the bonus".
    expect(text('promotionActivate', new ApiError(400, 'BONUS_CONDITION'))).toMatch(/promotion's condition/);
    expect(text('bonusClear', new ApiError(400, 'BONUS_CONDITION'))).toMatch(/cannot end the bonus/);
    // A 1-baht TrueMoney gift names the 2-baht minimum the server sent.
    expect(text('truemoney', new ApiError(400, 'TRANSFER_MINIMUM', undefined, { minimum: 2 }))).toBe(
      'The gift is worth less than the minimum of 2 baht.',
    );
    expect(text('qrCreate', new ApiError(400, 'TRANSFER_MINIMUM', undefined, { minimum: 100 }))).toBe(
      'The amount must be at least 100.',
    );
    // Cancelling a paid QR is not "QR creation failed".
    expect(text('qrCancel', new ApiError(409, 'QR_FAIL'))).toMatch(/already been paid/);
    expect(text('qrCreate', new ApiError(400, 'QR_FAIL'))).toBe('Could not create the QR code.');
  });
});

describe('which error texts are up-front (ADR 0034)', () => {
  // What /login and /register can show: the codes their actions raise, those of the lookups the
  // screens read, the client's own (no answer, too slow), a session's end (the member lands on
  // /login) and an answer without a code (lib/api-client.ts reads it as INTERNAL_SERVER_ERROR).
  const lookups = Object.entries(contract.paths)
    .filter(([path]) => path.startsWith('/api/lookup/'))
    .flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`));
  const signedOut = new Set([
    ...SIGNED_OUT_ACTIONS.flatMap((action) => [...codesOf.get(action)!]),
    ...lookups.flatMap((operation) => [...raisedBy(operation)]),
    ...Object.keys(codes.errorMsg.client),
    ...AUTH_CODES.filter((code) => catalogue.has(code)),
    'INTERNAL_SERVER_ERROR',
  ]);

  it('every code a member can meet before signing in has its text in the up-front strings', () => {
    const problems: string[] = [];
    for (const [locale, bundle] of Object.entries(upFront)) {
      for (const code of signedOut) {
        if (lookup(bundle, `errorMsg.${code}`) === undefined) problems.push(`${locale}: errorMsg.${code} is not up-front`);
      }
      for (const action of SIGNED_OUT_ACTIONS) {
        if (action in bundles.en.errorAction) problems.push(`errorAction.${action} is in errors.json, fetched after sign-in screens`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('no other code is up-front (each costs /login its bytes)', () => {
    const extra = Object.keys(enUpFront.errorMsg).filter((code) => !signedOut.has(code));
    expect(extra).toEqual([]);
  });
});
