import { describe, expect, it } from 'vitest';
import { isAcceptedImage, readUploadAnswer, SlipUploadError } from '../api/slips';
import { slipAmountText, slipBadge, slipReasonKey, slipStatus } from './slip-format';

describe('slip rows', () => {
  it('shows anything not final as in progress', () => {
    expect(slipStatus('SUCCESS')).toBe('SUCCESS');
    expect(slipStatus('FAILED')).toBe('FAILED');
    expect(slipStatus('PENDING')).toBe('PENDING');
    expect(slipStatus('whatever')).toBe('PENDING');
  });

  it("shows '-' for an amount not above 0", () => {
    const format = (value: number) => value.toFixed(2);
    expect(slipAmountText(0, format)).toBe('-');
    expect(slipAmountText(-1, format)).toBe('-');
    expect(slipAmountText(500.25, format)).toBe('500.25');
  });

  it('shows a failed slip that staff still check as under review, not refused', () => {
    expect(slipBadge('FAILED', 'OPEN')).toEqual({ key: 'slips.review.OPEN', tone: 'warning' });
    expect(slipBadge('FAILED', 'REJECTED')).toEqual({ key: 'slips.review.REJECTED', tone: 'danger' });
    expect(slipBadge('FAILED', null)).toEqual({ key: 'statement.status.FAILED', tone: 'danger' });
    // Approved after review: the slip is SUCCESS, credited.
    expect(slipBadge('SUCCESS', 'APPROVED')).toEqual({ key: 'statement.status.SUCCESS', tone: 'success' });
  });

  it('translates reason codes', () => {
    expect(slipReasonKey('NOT_MATCH')).toBe('slipReason.NOT_MATCH');
    expect(slipReasonKey(null)).toBeNull();
  });
});

describe('slip upload answers', () => {
  const slip = {
    _id: '1',
    createdAt: '2026-11-21T10:00:00Z',
    amount: 100,
    status: 'SUCCESS',
    note: null,
    link: '/api/statement/slip/image/1',
    reference: 'R1',
  };

  it('returns a checked slip, credited or not', () => {
    const ok = readUploadAnswer(200, JSON.stringify({ code: 'SUCCESS', status: 'SUCCESS', slip }));
    expect(ok.code).toBe('SUCCESS');
    const refused = readUploadAnswer(
      200,
      JSON.stringify({ code: 'SLIP_UPLOAD_FAIL', status: 'FAILED', reason: 'NOT_MATCH', slip }),
    );
    expect(refused.reason).toBe('NOT_MATCH');
  });

  it('throws the code and reason of a refusal', () => {
    try {
      readUploadAnswer(400, JSON.stringify({ message: 'SLIP_UPLOAD_FAIL', reason: 'SLIP_UPLOAD_CLOSED' }));
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(SlipUploadError);
      expect((error as SlipUploadError).code).toBe('SLIP_UPLOAD_FAIL');
      expect((error as SlipUploadError).reason).toBe('SLIP_UPLOAD_CLOSED');
    }
    expect(() => readUploadAnswer(400, '{"message":"SLIP_INVALID_FILE"}')).toThrow('SLIP_INVALID_FILE');
    expect(() => readUploadAnswer(502, '<html>')).toThrow('INTERNAL_SERVER_ERROR');
  });

  it('refuses files known not to be PNG or JPEG', () => {
    expect(isAcceptedImage({ type: 'image/png' })).toBe(true);
    expect(isAcceptedImage({ type: 'image/jpeg' })).toBe(true);
    expect(isAcceptedImage({ type: 'image/gif' })).toBe(false);
    expect(isAcceptedImage({ type: 'application/pdf' })).toBe(false);
    expect(isAcceptedImage({ type: '' })).toBe(true);
  });
});
