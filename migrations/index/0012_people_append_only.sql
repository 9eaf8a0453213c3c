-- A tenant's people are facts: an invitation, a seat and a change of role are appended and
-- never edited or deleted. An invitation is stamped once when it is accepted and once when
-- it is withdrawn; a seat once when it is revoked; a role changes by a new seat_roles row.
CREATE TRIGGER seat_roles_no_update BEFORE UPDATE ON seat_roles
BEGIN SELECT RAISE(ABORT, 'append-only: UPDATE on seat_roles is refused'); END;
--> statement-breakpoint
CREATE TRIGGER seat_roles_no_delete BEFORE DELETE ON seat_roles
BEGIN SELECT RAISE(ABORT, 'append-only: DELETE on seat_roles is refused'); END;
--> statement-breakpoint
CREATE TRIGGER seats_no_delete BEFORE DELETE ON seats
BEGIN SELECT RAISE(ABORT, 'append-only: DELETE on seats is refused'); END;
--> statement-breakpoint
CREATE TRIGGER seats_stamped_once BEFORE UPDATE ON seats
WHEN OLD.revoked_at IS NOT NULL
  OR NEW.id IS NOT OLD.id OR NEW.person_id IS NOT OLD.person_id OR NEW.tenant_id IS NOT OLD.tenant_id
  OR NEW.role IS NOT OLD.role OR NEW.invitation_id IS NOT OLD.invitation_id OR NEW.created_at IS NOT OLD.created_at
BEGIN SELECT RAISE(ABORT, 'append-only: a seat is only stamped, once, when it is revoked'); END;
--> statement-breakpoint
CREATE TRIGGER invitations_no_delete BEFORE DELETE ON invitations
BEGIN SELECT RAISE(ABORT, 'append-only: DELETE on invitations is refused'); END;
--> statement-breakpoint
CREATE TRIGGER invitations_stamped_once BEFORE UPDATE ON invitations
WHEN NEW.id IS NOT OLD.id OR NEW.token_hash IS NOT OLD.token_hash OR NEW.tenant_id IS NOT OLD.tenant_id
  OR NEW.email IS NOT OLD.email OR NEW.role IS NOT OLD.role OR NEW.invited_by IS NOT OLD.invited_by
  OR NEW.created_at IS NOT OLD.created_at OR NEW.expires_at IS NOT OLD.expires_at
  OR (OLD.accepted_at IS NOT NULL AND (NEW.accepted_at IS NOT OLD.accepted_at OR NEW.accepted_by IS NOT OLD.accepted_by))
  OR (OLD.withdrawn_at IS NOT NULL AND (NEW.withdrawn_at IS NOT OLD.withdrawn_at OR NEW.withdrawn_by IS NOT OLD.withdrawn_by))
BEGIN SELECT RAISE(ABORT, 'append-only: an invitation is only stamped, once, when it is accepted or withdrawn'); END;
