package blockfrost

func (a *API) networkRoutes() []Route { return nil }
