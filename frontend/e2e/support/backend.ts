/**
 * Talking to the backend outside the browser: the operator CLI (site closed, OTP on/off), the
 * sandbox SMS outbox, members created through the public API, and members as old data has them.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type APIRequestContext } from '@playwright/test';

const PAO = process.env.PAO_BIN ?? fileURLToPath(new URL('../../../.venv/bin/pao', import.meta.url));
const PYTHON = process.env.PAO_PYTHON ?? fileURLToPath(new URL('../../../.venv/bin/python', import.meta.url));

// Sends one request to the warm operator CLI (support/ops_server.py) and prints its answer;
// exits 75 when nobody listens, so that the caller runs the command itself.
const OPS_CLIENT = [
  'import json, socket, sys',
  's = socket.socket(socket.AF_UNIX)',
  'try: s.connect(sys.argv[1])',
  'except OSError: sys.exit(75)',
  's.sendall(sys.stdin.buffer.read() + b"\\n")',
  'data = b""',
  'while not data.endswith(b"\\n"):',
  '    chunk = s.recv(65536)',
  '    if not chunk: sys.exit("ops server: no answer")',
  '    data += chunk',
  'answer = json.loads(data)',
  'sys.stdout.write(answer["stdout"]); sys.stderr.write(answer["stderr"]); sys.exit(answer["code"])',
].join('\n');

/**
 * Runs a `pao` command (args) or a Python script with its argv on the test server's data
 * directory: through the warm CLI that playwright.config.ts starts beside the server when its
 * socket is there, else as a process of its own. Either way it throws when the command fails.
 */
function runPao(request: { args: string[] } | { script: string; argv: string[] }): string {
  const env = { ...process.env, PAO_DATA_DIR: process.env.PAO_E2E_DATA_DIR, PAO_SANDBOX: '1' };
  const socket = join(process.env.PAO_E2E_DATA_DIR ?? '', 'ops.sock');
  if (process.env.PAO_E2E_DATA_DIR && existsSync(socket)) {
    try {
      return execFileSync(PYTHON, ['-I', '-S', '-c', OPS_CLIENT, socket], {
        input: JSON.stringify(request),
        encoding: 'utf8',
      });
    } catch (error) {
      if ((error as { status?: number }).status !== 75) throw error;
    }
  }
  return 'args' in request
    ? execFileSync(PAO, request.args, { env, encoding: 'utf8' })
    : execFileSync(PYTHON, ['-c', request.script, ...request.argv], { env, encoding: 'utf8' });
}

/** Runs `pao ops …` on the test server's data directory. */
export function paoOps(...args: string[]): string {
  return runPao({ args: ['ops', ...args] });
}

/**
 * Turns the OTP step of registration on or off, and waits until the server says so: it caches
 * the site settings for a second, and one read just before the change would serve the old value.
 * Nothing to do when the server already says so (only this function changes it, and it waits
 * until the server says the new value): the operator CLI is a process of seconds.
 */
export async function setRegisterOtp(request: APIRequestContext, on: boolean): Promise<void> {
  if ((await registerOtpOn(request)) === on) return;
  paoOps('settings', 'set', 'registerOTP', on ? 'true' : 'false');
  await expect.poll(() => registerOtpOn(request)).toBe(on);
}

/** Whether registration asks for an OTP, as the server answers the app. */
async function registerOtpOn(request: APIRequestContext): Promise<boolean> {
  const flag = await request.get('/api/lookup/registerOTP', { headers: { 'X-Pao-Client': 'wallet' } });
  return ((await flag.json()) as { registerOTP: boolean }).registerOTP;
}

/**
 * Turns the chat's FAQ bot on or off, and waits until the server acts on it (it caches the site
 * settings for a second): a new guest's message is answered by the bot, or not. The bot is also
 * silent while an agent is online, so "on" waits for an agent left connected to be gone too.
 */
export async function setChatBot(request: APIRequestContext, on: boolean): Promise<void> {
  paoOps('settings', 'set', 'chatBotEnabled', on ? 'true' : 'false');
  await expect.poll(() => botAnswers(request)).toBe(on);
}

async function botAnswers(request: APIRequestContext): Promise<boolean> {
  const guestId = randomUUID();
  const headers = { 'X-Guest-Id': guestId };
  const sent = await request.post('/api/chat/send-message', {
    data: { guestId, message: { message_type: 'text', payload: 'bot?' } },
    headers,
  });
  expect(sent.ok(), await sent.text()).toBe(true);
  const history = await request.post('/api/chat/history', { data: { guestId, limit: 10, skip: 0 }, headers });
  return ((await history.json()) as { sender: string }[]).some((message) => message.sender === 'bot');
}

export function randomDigits(n: number): string {
  let out = '';
  while (out.length < n) out += Math.floor(Math.random() * 10).toString();
  return out.slice(0, n);
}

/** A phone number nobody registered yet (Thai mobile format, 10 digits). */
export function freshPhone(): string {
  return `09${randomDigits(8)}`;
}

/** The newest OTP code the sandbox SMS outbox holds for a phone. */
export async function latestOtp(request: APIRequestContext, phone: string): Promise<string> {
  let code = '';
  await expect
    .poll(
      async () => {
        const response = await request.get(`/sandbox/sms?phone=${phone}`);
        if (!response.ok()) return '';
        const messages = (await response.json()) as { text: string }[];
        code = /\b(\d{6})\b/.exec(messages[0]?.text ?? '')?.[1] ?? '';
        return code;
      },
      { timeout: 10_000 },
    )
    .not.toBe('');
  return code;
}

export type Member = { phone: string; password: string; name: string };

/** Registers a member through the API (OTP step included when the site asks for it). Every such
 * member's account is under the holder name "E2E MEMBER" (the back office flags them as linked
 * accounts) unless `bankAccountName` says another. */
export async function createMember(request: APIRequestContext, password = 'secret123', bankAccountName = 'E2E MEMBER'): Promise<Member> {
  const phone = freshPhone();
  const name = `E2E Member ${phone.slice(-4)}`;
  const headers = { 'X-Pao-Client': 'wallet' };
  let otpToken: string | null = null;
  if (await registerOtpOn(request)) {
    const sent = await request.post('/api/otp/send', { data: { phoneNumber: phone }, headers });
    expect(sent.ok(), await sent.text()).toBe(true);
    const otp = (await sent.json()) as { otpToken: string };
    otpToken = otp.otpToken;
    const verified = await request.post('/api/otp/verify', {
      data: { otpToken, otpCode: await latestOtp(request, phone) },
      headers,
    });
    expect(verified.ok(), await verified.text()).toBe(true);
  }
  const created = await request.post('/api/account', {
    headers,
    data: {
      name,
      username: phone,
      password,
      sourceCode: null,
      inviteCode: null,
      bankCode: 'SCB',
      bankAccountName,
      bankAccountNo: randomDigits(10),
      otpToken,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  return { phone, password, name };
}

/**
 * A member whose KTB account name is in Thai script, as accounts opened before the English-only
 * rule are. Registration refuses such a name now, so it is written straight into the test
 * server's database, with the backend's own create_member.
 */
export function createLegacyMember(password = 'secret123'): Member {
  const phone = freshPhone();
  const name = `E2E Legacy ${phone.slice(-4)}`;
  const script = [
    'import sys',
    'from pao.identity.service import create_member',
    'from pao.ops.base import run',
    'phone, name, password, account = sys.argv[1:5]',
    'run(lambda s: create_member(s, phone=phone, name=name, password=password, bank_code="KTB",',
    '    bank_account_name="สมชาย ใจดี", bank_account_no=account))',
  ].join('\n');
  runPao({ script, argv: [phone, name, password, randomDigits(10)] });
  return { phone, password, name };
}
