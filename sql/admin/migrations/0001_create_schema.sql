-- 0001: syncgate keeps all of its own tables in schema syncgate, never in public.
CREATE SCHEMA IF NOT EXISTS syncgate;
