-- 0018: the signature headers a delivery's last attempt sent, so the delivery log shows what the
-- receiver was asked to verify: `[{"name", "value"}]` in the order sent — Blockfrost-Signature
-- for a Blockfrost-format webhook, webhook-id, webhook-timestamp and webhook-signature for a
-- standard one. NULL until an attempt sends a request (or when the last one could not). A
-- signature is an HMAC the receiver sees, not the secret.
ALTER TABLE syncgate.webhook_deliveries ADD COLUMN last_signature_headers jsonb;
