// Checks Blockfrost-format pushes with blockfrost-js's own
// verifyWebhookSignature: CASES is a JSON array of {body, header, secret};
// prints, per case, "ok" or the error's message, as a JSON array.
import blockfrost from '@blockfrost/blockfrost-js';

const { verifyWebhookSignature } = blockfrost;
const cases = JSON.parse(process.env.CASES);
const out = cases.map((c) => {
  try {
    const event = verifyWebhookSignature(c.body, c.header, c.secret);
    return event && typeof event === 'object' ? 'ok' : 'no event';
  } catch (e) {
    return String(e.message);
  }
});
console.log(JSON.stringify(out));
