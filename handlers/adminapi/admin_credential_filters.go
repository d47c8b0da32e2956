package adminapi

import (
	"encoding/json"
	"slices"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/auth"
	"github.com/syncgate/syncgate/handlers/httpx"
)

// Access-filter fields of a credential (our addition; docs/DECISIONS.md
// "Access filters"): each an array of strings or null; [] and null: none.
const (
	fieldAllowedIPs     = "allowed_ips"
	fieldAllowedOrigins = "allowed_origins"
	fieldAllowedGroups  = "allowed_route_groups"
)

// credentialFilters reads the filter fields present in obj into f, each
// validated and made canonical (duplicates dropped). set reports which
// were present.
func credentialFilters(obj map[string]json.RawMessage) (f admin.CredentialFilters, setIPs, setOrigins, setGroups bool, err error) {
	if raw, ok := obj[fieldAllowedIPs]; ok {
		setIPs = true
		f.AllowedIPs, err = filterList(raw, httpx.ErrAllowedIPsType, func(s string) (string, error) {
			p, ok := auth.ParseAllowedIP(s)
			if !ok {
				return "", httpx.ErrAllowedIP(s)
			}
			return p.String(), nil
		})
		if err != nil {
			return
		}
	}
	if raw, ok := obj[fieldAllowedOrigins]; ok {
		setOrigins = true
		f.AllowedOrigins, err = filterList(raw, httpx.ErrAllowedOriginsType, func(s string) (string, error) {
			o, ok := auth.ParseAllowedOrigin(s)
			if !ok {
				return "", httpx.ErrAllowedOrigin(s)
			}
			return o, nil
		})
		if err != nil {
			return
		}
	}
	if raw, ok := obj[fieldAllowedGroups]; ok {
		setGroups = true
		f.AllowedRouteGroups, err = filterList(raw, httpx.ErrAllowedGroupsType, func(s string) (string, error) {
			if !admin.ValidRouteGroup(s) {
				return "", httpx.ErrAllowedGroup(s)
			}
			return s, nil
		})
	}
	return
}

// filterList reads null or an array of at most auth.MaxFilterEntries
// strings, each through canon.
func filterList(raw json.RawMessage, typeErr error, canon func(string) (string, error)) ([]string, error) {
	if isNull(raw) {
		return nil, nil
	}
	var in []json.RawMessage
	if err := json.Unmarshal(raw, &in); err != nil || len(in) > auth.MaxFilterEntries {
		return nil, typeErr
	}
	out := make([]string, 0, len(in))
	for _, r := range in {
		s, ok := jsonString(r)
		if !ok {
			return nil, typeErr
		}
		c, err := canon(s)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out, nil
}

// orEmpty shows a missing list as [].
func orEmpty(l []string) []string {
	if l == nil {
		return []string{}
	}
	return l
}
