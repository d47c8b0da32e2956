package blockfrost

func (a *API) utilRoutes() []Route { return nil }
