package blockfrost

func (a *API) mempoolRoutes() []Route { return nil }
