import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../../context.ts';
import { insertCaptcha, takeCaptcha } from './code-repository.ts';
import { randomCaptchaText, renderCaptcha } from './captcha-image.ts';

export const CAPTCHA_TTL_MS = 5 * 60_000;

const hashAnswer = (id: string, answer: string) => createHash('sha256').update(`${id}|${answer.trim().toUpperCase()}`).digest();

/** Image captchas: the answer is stored hashed, valid 5 minutes, one try each. */
export class CaptchaService {
  now = () => new Date();

  constructor(private readonly ctx: AppContext) {}

  /** A new captcha; `answer` is random unless given (tests solve it that way). */
  async create(answer = randomCaptchaText()): Promise<{ id: string; b64s: string }> {
    const id = randomBytes(16).toString('base64url');
    const b64s = await renderCaptcha(answer);
    await insertCaptcha(this.ctx.db, {
      id,
      answerHash: hashAnswer(id, answer).toString('hex'),
      expiresAt: new Date(this.now().getTime() + CAPTCHA_TTL_MS),
    });
    return { id, b64s };
  }

  /** True for the right answer (case-insensitive); the captcha is used up either way. */
  async verify(id: string | undefined, answer: string | undefined): Promise<boolean> {
    if (!id || !answer || id.length > 64) return false;
    const stored = await takeCaptcha(this.ctx.db, id, this.now());
    if (!stored) return false;
    return timingSafeEqual(hashAnswer(id, answer), Buffer.from(stored, 'hex'));
  }
}
