-- 0014: usage per credential, hour and route group, for the billing export: requests by status
-- class and the response body bytes written to the client. The usage recorder adds these rows
-- in the same flush transaction (and under the same batch id) as usage_hourly, so for every
-- (credential, hour) the classes sum to usage_hourly's counts: 2xx + 3xx = successful_requests,
-- 4xx + 5xx = failed_requests. Hours counted before this table existed (or by an older
-- instance during an upgrade) have no rows here; the export shows that remainder as route
-- group "unrecorded". The counts are in the key (INCLUDE), so the export reads index-only.
CREATE TABLE syncgate.usage_route_hourly (
  credential_id uuid        NOT NULL,
  hour          timestamptz NOT NULL,
  route_group   text        NOT NULL,
  requests_2xx  bigint      NOT NULL DEFAULT 0,
  requests_3xx  bigint      NOT NULL DEFAULT 0,
  requests_4xx  bigint      NOT NULL DEFAULT 0,
  requests_5xx  bigint      NOT NULL DEFAULT 0,
  bytes_sent    bigint      NOT NULL DEFAULT 0,
  PRIMARY KEY (credential_id, hour, route_group)
    INCLUDE (requests_2xx, requests_3xx, requests_4xx, requests_5xx, bytes_sent)
);
