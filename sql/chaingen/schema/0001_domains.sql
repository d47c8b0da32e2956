-- db-sync 13.7.2.1 stage-1 objects: the domains and enum types the tables
-- below use. Each one is created only when absent, so running this against a
-- database that db-sync's own migrations built changes nothing.
--
-- Domain CHECKs carry PostgreSQL's default names (<domain>_check), which is
-- what db-sync's unnamed CHECKs get.
DO $$
DECLARE
  doms text[][] := ARRAY[
    ['lovelace',    'numeric(20,0)', 'VALUE >= 0 AND VALUE <= 18446744073709551615'],
    ['word64type',  'numeric(20,0)', 'VALUE >= 0 AND VALUE <= 18446744073709551615'],
    ['int65type',   'numeric(20,0)', 'VALUE >= -18446744073709551615 AND VALUE <= 18446744073709551615'],
    ['word128type', 'numeric(39,0)', 'VALUE >= 0 AND VALUE <= 340282366920938463463374607431768211455'],
    ['word63type',  'bigint',        'VALUE >= 0'],
    ['word31type',  'integer',       'VALUE >= 0'],
    ['txindex',     'smallint',      'VALUE >= 0'],
    ['hash32type',  'bytea',         'octet_length(VALUE) = 32'],
    ['hash28type',  'bytea',         'octet_length(VALUE) = 28'],
    ['addr29type',  'bytea',         'octet_length(VALUE) = 29'],
    ['asset32type', 'bytea',         'octet_length(VALUE) <= 32']
  ];
  i int;
BEGIN
  FOR i IN 1 .. array_length(doms, 1) LOOP
    IF NOT EXISTS (SELECT 1 FROM pg_type t
                   WHERE t.typname = doms[i][1] AND t.typnamespace = current_schema()::regnamespace) THEN
      EXECUTE format('CREATE DOMAIN %I AS %s CHECK (%s)', doms[i][1], doms[i][2], doms[i][3]);
    END IF;
  END LOOP;

  -- outsum is an alias of word128type (no CHECK of its own).
  IF NOT EXISTS (SELECT 1 FROM pg_type t
                 WHERE t.typname = 'outsum' AND t.typnamespace = current_schema()::regnamespace) THEN
    CREATE DOMAIN outsum AS word128type;
  END IF;
END
$$;

DO $$
DECLARE
  enums text[][] := ARRAY[
    ['rewardtype',        'leader,member,reserves,treasury,refund,proposal_refund'],
    ['syncstatetype',     'lagging,following'],
    ['scriptpurposetype', 'spend,mint,cert,reward,vote,propose'],
    ['scripttype',        'multisig,timelock,plutusV1,plutusV2,plutusV3'],
    ['voterrole',         'ConstitutionalCommittee,DRep,SPO'],
    ['vote',              'Yes,No,Abstain'],
    ['govactiontype',     'ParameterChange,HardForkInitiation,TreasuryWithdrawals,NoConfidence,NewCommittee,NewConstitution,InfoAction'],
    ['anchortype',        'gov_action,drep,other,vote,committee_dereg,constitution']
  ];
  i int;
BEGIN
  FOR i IN 1 .. array_length(enums, 1) LOOP
    IF NOT EXISTS (SELECT 1 FROM pg_type t
                   WHERE t.typname = enums[i][1] AND t.typnamespace = current_schema()::regnamespace) THEN
      EXECUTE format('CREATE TYPE %I AS ENUM (%s)', enums[i][1],
        (SELECT string_agg(quote_literal(u.v), ', ' ORDER BY u.n)
         FROM unnest(string_to_array(enums[i][2], ',')) WITH ORDINALITY AS u(v, n)));
    END IF;
  END LOOP;
END
$$;
