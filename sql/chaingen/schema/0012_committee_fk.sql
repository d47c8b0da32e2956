-- The one foreign key of db-sync's stock schema: a committee's members go
-- with it. Added once committee's primary key exists.
ALTER TABLE committee_member ADD CONSTRAINT committee_member_committee_id_fkey FOREIGN KEY (committee_id) REFERENCES committee (id) ON DELETE CASCADE ON UPDATE RESTRICT;
