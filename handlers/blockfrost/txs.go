package blockfrost

func (a *API) txRoutes() []Route { return nil }
