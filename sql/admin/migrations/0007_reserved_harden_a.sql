-- 0007: reserved for branch harden-a (issue 15, first half), which owns this number.
-- Placeholder so migration numbers stay gapless on this branch; on merge, harden-a's file replaces it.
SELECT 1;
