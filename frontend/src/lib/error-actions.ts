/**
 * What a player asks the server to do, the API operations each action calls, and which catalogue
 * texts read right for it.
 *
 * One code is often raised by several actions: ``BONUS_CONDITION`` when activating a promotion
 * (no qualifying deposit) and when ending a bonus (turnover not met), ``TRANSFER_MINIMUM`` for a
 * game transfer, a QR and a TrueMoney gift (each with its own minimum), ``QR_FAIL`` when creating
 * a QR and when cancelling one that was paid. The catalogue text (``errorMsg.<CODE>``) fits only
 * some of them; an action's own text (``errorAction.<action>.<CODE>``) overrides it.
 * ``error-actions.test.ts`` reads every code each operation documents in contract/openapi.json
 * and fails when a code raised by two actions has neither a text of its own for an action nor a
 * reviewed entry in {@link CATALOGUE_TEXT_FITS} saying the catalogue text fits that action.
 */

/** Action → the operations (``METHOD /path`` as in the contract) it calls. */
export const ERROR_ACTIONS = {
  login: ['POST /api/login'],
  register: ['POST /api/account', 'POST /api/account/validate'],
  otp: ['POST /api/otp/send', 'POST /api/otp/verify'],
  profile: ['PUT /api/account/profile', 'PUT /api/account/bankAccountName'],
  changePassword: ['PUT /api/account/changepwd'],
  agreement: ['PUT /api/account/agreement'],
  bonusActivate: ['GET /api/bonus/activate/{code}'],
  bonusClear: ['GET /api/bonus/clear'],
  promotionActivate: ['GET /api/promotion/activate/{code}'],
  refund: ['GET /api/refund/addWallet', 'GET /api/refund/receive'],
  invite: ['GET /api/invite/bonus'],
  spin: ['GET /api/spinwheel/setup', 'POST /api/spinwheel/spin'],
  couponClaim: ['POST /api/spinwheel/coupon/claim'],
  qrCreate: ['POST /api/qrcode/{bankCode}'],
  qrCancel: ['DELETE /api/qrcode/{qrcodeId}'],
  qrStatus: ['GET /api/qrcode/status/{qrcodeId}'],
  truemoney: ['POST /api/wallet/truelink'],
  slipUpload: ['POST /api/wallet/slip'],
  slipView: ['GET /api/statement/slip/image/{slip_id}', 'GET /api/statement/slip/reference/{reference}'],
  gameAccount: ['GET /api/wallet/activate/{code}', 'GET /api/wallet/account/{code}', 'GET /api/wallet/resetpassword/{code}'],
  gameTransfer: ['POST /api/wallet/transfer', 'POST /api/wallet/transferAll'],
  withdraw: ['POST /api/wallet/withdraw', 'POST /api/wallet/withdrawAll'],
  chat: [
    'POST /api/chat/history',
    'POST /api/chat/send-message',
    'POST /api/chat/upload-image',
    'POST /api/chat/upload-video',
    'GET /api/chat/media/{key}',
    'PUT /api/chat/read-customer/',
  ],
  lineLink: ['GET /api/line/link', 'POST /api/line/link/code', 'PUT /api/line/link/notices', 'DELETE /api/line/link'],
  protection: [
    'PUT /api/protection/limits',
    'PUT /api/protection/loss-limits',
    'POST /api/protection/exclusion',
    'POST /api/protection/exclusion/end',
    'PUT /api/protection/reality-check',
  ],
} as const satisfies Record<string, readonly string[]>;

export type ErrorAction = keyof typeof ERROR_ACTIONS;

/**
 * What a member asks before signing in (/login, /register): every code these actions can raise
 * (and the lookups those screens read, the client's own codes and a session's end) has its text
 * in the up-front strings, so that it shows at once; the other error texts are fetched once a
 * screen has painted (hooks/use-error-text.ts, ADR 0034). ``error-actions.test.ts`` holds it.
 */
export const SIGNED_OUT_ACTIONS = ['login', 'register', 'otp'] as const satisfies readonly ErrorAction[];

/**
 * Reviewed: codes raised by several actions whose catalogue text reads right for every one of
 * them ('all'), or for the actions listed (the others have a text of their own).
 */
export const CATALOGUE_TEXT_FITS: Readonly<Record<string, 'all' | readonly ErrorAction[]>> = {
  // What the layers in front of every route answer (core/openapi.py: a body that cannot be
  // read, a field that does not fit, the database away, a reused idempotency key).
  BODY_INVALID: 'all',
  KEY_INVALID: 'all',
  KEY_MISSING: 'all',
  PAYLOAD_TOO_LARGE: 'all',
  SERVICE_UNAVAILABLE: 'all',
  // "Your balance is not enough", "Too many requests", "already registered", …: said the same
  // whatever was asked.
  BANK_ACCOUNT_NAME_ENG: 'all',
  BONUS_ALREADY_ACTIVE: 'all',
  BONUS_MAX_CLAIMED: 'all',
  BONUS_DEVICE_CLAIMED: 'all',
  // "Not offered in your wallet's currency" (ADR 0020): the same for a withdrawal, a bonus, a
  // code, a spin or a coupon.
  CURRENCY_NOT_OFFERED: 'all',
  BONUS_REMAINING: 'all',
  EXISTING_BANK: 'all',
  EXISTING_USER: 'all',
  IDEMPOTENCY_KEY_REUSED: 'all',
  INTERNAL_SERVER_ERROR: 'all',
  INVALID_BANK: 'all',
  MONEY_NOT_ENOUGH: 'all',
  NO_GAME: 'all',
  // "Your money has not moved": the catalogue text speaks of a transfer; opening, launching
  // or resetting a game in maintenance has its own (errorAction.gameAccount).
  PROVIDER_MAINTENANCE: ['gameTransfer'],
  PROVIDER_UNAVAILABLE: ['gameTransfer'],
  PHONE_NUMBER_REQUIRE_10_DIGIT: 'all',
  REQUEST_LIMIT: 'all',
  WRONG_PASSWORD: 'all',
  // "The registration details are invalid": registering only; a password change has its own.
  INVALID_USER_INFO: ['register'],
  // "No data": a slip the player looked up; a bonus or a QR that is not there has its own.
  NO_DATA: ['slipView'],
  // Each action says what failed: "cannot end the bonus" fits ending it only.
  BONUS_CONDITION: [],
  // Each action names its own minimum.
  TRANSFER_MINIMUM: [],
  // "Could not create the QR code": creating one; a cancel refused because it was paid has its own.
  QR_FAIL: ['qrCreate'],
  // Player protection: "you chose a break: deposits, games and bonuses are closed" and "over
  // your deposit limit" read the same whatever was asked.
  PLAY_EXCLUDED: 'all',
  DEPOSIT_LIMIT_REACHED: 'all',
  LOSS_LIMIT_REACHED: 'all',
};
