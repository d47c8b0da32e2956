package dbsync

// AccountQuery selects one page of an account list (dbsync/account) or of
// an asset's holders.
type AccountQuery struct {
	Limit     int  // page size (at least 1)
	Offset    int  // items skipped
	Ascending bool // chain order (ignored by the lists that have one order)
}

// AccountPage is one page of such a list in the snapshot of Tip. Total
// counts the whole list.
type AccountPage[T any] struct {
	Items []T
	Total int64
	Tip   Tip
}

// pageRow is the part every row of such a list shares: the list's total,
// and n, the item's place in the list (nil on the one row of an empty page).
type pageRow struct {
	Total int64  `db:"total"`
	N     *int64 `db:"n"`
}
