package delivery

import (
	"errors"
	"fmt"
	"net/netip"
	"syscall"

	"github.com/syncgate/syncgate/internal/events"
)

// errForbiddenAddress is the refusal of a connection to an address a
// webhook may not reach.
var errForbiddenAddress = errors.New("address not allowed for webhooks (private, loopback, link-local or metadata)")

// refuseForbidden is a net.Dialer Control function: it runs once the name
// is resolved, on the address about to be connected to, so a DNS answer
// that changes after any earlier check cannot lead a webhook inside.
func refuseForbidden(network, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("%w: %s", errForbiddenAddress, address)
	}
	if events.ForbiddenIP(ap.Addr()) {
		return fmt.Errorf("%w: %s", errForbiddenAddress, ap.Addr())
	}
	return nil
}
