// The signing secret of a webhook endpoint, in the Standard Webhooks form: `whsec_` and the
// base64 of 24 random bytes (192 bits). node:crypto, hence here and not in the domain.
import { randomBytes } from 'node:crypto';
import type { WebhookSecretGenerator } from '../../domain/index.js';

/** A fresh secret: `whsec_` and 24 random bytes in base64 (32 characters). */
export const generateWebhookSecret = (): string => `whsec_${randomBytes(24).toString('base64')}`;

/** The WebhookSecretGenerator of the service. */
export const cryptoWebhookSecretGenerator: WebhookSecretGenerator = { generate: generateWebhookSecret };
