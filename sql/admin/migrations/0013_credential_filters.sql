-- 0013: access filters per credential. A request with the key must come from one of
-- allowed_ips (CIDR prefixes, canonical text; a single address is a /32 or /128), carry an
-- Origin among allowed_origins (exact "scheme://host[:port]" or "https://*.example.com"), and
-- call a route group among allowed_route_groups (narrowing its user's plan's). NULL: no filter
-- (the API stores an empty list as NULL). Checked on the request path from the credential cache.
ALTER TABLE syncgate.credentials
  ADD COLUMN allowed_ips text[] CHECK (cardinality(allowed_ips) BETWEEN 1 AND 100),
  ADD COLUMN allowed_origins text[] CHECK (cardinality(allowed_origins) BETWEEN 1 AND 100),
  ADD COLUMN allowed_route_groups text[] CHECK (cardinality(allowed_route_groups) BETWEEN 1 AND 100);
