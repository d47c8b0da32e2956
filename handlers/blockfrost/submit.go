package blockfrost

func (a *API) submitRoutes() []Route { return nil }
